// Context words near a candidate: cheap because they are only consulted for candidates that passed format
// and checksum checks, and the slice is bounded by `window`.

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 13;
}

/**
 * Start of the clause that contains `start`, looking back at most `window` characters. A clause ends at
 * a sentence end (". ", "! ", "? ", "; ") or a line break, except a line break after a label ending in ':'
 * ("Phone:\n…"), so a word in the previous sentence or line does not count as context.
 */
function clauseStart(text: string, start: number, window: number): number {
  const limit = Math.max(0, start - window);
  for (let i = start - 1; i >= limit; i--) {
    const c = text.charCodeAt(i);
    if (c === 10 /* \n */) {
      let j = i - 1;
      while (j >= limit && isSpace(text.charCodeAt(j))) j--;
      if (j < limit || text.charCodeAt(j) !== 58 /* : */) return i + 1;
    } else if ((c === 46 || c === 33 || c === 63 || c === 59) && i + 1 < start && isSpace(text.charCodeAt(i + 1))) {
      return i + 1;
    }
  }
  return limit;
}

/** Whether `re` (not global, not sticky) matches in the same clause within `window` characters before `start`. */
export function hasContextBefore(text: string, start: number, window: number, re: RegExp): boolean {
  return re.test(text.slice(clauseStart(text, start, window), start));
}

/** Whether `re` (not global, not sticky) matches on the same line within `window` characters after `end`. */
export function hasContextAfter(text: string, end: number, window: number, re: RegExp): boolean {
  const after = text.slice(end, Math.min(text.length, end + window));
  const newline = after.indexOf('\n');
  return re.test(newline === -1 ? after : after.slice(0, newline));
}

/**
 * Calls `onValue` for the first match of the global `valueRe` that starts within `window` characters after
 * each match of the global `contextRe`. Used by types reported only with context (passport, driving
 * licence, date of birth, PESEL, German tax id): the rare context word is searched first, so text without
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
    valueRe.lastIndex = ctxEnd - ctx.index;
    const m = valueRe.exec(slice);
    if (m === null || m.index > ctxEnd - ctx.index + window) continue;
    const start = ctx.index + m.index;
    if (start < reportedTo) continue;
    reportedTo = start + m[0].length;
    onValue(start, m);
  }
}
