import { GIVEN_NAME_SET } from './recognizers/person-words.js';

// Line breaks that cut a name in two. Read as written, each half is a word of its own line:
//  - `man` hyphenates words at a line's end as it renders a page: "Helge Kreutz‐\n       mann <debian@…>" (U+2010
//    in UTF-8, an ASCII hyphen in the C locale an agent's container often runs in; other formatters write a soft
//    hyphen). The tagger found "Helge Kreutz" and left "mann" readable, or took half a common word for a name
//    ("Ihre Argu‐\n mente": "Argu"). A compound's own hyphen at a line's end is closed up too ("co-\nauthored"): no
//    name's second part is in lower case, so no name is made or lost by it.
//  - Text wrapped at a fixed width (man pages, commit messages, code comments, mail) breaks a line between a given
//    name and its surname: "maintained by Daniel\nStenberg". A line break opens a sentence for the tagger, so it
//    found "Daniel" and left the surname readable (or found the two halves as two people).
// The detector reads the text with such breaks closed up ("Kreutzmann", "Stefano Zacchiroli") and maps what it
// finds back onto the text as written, so the whole name, break included, is what a mode replaces.

/**
 * A hyphen ending a line inside a word: a letter before it, a lower-case letter opening the next line; not a
 * compound's first part standing for a second one the next word completes ("Lese-\n und Schreibzugriff").
 */
const BREAK_RE = /(?<=\p{L})[-\u2010\u00ad]\r?\n[ \t]*(?=\p{Ll})(?!(?:und|oder|bzw|sowie|and|or|et|ou|en|of|e|o|y|i|lub|oraz|albo)[^\p{L}])/gu;
/** A hyphen of any of the three before a line break: most texts have none, and are passed by this one scan. */
const ANY_BREAK_RE = /[-\u2010\u00ad]\r?\n/;

/**
 * A wrapped line is at least this long (its indent and comment marker left out): a heading, a signature or a
 * list of names one per line is shorter, and its last word and the next line's first are no one name.
 */
