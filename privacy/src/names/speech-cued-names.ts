import { RANK_FORMAT, type Candidate } from '../recognizer.js';
import { OFFICES, ROLE_WORDS, SPEECH_VERBS, STOP_WORDS, TITLE_SET } from '../recognizers/person-words.js';
import { wordAlternation } from '../word-alternation.js';
import type { TaggedSpan } from './name-tagger.js';
import { lastStartingBy } from './span-search.js';

// A speaker named by surname alone right after a verb of saying that closes reported speech ("Das sei falsch,
// sagte Lippelt dem Magazin", "…, aldus Verhaegen.", "…, dijo Etxeberria.") is a person whether or not the tagger
// read one there: three training draws read "sagte Lippelt" as a person at 10-17, two others not at all. The
// verb after the reported clause, the word's shape and its never being written in lower case are the evidence;
// the tagger's silence is none against it, its reading of a place or organisation is. What follows must be a
// lower-case word or punctuation: a capitalised one makes the word a role or the first of a longer name ("sagte
// Ministeriumssprecher Müller"), which the tagger and the lists judge.

/**
 * Reported speech, then its attribution: a comma or closing quote, a verb of saying, spaces, a capitalised word of
 * three letters or more, then a lower-case word or punctuation ("…falsch, sagte Lippelt dem Magazin", "« …»,
 * explique Lefèvre."). Without the comma the verb's object may follow, in German a capitalised noun ("fordert
 * Hilfeinformationen an" in a man page).
 */
const SPEECH_CUED_RE = new RegExp(
  `[,"“”„«»][ \\t]*${wordAlternation([...SPEECH_VERBS])}[ \\t]+(\\p{Lu}[\\p{Ll}'’-]*\\p{Ll}\\p{Ll})(?=[ \\t]+\\p{Ll}|[ \\t]*[,.;:!?)]|$)`,
  'gu',
);

/**
 * The lone words a verb of saying marks as its speaker where neither the tagger nor another rule read anything
 * (see above): not a word the model's lexicon writes in lower case (`commonWord`: "Bescheid" aside, "sagte Danke",
 * "said Monday"), a stop word, title, role or office. `tagged`: the tagger's spans, in text order.
 */
export function speechCuedNames(text: string, tagged: readonly TaggedSpan[], candidates: readonly Candidate[], commonWord: (word: string) => boolean): Candidate[] {
  const out: Candidate[] = [];
  SPEECH_CUED_RE.lastIndex = 0;
  for (let m = SPEECH_CUED_RE.exec(text); m !== null; m = SPEECH_CUED_RE.exec(text)) {
    const word = m[1] as string;
    const end = m.index + m[0].length;
    const start = end - word.length;
    if (commonWord(word) || STOP_WORDS.has(word) || TITLE_SET.has(word) || OFFICES.has(word) || ROLE_WORDS.has(word.toLowerCase())) continue;
    const read = tagged[lastStartingBy(tagged, end - 1)];
    if (read !== undefined && read.end > start) continue;
    if (candidates.some((c) => c.start < end && start < c.end)) continue;
    out.push({ type: 'PERSON', start, end, rank: RANK_FORMAT });
  }
  return out;
}
