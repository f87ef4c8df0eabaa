// `man` hyphenates words at a line's end as it renders a page: "Helge Kreutz‐\n       mann <debian@…>" (U+2010
// in UTF-8, an ASCII hyphen in the C locale an agent's container often runs in; other formatters write a soft
// hyphen). Read as written, the two halves are two words: the tagger found "Helge Kreutz" and left "mann" readable,
// or took half a common word for a name ("Ihre Argu‐\n mente": "Argu"). The detector reads the text with such
// breaks closed up ("Kreutzmann", "Argumente") and maps what it finds back onto the text as written, so the whole
// name, break included, is what a mode replaces. A compound's own hyphen at a line's end is closed up too
// ("co-\nauthored"): no name's second part is in lower case, so no name is made or lost by it.

/**
 * A hyphen ending a line inside a word: a letter before it, a lower-case letter opening the next line; not a
 * compound's first part standing for a second one the next word completes ("Lese-\n und Schreibzugriff").
 */
const BREAK_RE = /(?<=\p{L})[-\u2010\u00ad]\r?\n[ \t]*(?=\p{Ll})(?!(?:und|oder|bzw|sowie|and|or|et|ou|en|of|e|o|y|i|lub|oraz|albo)[^\p{L}])/gu;
/** A hyphen of any of the three before a line break: most texts have none, and are passed by this one scan. */
const ANY_BREAK_RE = /[-\u2010\u00ad]\r?\n/;

export interface JoinedLines {
  /** The text with every hyphenation break closed up. */
  readonly text: string;
  /** A span of `text` as a span of the text as written. */
  toOriginal(start: number, end: number): [number, number];
}

/** `text` with its words hyphenated across lines joined, or null when it has none. */
export function joinHyphenatedLines(text: string): JoinedLines | null {
  if (!ANY_BREAK_RE.test(text)) return null;
  // cuts[k]: where, in the joined text, the k-th break was taken out; removed[k]: characters taken out up to it.
  const cuts: number[] = [];
  const removed: number[] = [];
  const parts: string[] = [];
  let from = 0;
  let gone = 0;
  BREAK_RE.lastIndex = 0;
  for (let m = BREAK_RE.exec(text); m !== null; m = BREAK_RE.exec(text)) {
    parts.push(text.slice(from, m.index));
    from = m.index + m[0].length;
    cuts.push(m.index - gone);
    gone += m[0].length;
    removed.push(gone);
  }
  if (cuts.length === 0) return null;
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
