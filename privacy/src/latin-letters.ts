// Character classes for Latin-script letters, the script of the seven languages, used instead of \p{Lu}/\p{L}:
// without the u flag V8 scans these regexes several times faster. Latin Extended-A (U+0100-U+017F) alternates
// capital and small letters, so its capitals are listed one by one: a range would let "ż" start a name.

function lettersIn(from: number, to: number, capital: boolean): string {
  let out = '';
  for (let c = from; c <= to; c++) {
    const ch = String.fromCharCode(c);
    const isCapital = ch.toUpperCase() === ch && ch.toLowerCase() !== ch;
    const isSmall = ch.toLowerCase() === ch && ch.toUpperCase() !== ch;
    if (capital ? isCapital : isSmall) out += ch;
  }
  return out;
}

const EXTENDED_CAPITALS = lettersIn(0x100, 0x17f, true);
const EXTENDED_SMALL = lettersIn(0x100, 0x17f, false);

/** Capital letters: A-Z, Latin-1 (À-Þ but ×) and Latin Extended-A capitals (Ł, Ś, Ż, Č, Ő, …). */
export const UPPER_CLASS = `[A-ZÀ-ÖØ-Þ${EXTENDED_CAPITALS}]`;
/** Small letters, ß included. */
export const SMALL_CLASS = `[a-zß-öø-ÿ${EXTENDED_SMALL}]`;
/** Small letters and the apostrophes of O'Brien and D’Angelo. */
export const LOWER_CLASS = `[a-zß-öø-ÿ${EXTENDED_SMALL}'’]`;
/** The contents of a class of every letter, to put inside [...] with other characters. */
export const LETTERS = `A-Za-zÀ-ÖØ-öø-ÿ${EXTENDED_CAPITALS}${EXTENDED_SMALL}`;
/** Every letter. */
export const LETTER_CLASS = `[${LETTERS}]`;
