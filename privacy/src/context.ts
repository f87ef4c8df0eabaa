// Context around a candidate: words before or after it (phone, NHS, card, …), labels that say a number is
// something else ("Order #"), and the context-first search of types reported only after their own word.
// Every look is bounded by a small window and stops at the clause or line, so a word in the previous
// sentence does not count, and the cost is only paid for candidates that passed their own checks.

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 13;
}

/**
 * A case-insensitive regex for any of `words` (regex fragments) as whole words: bounded by letter classes, as
 * \b without the u flag ends a word at any non-ASCII letter ("dzwonić"). For a regex run over whole texts,
 * `ascii` keeps \b: the lookbehind and the u flag cost 3-4% of an agent prompt's scan, and such words must then
 * start and end with an ASCII letter.
 */
export function wordsRe(words: readonly string[], flags = 'i', ascii = false): RegExp {
  const alternation = words.join('|');
  if (ascii) return new RegExp(String.raw`\b(?:${alternation})\b`, flags);
  return new RegExp(String.raw`(?<![\p{L}\p{N}_])(?:${alternation})(?![\p{L}\p{N}_])`, `${flags}u`);
}

/** Words that label a number as an identifier of something else. */
export const ID_LABEL_WORDS: readonly string[] = Object.freeze([
  'order', 'invoice', 'inv', 'ref', 'reference', 'id', 'account', 'acct', 'tracking', 'transaction', 'txn',
  'ticket', 'case', 'serial', 'sku', 'batch', 'po', 'isbn', 'code', 'customer', 'booking', 'policy', 'claim',
]);

/** An id label (one of `words`) ending right before a value: "Order #", "PO number", "ref is ". */
export function idLabelRe(words: readonly string[]): RegExp {
  return new RegExp(String.raw`\b(?:${words.join('|')})(?:[ _-]?(?:number|no\.?|nr\.?|n[°º.]|num|id|#))?(?: is| was)?\W{0,4}$`, 'i');
}

/** How far back context may be looked for: the current clause, or the current line. */
export type ContextScope = 'clause' | 'line';

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

const LETTER_RE = /\p{L}/u;

/** Whether the '>' at `i` closes an HTML end tag such as "</a>" (tag names are short). */
function isEndTag(text: string, i: number, limit: number): boolean {
  for (let j = i - 1; j >= Math.max(limit, i - 12); j--) {
    if (text.charCodeAt(j) === 60 /* < */) return text.charCodeAt(j + 1) === 47 /* / */;
  }
  return false;
}

/** Abbreviations whose full stop ends no clause: "VAT reg. GB 123…", "Rechnung Nr. 12", "Tel. +44…". */
const ABBREVIATIONS = new Set(['reg', 'no', 'nr', 'tel', 'tél', 'ref', 'mob', 'kom', 'str']);

function abbreviationBefore(text: string, dot: number): boolean {
  let i = dot;
  while (i > 0 && dot - i < 4 && LETTER_RE.test(text[i - 1] ?? '')) i--;
  return i < dot && (i === 0 || !LETTER_RE.test(text[i - 1] ?? '')) && ABBREVIATIONS.has(text.slice(i, dot).toLowerCase());
}

/**
 * Start of the clause (or line) that contains `start`, looking back at most `window` characters. A line
 * ends at a line break, except one after a label ending in ':' ("Phone:\n…"); a clause also ends at a
 * sentence end (". ", "! ", "? ", "; " not followed by a digit, so "NHS No. 943…" stays one clause, nor after an
 * abbreviation: "VAT reg. GB 123…") and at
 * an HTML end tag followed by words ("<a>call us</a> The site had …", but not "<b>Phone:</b> 0161…"). A
 * word in the previous sentence, line or element then does not count as context.
 */
