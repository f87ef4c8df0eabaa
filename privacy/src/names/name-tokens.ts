/** The words of a text as the name tagger sees them, with their offsets and where sentences start. */
export interface NameTokens {
  /** Each word near a capitalised word; '' for words too far from any to be a feature of one (never read). */
  readonly words: string[];
  readonly starts: number[];
  readonly ends: number[];
  /** 1 where a token opens a sentence (text start, after . ! ? or a line break). */
  readonly sentenceStart: Uint8Array;
}

// A word is letters and digits with inner apostrophes and hyphens ("O'Brien", "Jean-Pierre"); an initial or a
// short title keeps its full stop ("J.", "Dr.") so it ends no sentence; French and Italian elision before a
// capital is a token apart ("d'" "Artagnan", "dell'" "Italia"); any other non-space character is a token of its
// own, as the CoNLL-style corpora the tagger learnt from write them. A hand-written scan over a character table
// (no regex, no string per word far from a capital) keeps the detector's prose throughput (profiled: a regex
// tokeniser and its strings were a third of the detector's time).

const LETTER = 1;
const UPPER = 2;
const DIGIT = 4;
const SPACE = 8;
const NEWLINE = 16;
const CLASS = new Uint8Array(0x250);
for (let c = 0; c < CLASS.length; c++) {
  const ch = String.fromCharCode(c);
  if (c >= 0x30 && c <= 0x39) CLASS[c] = DIGIT;
  else if (c === 0x0a || c === 0x0d) CLASS[c] = SPACE | NEWLINE;
  else if (/\s/.test(ch)) CLASS[c] = SPACE;
  else if (c >= 0xc0 && (c === 0xd7 || c === 0xf7)) CLASS[c] = 0;
  else if (/\p{L}/u.test(ch)) CLASS[c] = ch !== ch.toLowerCase() ? LETTER | UPPER : LETTER;
}

function classOf(c: number): number {
  if (c < 0x250) return CLASS[c] as number;
  if (c === 0x2028 || c === 0x2029) return SPACE | NEWLINE;
  if (c === 0x2019) return 0;
  if ((c >= 0x2000 && c <= 0x200a) || c === 0x3000 || c === 0x202f || c === 0x205f) return SPACE;
  if (c >= 0x1e00 && c <= 0x1eff) return (c & 1) === 0 ? LETTER | UPPER : LETTER; // Latin Extended Additional
  return 0;
}

const ABBREVIATIONS: ReadonlySet<string> = new Set(
  'Mr Mrs Ms Dr Prof St Sr Sra Mme Mlle Dott Sig Hr Fr Jr Ing Mgr Dhr Mevr Hon Rev Gen Col Lt Capt Sgt'.split(' '),
);
/** English clitics, a token apart as the corpora write them: "Smith 's", "What 's". */
const CLITICS: ReadonlySet<string> = new Set(['s', 're', 'll', 've', 'd', 'm']);
const APOSTROPHE = 0x27;
const RIGHT_QUOTE = 0x2019;
const HYPHEN = 0x2d;
const DOT = 0x2e;

/** Where an English clitic starting with the apostrophe at `at` ends, or -1 when none starts there. */
function cliticEnd(text: string, at: number): number {
  let j = at + 1;
  while (j < text.length && j - at <= 3 && (classOf(text.charCodeAt(j)) & LETTER) !== 0) j += 1;
  if (j === at + 1 || (j < text.length && (classOf(text.charCodeAt(j)) & (LETTER | DIGIT)) !== 0)) return -1;
  return CLITICS.has(text.slice(at + 1, j).toLowerCase()) ? j : -1;
}

function isSentenceEnd(text: string, start: number, end: number): boolean {
  if (end - start !== 1) return false;
  const c = text.charCodeAt(start);
  return c === DOT || c === 0x21 || c === 0x3f || c === 0x2026;
}

/**
 * Where the hunk header's second "@@" ends when the line starting at `lineStart` is a diff's hunk header ("@@ -45,8
 * +55,9 @@ Linear."), else -1: git writes after it the line the hunk sits under, so its first word opens a line.
 */
function hunkHeaderEnd(text: string, lineStart: number): number {
  if (!text.startsWith('@@ -', lineStart)) return -1;
  // A header's ranges are short: read a bounded head of the line, never on to the text's end.
  const head = text.slice(lineStart, lineStart + 120);
  const close = head.indexOf(' @@', 4);
  const eol = head.indexOf('\n');
  return close !== -1 && (eol === -1 || close < eol) ? lineStart + close + 3 : -1;
}

