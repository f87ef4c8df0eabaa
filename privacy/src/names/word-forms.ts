import { nearbyBounds } from './agent-text-words.js';

// Two ways the same text shows that a capitalised word alone is a common noun or a product's name, not a person's.
//
// A capitalised noun that the same text also writes as a part of longer words, at the head or the tail of
// compounds ("Benutzer" beside "Benutzername", "Benutzerkennung", "Benutzerdatenbank"; "Scanner" beside
// "Flachbettscanner", "Scannertyp"): German and Dutch man pages build their nouns so, and such a word alone is
// the noun. A surname declines ("Kowalskiego", "Kowalskiemu", "Stallmana", "Müllers"), with endings that open on
// a vowel or are shorter than three letters, but is seldom the start of two words whose rest opens on a
// consonant, nor the end of one. Only for words the name lists do not know (the caller's check): "Koch" beside
// "Kochbuch" stays a name. Set on the dev part of the agent-text set.

const LETTER = /\p{L}/u;
const LOWER = /\p{Ll}/u;
/** What a compound adds before or after the word: three letters or more ("-s", "-em" are endings). */
const MIN_PART = 3;
/** A declension ending opens on a vowel ("-ego", "-owi", "-emu", "-ami", "-en"); a compound's rest seldom does. */
const VOWEL = /[aeiouyąęóäöüéèàìòùáíú]/u;
/** Two different compounds: one may be a surname's derived form ("Nowakowski" beside "Nowak"). */
const MIN_COMPOUNDS = 2;

/** Whether the text around `at` (writtenLowerCase's block) writes `word` inside two different longer words. */
export function partOfCompounds(text: string, word: string, at: number): boolean {
  if (word.length < 4) return false;
  const [from, to] = nearbyBounds(text, at);
  const seen = new Set<string>();
  const lower = word.toLowerCase();
  // The head of a compound: the word as written, then lower-case letters ("Benutzer|name").
  for (let i = text.indexOf(word, from); i !== -1 && i + word.length <= to; i = text.indexOf(word, i + 1)) {
    if (i > 0 && LETTER.test(text.charAt(i - 1))) continue;
    const rest = lowerRun(text, i + word.length);
    if (rest >= MIN_PART && !VOWEL.test(text.charAt(i + word.length))) seen.add(text.slice(i, i + word.length + rest));
    if (seen.size >= MIN_COMPOUNDS) return true;
  }
  // The tail of one: lower-case letters, then the word in lower case ("Flachbett|scanner").
  for (let i = text.indexOf(lower, from); i !== -1 && i + lower.length <= to; i = text.indexOf(lower, i + 1)) {
    let start = i;
    while (start > 0 && LETTER.test(text.charAt(start - 1))) start -= 1;
    if (i - start < MIN_PART || LETTER.test(text.charAt(i + lower.length))) continue;
    seen.add(text.slice(start, i + lower.length));
    if (seen.size >= MIN_COMPOUNDS) return true;
  }
  return false;
}

function lowerRun(text: string, at: number): number {
  let to = at;
  while (to < text.length && LOWER.test(text.charAt(to))) to += 1;
  // A run that goes on in capitals is an identifier's hump, not a compound ("BenutzerName" is code-words.ts's).
  return LETTER.test(text.charAt(to)) ? 0 : to - at;
}

// A declined form of a word the same text writes undeclined, where no name the tagger found holds that word
// ("Debiana", "Debianie" beside "projekt Debian"): Polish declines products and places as it declines people,
// and a person's declined surname stands beside the full name the tagger found ("Jima Meyeringa" beside "Jim
// Meyering"). The endings are Polish nouns' (the other languages of the set decline no names in writing).

/** Polish case endings, longest first so the shortest stem is not tried before a likelier one. */
const ENDINGS = ['owi', 'ego', 'emu', 'ami', 'ach', 'iem', 'em', 'ie', 'om', 'ów', 'ej', 'a', 'u', 'y', 'i', 'ę', 'ą'];
const MIN_STEM = 4;

/**
 * Whether `word` is a declined form of a capitalised word the text around `at` writes alone, at a place
 * `inPerson` does not mark as part of a person's name.
 */
export function declinedFormOfWritten(text: string, word: string, at: number, inPerson: (at: number) => boolean): boolean {
  const [from, to] = nearbyBounds(text, at);
  for (const ending of ENDINGS) {
    if (!word.endsWith(ending) || word.length - ending.length < MIN_STEM) continue;
    const stem = word.slice(0, word.length - ending.length);
    for (let i = text.indexOf(stem, from); i !== -1 && i + stem.length <= to; i = text.indexOf(stem, i + 1)) {
      if ((i > 0 && LETTER.test(text.charAt(i - 1))) || LETTER.test(text.charAt(i + stem.length))) continue;
      if (!inPerson(i)) return true;
    }
  }
  return false;
}
