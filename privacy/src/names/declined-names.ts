import { RANK_FORMAT, type Candidate } from '../recognizer.js';
import { CONSONANT_END_RE, CONSONANT_STEM } from './later-mentions.js';

// A full name found ("Jim Meyering") written again with both its words declined alike, as Polish declines a
// foreign name ("Poprawki Jima Meyeringa", "z Jimem Meyeringiem"): two words each ending on a case ending after
// the found name's own two words is that person, with or without a Polish letter in the text (later-mentions.ts
// declines lone surnames only in Polish text, where "Rossa" is no case of "Ross"), and whatever the tagger reads
// there (one retrain reads nothing, the shipped model 10.1).

/** Singular Polish case endings of a name whose stem ends on a consonant: CONSONANT_STEM's but "", "s" and plural "ów". */
const ENDING = `(?:${[...CONSONANT_STEM].filter((e) => e !== '' && e !== 's' && e !== 'ów').join('|')})`;
const TWO_WORDS_RE = /^(\p{Lu}\p{Ll}+)[ \t]+(\p{Lu}\p{Ll}+)$/u;

/** Whether `word` is written in `text` with more letters after it somewhere: a prefilter before the regex. */
function writtenLonger(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    const next = text.charAt(at + word.length);
    if (next !== '' && next.toLowerCase() !== next.toUpperCase()) return true;
  }
  return false;
}

/** Adds to `candidates` the declined forms of the two-word PERSON names among them. */
export function addDeclinedNames(text: string, candidates: Candidate[]): void {
  const pairs = new Set<string>();
  for (const c of candidates) {
    if (c.type !== 'PERSON') continue;
    const m = TWO_WORDS_RE.exec(text.slice(c.start, c.end));
    if (m === null || !CONSONANT_END_RE.test(m[1] as string) || !CONSONANT_END_RE.test(m[2] as string)) continue;
    pairs.add(`${m[1] as string} ${m[2] as string}`);
  }
  const found: Candidate[] = [];
  for (const pair of pairs) {
    const [given, surname] = pair.split(' ') as [string, string];
    if (!writtenLonger(text, surname)) continue;
    const re = new RegExp(`(?<![\\p{L}\\p{N}_])${given}${ENDING}[ \\t]+${surname}${ENDING}(?![\\p{L}\\p{N}_])`, 'gu');
    for (const m of text.matchAll(re)) {
      const start = m.index;
      const end = start + m[0].length;
      if (!candidates.some((c) => c.type === 'PERSON' && c.start < end && start < c.end)) found.push({ type: 'PERSON', start, end, rank: RANK_FORMAT });
    }
  }
  candidates.push(...found);
}
