import type { Candidate } from '../recognizer.js';
import { COMMON_WORD_GIVEN_NAME_SET, GIVEN_NAME_SET } from '../recognizers/person-words.js';

// French (and much administrative and business) writing puts the surname in capitals after the given name: "Jean
// DUPONT", "Nicolas FRANÇOIS <…>", "Merci à Pierre DURAND". The tagger learnt names in title case and ended the
// name on the given name, so the surname, the part that identifies, was left readable. A name ending on a known
// given name takes the word in capitals right after it on the same line, unless that word is one capitals write
// for something else (a role, a country, a heading, a conjunction).

/**
 * The word right after a name: three capitals or more (an apostrophe or hyphen inside: "D'ARC", "LE-GALL"), then no
 * letter, no host's dot and no number after it (an office's code: "Carol St. Clair EB 3889").
 */
const CAPITALS_AFTER_RE = /^[ \t]+(\p{Lu}[\p{Lu}'’-]*\p{Lu}\p{Lu})(?![\p{L}\p{N}_@]|\.[\p{L}\p{N}]|[ \t]*\d)/u;
/**
 * Words in capitals that follow a given name without being its surname: a role, a country, a conjunction, a
 * heading, a shout. (Shorter words, and acronyms without a vowel, fail the rules around it already.)
 */
const NOT_SURNAMES: ReadonlySet<string> = new Set(
  `CEO CTO CFO COO CIO CMO CISO EVP MBA UTC CET CEST USA API URL JSON AWS CLI GUI ASAP FYI AND NOT THE FOR UND ODER
  LES VON VAN SEE ALSO NOTE NOTES TODO FIXME README AUTHOR AUTHORS BUGS NAME SYNOPSIS DESCRIPTION OPTIONS EXAMPLES
  COPYRIGHT LICENSE WARNING ERROR INFO DEBUG NOW TODAY PLEASE URGENT ALL WAS ARE YES THANKS`
    .split(/\s+/)
    .filter((w) => w !== ''),
);
/** A surname has a vowel; an acronym often none ("Darwin SSL", "Anna HTTP"). */
const VOWEL_RE = /[AEIOUYÀ-ÆÈ-ÏÒ-ÖØ-ÝĄĘŁÓŚŹŻ]/u;
/** The name's last word. (A roman numeral after a name passes the rules too, and is kept with it: "Louis XIV".) */
const LAST_WORD_RE = /[\p{L}'’]+$/u;

/** `candidates` with each PERSON ending on a known given name stretched over a surname in capitals after it. */
export function withCapitalsSurnames(text: string, candidates: Candidate[]): Candidate[] {
  let out: Candidate[] | null = null;
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i] as Candidate;
    if (c.type !== 'PERSON') continue;
    const last = LAST_WORD_RE.exec(text.slice(Math.max(c.start, c.end - 32), c.end))?.[0] ?? '';
    // A given name that is also a word counts alone only ("Claude DUBOIS"): last in a longer name it is its
    // surname ("Ralf Brown SPAWNO library").
    const alone = !text.slice(c.start, c.end).includes(' ');
    const given = (w: string): boolean => GIVEN_NAME_SET.has(w) || (alone && COMMON_WORD_GIVEN_NAME_SET.has(w));
    if (!given(last) && !last.split('-').every(given)) continue;
    const length = capitalsSurnameAfter(text, c.end);
    if (length === 0) continue;
    out ??= candidates.slice();
    out[i] = { ...c, end: c.end + length };
  }
  return out ?? candidates;
}

/** The length of a surname in capitals right after `end` ("Jean| DUPONT"), with the space before it; 0 when none. */
export function capitalsSurnameAfter(text: string, end: number): number {
  const m = CAPITALS_AFTER_RE.exec(text.slice(end, end + 48));
  return m === null || NOT_SURNAMES.has(m[1] as string) || !VOWEL_RE.test(m[1] as string) ? 0 : m[0].length;
}