function scopeStart(text: string, start: number, window: number, scope: ContextScope): number {
  const limit = Math.max(0, start - window);
  for (let i = start - 1; i >= limit; i--) {
    const c = text.charCodeAt(i);
    if (c === 10 /* \n */) {
      let j = i - 1;
      while (j >= limit && isSpace(text.charCodeAt(j))) j--;
      if (j < limit || text.charCodeAt(j) !== 58 /* : */) return i + 1;
    } else if (scope === 'clause') {
      if ((c === 46 || c === 33 || c === 63 || c === 59) && i + 2 < start && isSpace(text.charCodeAt(i + 1))) {
        if (!isDigit(text.charCodeAt(i + 2)) && !(c === 46 && abbreviationBefore(text, i))) return i + 1;
      } else if (c === 62 /* > */ && isEndTag(text, i, limit) && LETTER_RE.test(text.slice(i + 1, start))) {
        return i + 1;
      }
    }
  }
  return limit;
}

/** The text within `window` characters before `start`, cut at the start of its clause or line. */
export function textBefore(text: string, start: number, window: number, scope: ContextScope = 'clause'): string {
  return text.slice(scopeStart(text, start, window, scope), start);
}

const LIST_GAP_RE = /^\s{0,2}(?:,|\/|or|and|&)\s{0,2}$/i;

/**
 * Like textBefore, but also cut after the last digit: a context word belongs to the nearest number
 * ("NHS: 943 476 5919, PO number 4147036783" gives the PO number none), unless the numbers form a list
 * ("call 0161 496 0000 or 07700 900123").
 */
export function textBeforeSinceNumber(text: string, start: number, window: number): string {
  const before = textBefore(text, start, window);
  let last = before.length - 1;
  while (last >= 0 && !isDigit(before.charCodeAt(last))) last--;
  if (last < 0 || LIST_GAP_RE.test(before.slice(last + 1))) return before;
  return before.slice(last + 1);
}

/** Whether `re` (not global, not sticky) matches within `window` characters before `start`, in `scope`. */
export function hasContextBefore(
  text: string,
  start: number,
  window: number,
  re: RegExp,
  scope: ContextScope = 'clause',
): boolean {
  return re.test(textBefore(text, start, window, scope));
}

/** Whether `re` (not global, not sticky) matches on the same line within `window` characters after `end`. */
export function hasContextAfter(text: string, end: number, window: number, re: RegExp): boolean {
  const after = text.slice(end, Math.min(text.length, end + window));
  const newline = after.indexOf('\n');
  return re.test(newline === -1 ? after : after.slice(0, newline));
}

// Between a context word and its value: a sentence end followed by a capital (not "passport no. is"), or
// a line break not after a label's ':' ("Date of birth unknown. Appointment 14/07/2024" is no DOB).
const GAP_BREAK_RE = /[.!?;]\s+[A-Z]|[^:\s][ \t]*\n/;

/**
 * Calls `onValue` for the first match of the global `valueRe` that starts within `window` characters after
 * each match of the global `contextRe`, in the same sentence. Used by types reported only with context
 * (passport, driving licence, date of birth, …): the rare context word is searched first, so text without
 * one costs a single scan, and each context word costs at most a bounded slice (linear overall).
 * `maxValueLength` bounds the value so the slice holds it whole plus the two characters its lookahead needs.
 */
export function forEachValueAfterContext(
  text: string,
  contextRe: RegExp,
  valueRe: RegExp,
  window: number,
  maxValueLength: number,
  onValue: (start: number, match: RegExpExecArray) => void,
): void {
  contextRe.lastIndex = 0;
  let reportedTo = 0;
  for (let ctx = contextRe.exec(text); ctx !== null; ctx = contextRe.exec(text)) {
    const ctxEnd = ctx.index + ctx[0].length;
    if (ctx[0].length === 0) contextRe.lastIndex++;
    // The slice starts at the context word so lookbehinds in valueRe see real characters.
    const slice = text.slice(ctx.index, Math.min(text.length, ctxEnd + window + maxValueLength + 2));
    const offset = ctxEnd - ctx.index;
    valueRe.lastIndex = offset;
    const m = valueRe.exec(slice);
    if (m === null || m.index > offset + window || GAP_BREAK_RE.test(slice.slice(offset, m.index))) continue;
    const start = ctx.index + m.index;
    if (start < reportedTo) continue;
    reportedTo = start + m[0].length;
    onValue(start, m);
  }
}