export function tokeniseForNames(text: string): NameTokens {
  const starts: number[] = [];
  const ends: number[] = [];
  const breaks: number[] = [];
  const capitalised: number[] = [];
  const n = text.length;
  let i = 0;
  let newline = true;
  // Where the current line's hunk header ends, if it is one: read once per line.
  let hunkEnd = hunkHeaderEnd(text, 0);
  while (i < n) {
    const k = classOf(text.charCodeAt(i));
    if ((k & SPACE) !== 0) {
      if ((k & NEWLINE) !== 0) {
        newline = true;
        if (text.charCodeAt(i + 1) === 0x40 /* @ */) hunkEnd = hunkHeaderEnd(text, i + 1);
      }
      i += 1;
      continue;
    }
    const start = i;
    if ((k & LETTER) !== 0) {
      i += 1;
      for (;;) {
        while (i < n && (classOf(text.charCodeAt(i)) & (LETTER | DIGIT)) !== 0) i += 1;
        const c = text.charCodeAt(i);
        if ((c === APOSTROPHE || c === RIGHT_QUOTE || c === HYPHEN) && i + 1 < n && (classOf(text.charCodeAt(i + 1)) & (LETTER | DIGIT)) !== 0) {
          // Elision: a lower-case article of up to five letters, then a capital, splits ("dell'Italia").
          if (c !== HYPHEN && (k & UPPER) === 0 && i - start <= 5 && (classOf(text.charCodeAt(i + 1)) & UPPER) !== 0) {
            i += 1;
            break;
          }
          if (c !== HYPHEN && cliticEnd(text, i) !== -1) break;
          i += 2;
          continue;
        }
        // Letters each with its full stop are one token, as the corpora write them ("U.S.", "A.J.P."): split,
        // the stop after "U" ended a sentence and "S. Open" read as a name.
        if (c === DOT && (k & UPPER) !== 0 && i - start === 1 && i + 2 < n && (classOf(text.charCodeAt(i + 1)) & LETTER) !== 0 && text.charCodeAt(i + 2) === DOT) {
          i += 1;
          while (i + 1 < n && (classOf(text.charCodeAt(i)) & LETTER) !== 0 && text.charCodeAt(i + 1) === DOT) i += 2;
          break;
        }
        if (c === DOT && (k & UPPER) !== 0 && (i + 1 >= n || (classOf(text.charCodeAt(i + 1)) & (LETTER | DIGIT)) === 0)) {
          if (i - start === 1 || ABBREVIATIONS.has(text.slice(start, i))) i += 1;
        }
        break;
      }
      if ((k & UPPER) !== 0) capitalised.push(starts.length);
    } else if ((text.charCodeAt(i) === APOSTROPHE || text.charCodeAt(i) === RIGHT_QUOTE) && cliticEnd(text, i) !== -1) {
      i = cliticEnd(text, i);
    } else if ((k & DIGIT) !== 0) {
      // "104th-ranked", "4x100", "1990s" are one token, as the corpora write them; so is a one- or two-digit
      // ordinal or list number with its full stop ("2. Mai", "3. Kocinski"), which ends no sentence.
      i += 1;
      while (i < n && (classOf(text.charCodeAt(i)) & DIGIT) !== 0) i += 1;
      const digits = i - start;
      while (i < n && (classOf(text.charCodeAt(i)) & (LETTER | DIGIT)) !== 0) i += 1;
      while (i + 1 < n && text.charCodeAt(i) === HYPHEN && (classOf(text.charCodeAt(i + 1)) & LETTER) !== 0) {
        i += 1;
        while (i < n && (classOf(text.charCodeAt(i)) & (LETTER | DIGIT)) !== 0) i += 1;
      }
      if (i - start === digits && digits <= 2 && text.charCodeAt(i) === DOT && (i + 1 >= n || (classOf(text.charCodeAt(i + 1)) & SPACE) !== 0)) i += 1;
    } else {
      i += 1;
    }
    const t = starts.length;
    if (newline || t === 0 || isSentenceEnd(text, starts[t - 1] as number, ends[t - 1] as number) || start === hunkEnd + 1) breaks.push(t);
    newline = false;
    starts.push(start);
    ends.push(i);
  }
  const count = starts.length;
  const sentenceStart = new Uint8Array(count);
  for (const b of breaks) sentenceStart[b] = 1;
  // Only words within two of a capitalised word are ever features: only they become strings.
  const words = new Array<string>(count).fill('');
  let done = -1;
  for (const c of capitalised) {
    for (let j = Math.max(c - 2, done + 1); j <= c + 2 && j < count; j++) words[j] = text.slice(starts[j] as number, ends[j] as number);
    done = Math.min(c + 2, count - 1);
  }
  return { words, starts, ends, sentenceStart };
}