const WRAPPED_LINE_MIN = 32;
/** Comment and quoting markers a wrapped line repeats at the start of the next: "// Copyright Anna\n// Kowalska". */
const MARKER_RE = /^[ \t]*(?:\/\/+|#+|\*|--|;+|>+|%+)?[ \t]*/;
const UPPER_RE = /\p{Lu}/u;
const LOWER_RE = /\p{Ll}/u;
const LETTER_RE = /\p{L}/u;

export interface JoinedLines {
  /** The text with every such break closed up. */
  readonly text: string;
  /** A span of `text` as a span of the text as written. */
  toOriginal(start: number, end: number): [number, number];
}

/** One break: `length` characters from `at` in the text as written, read as `insert` ('' or one space). */
interface Edit {
  readonly at: number;
  readonly length: number;
  readonly insert: '' | ' ';
}

/** `text` with its words hyphenated across lines and its names wrapped across lines joined, or null when none. */
export function joinBrokenLines(text: string): JoinedLines | null {
  const edits = hyphenBreaks(text);
  const wraps = nameWraps(text);
  if (wraps.length > 0) {
    edits.push(...wraps);
    edits.sort((a, b) => a.at - b.at);
  }
  if (edits.length === 0) return null;
  // cuts[k]: where, in the joined text, the k-th break's characters were taken out (after its inserted space);
  // removed[k]: characters taken out up to it.
  const cuts: number[] = [];
  const removed: number[] = [];
  const parts: string[] = [];
  let from = 0;
  let gone = 0;
  for (const e of edits) {
    parts.push(text.slice(from, e.at), e.insert);
    from = e.at + e.length;
    cuts.push(e.at - gone + e.insert.length);
    gone += e.length - e.insert.length;
    removed.push(gone);
  }
  parts.push(text.slice(from));
  // Characters taken out before `at` (a span's end stops before a break there) or up to it (a start after it).
  const shift = (at: number, inclusive: boolean): number => {
    let lo = 0;
    let hi = cuts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const cut = cuts[mid] as number;
      if (cut < at || (inclusive && cut === at)) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? 0 : (removed[lo - 1] as number);
  };
  return {
    text: parts.join(''),
    toOriginal: (start, end) => [start + shift(start, true), end + shift(end, false)],
  };
}

function hyphenBreaks(text: string): Edit[] {
  const out: Edit[] = [];
  if (!ANY_BREAK_RE.test(text)) return out;
  BREAK_RE.lastIndex = 0;
  for (let m = BREAK_RE.exec(text); m !== null; m = BREAK_RE.exec(text)) out.push({ at: m.index, length: m[0].length, insert: '' });
  return out;
}

/**
 * Line breaks between a known given name (or an initial) ending a wrapped line and a capitalised word opening the
 * next, behind the same comment marker: each is read as one space. The given name is not its line's first (a line
 * of one name is a list's); a surname ending the line ends a name ("Copyright 2013 Gil Tene\nCopyright 2014 …");
 * the next line opens neither on its line's first word again (a list's next item) nor on a field name
 * ("Signed-off-by:").
 */
function nameWraps(text: string): Edit[] {
  const out: Edit[] = [];
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) {
    let end = nl;
    if (text.charCodeAt(end - 1) === 0x0d) end -= 1;
    while (end > 0 && isBlank(text.charCodeAt(end - 1))) end -= 1;
    // Most lines end on anything but a given name: this much is read of them.
    const wordStart = lastWordStart(text, end);
    if (wordStart < 0) continue;
    const last = text.slice(wordStart, end);
    if (!(last.endsWith('.') || GIVEN_NAME_SET.has(last))) continue;
    const lineStart = text.lastIndexOf('\n', wordStart) + 1;
    const before = text.slice(lineStart, wordStart);
    const marker = MARKER_RE.exec(before)?.[0] ?? '';
    if (marker.length === before.length || end - lineStart - marker.length < WRAPPED_LINE_MIN) continue;
    // The next line: its indent and the same marker as this one, then a capitalised word.
    const next = text.slice(nl + 1, nl + 1 + 120);
    const nextMarker = MARKER_RE.exec(next)?.[0] ?? '';
    if (nextMarker.trim() !== marker.trim()) continue;
    const word = capitalisedWordAt(next, nextMarker.length);
    if (word === '' || before.startsWith(word, marker.length)) continue;
    out.push({ at: end, length: nl + 1 + nextMarker.length - end, insert: ' ' });
  }
  return out;
}

/**
 * Where the capitalised word ending a line at `end` starts, after a space or a tab: "Stefano", "O'Brien",
 * "Jean-Luc", or an initial ("K."); -1 when the line ends on anything else.
 */
function lastWordStart(text: string, end: number): number {
  let i = end;
  if (text.charCodeAt(i - 1) === 0x2e) {
    // An initial: one capital and its full stop.
    i -= 2;
    return i > 0 && isUpper(text.charCodeAt(i)) && isBlank(text.charCodeAt(i - 1)) ? i : -1;
  }
  let lower = false;
  while (i > 0) {
    const c = text.charCodeAt(i - 1);
    if (isLetter(c)) {
      if (!isUpper(c)) lower = true;
      i -= 1;
    } else if ((c === 0x2d || c === 0x27 || c === 0x2019) && i - 2 >= 0 && isLetter(text.charCodeAt(i - 2))) {
      i -= 1;
    } else break;
  }
  if (i === end || i === 0 || !isBlank(text.charCodeAt(i - 1))) return -1;
  return isUpper(text.charCodeAt(i)) && lower ? i : -1;
}

/** The word at `at` in `line` when it is capitalised and no field name before a colon, or ''. */
function capitalisedWordAt(line: string, at: number): string {
  if (!UPPER_RE.test(line.charAt(at)) || !LOWER_RE.test(line.charAt(at + 1))) return '';
  let i = at + 2;
  while (i < line.length && (LETTER_RE.test(line.charAt(i)) || line.charAt(i) === '-')) i += 1;
  return line.charAt(i) === ':' ? '' : line.slice(at, i);
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

function isLetter(c: number): boolean {
  if (c < 0x80) return (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
  return LETTER_RE.test(String.fromCharCode(c));
}

function isUpper(c: number): boolean {
  if (c < 0x80) return c >= 0x41 && c <= 0x5a;
  return UPPER_RE.test(String.fromCharCode(c));
}
