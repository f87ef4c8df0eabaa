import { LETTER_CLASS, LOWER_CLASS, SMALL_CLASS, UPPER_CLASS } from '../latin-letters.js';
import { RANK_FORMAT, type Candidate } from '../recognizer.js';
import {
  COMMON_WORD_GIVEN_NAME_SET,
  GIVEN_NAME_SET,
  LONE_SURNAME_SET,
  PLACE_WORDS,
  PRODUCT_NAMES,
  STOP_WORDS,
  TITLE_SET,
} from '../recognizers/person-words.js';
import { writtenLowerCase } from './agent-text-words.js';
import { margins } from './detector-margins.js';
import type { TaggedSpan } from './name-tagger.js';
import { namesAPlace } from './place-named-after.js';
import { lastStartingBy } from './span-search.js';

// Two shapes at a sentence's start that the tagger reads badly, since the first word of a sentence carries no
// capital's evidence: a known given name, a capitalised word and a verb ("Will Hendricks called about …", "Jan
// Utrecht kwam laat": the second word a surname the tagger scores weakly, or a place's name); and a one-word
// "according to" before one capitalised word and a comma ("Selon Mbappé, …", where "According to Okonkwo, …"
// is found by the tagger).

const WORD = `${UPPER_CLASS}${SMALL_CLASS}+(?:['’-]${UPPER_CLASS}?${SMALL_CLASS}+)?`;
/**
 * A sentence's start, then two capitalised words and a lower-case word (no u flag: person.ts's scans, for speed).
 * Opening on one character class and scanning the text after a line break ("^|…" as an alternative is tried at
 * every position): 450 → 900 MB/s on the agent request, 340 → 1,000 MB/s on prose.
 */
const OPENING_PAIR_RE = new RegExp(`[.!?\\n]["”»)]?[ \\t>*-]*(${WORD})[ \\t]+(${WORD})[ \\t]+(${LOWER_CLASS}+)`, 'g');
/**
 * Function words after the pair: a verb makes a sentence of a name ("Jan Utrecht kwam"), a preposition, article
 * or conjunction a place's or a thing's name ("River Cess in het westen").
 */
const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  `in on at of and or for from to with by into near the a an de het een en van op met voor bij naar der die das
  und im am an von zu mit bei nach le la les et du des au aux à en sur pour par el los las y del al con para por
  il lo gli e di da per con su nel w i z na do od oraz we ze`.split(/\s+/),
);
/** A short capitalised word before a full stop is an abbreviation ("St. Louis", "Dr. Who"), not a sentence's end. */
const ABBREVIATION_BEFORE_RE = /(?:^|[^\p{L}])\p{Lu}\p{Ll}{0,3}$/u;
/** "According to" in the seven languages but German ("laut" opens agencies and offices: "Laut Bundesamt, …"). */
const SOURCE_OPENING_RE = new RegExp(
  `[.!?\\n]["”»)]?[ \\t]*(?:According to|Selon|Según|Secondo|Volgens|Według|Zdaniem)[ \\t]+(${WORD}),(?!${LETTER_CLASS})`,
  'g',
);

/** The tagger's span that overlaps [start, end), if any. */
function taggedAt(tagged: readonly TaggedSpan[], start: number, end: number): TaggedSpan | undefined {
  const s = tagged[lastStartingBy(tagged, end - 1)];
  return s !== undefined && s.end > start ? s : undefined;
}

/** Whether a PERSON candidate overlaps [start, end). */
function personAt(candidates: readonly Candidate[], start: number, end: number): boolean {
  return candidates.some((c) => c.type === 'PERSON' && c.start < end && start < c.end);
}

/** Whether `word` may be a surname here: no ordinary word by the lists or the model's lexicon. */
function surnameLike(word: string, commonWord: (word: string) => boolean): boolean {
  return (
    word.length >= 3 &&
    !STOP_WORDS.has(word) &&
    !TITLE_SET.has(word) &&
    !PLACE_WORDS.has(word) &&
    !PRODUCT_NAMES.has(word) &&
    !GIVEN_NAME_SET.has(word) &&
    !COMMON_WORD_GIVEN_NAME_SET.has(word) &&
    !commonWord(word)
  );
}

/**
 * Ranks and kin among the given names that are common words ("King Birendra left", "Sister Agnes said"): before
 * a name they are its title, not its first word.
 */
const RANKS: ReadonlySet<string> = new Set(
  `King Queen Prince Princess Baron Baroness Earl Count Countess Duke Duchess Major General Judge Dean Sister Brother
  Father Mother Bishop Cardinal Pope Emperor Empress Sultan Sheikh König Königin Prinz Prinzessin Graf Gräfin Roi
  Reine Rey Reina Príncipe Principe Re Regina Koning Koningin Prins Prinses Król Królowa Książę`.split(/\s+/),
);

/** The end of the sentence that goes on at `from`: its closing mark, a line break, or at most 400 characters on. */
const SENTENCE_END_RE = /[.!?\n]/g;
function sentenceEnd(text: string, from: number): number {
  SENTENCE_END_RE.lastIndex = from;
  const m = SENTENCE_END_RE.exec(text);
  return m === null || m.index - from > 400 ? Math.min(text.length, from + 400) : m.index;
}

/** Whether the tagger reads `word` as a place, organisation or other name somewhere in the text, surely. */
function readAsOtherName(text: string, tagged: readonly TaggedSpan[], word: string): boolean {
  return tagged.some((s) => s.kind !== 'PER' && s.end - s.start === word.length && s.firstConfidence >= margins.oneWordVeto && text.startsWith(word, s.start));
}

/**
 * Adds to `candidates` the names of the two shapes above that nothing found. "Given Surname verb" at a sentence's
 * start: a given name that is no common word, before a word the tagger did not read as a place or firm there
 * ("Jan Utrecht kwam"); one that is ("Will", "Mark"), in a sentence that asks no question ("Will Hendricks call
 * …?": the verb), where the tagger read the next word as a person, however unsure ("Will Hendricks called": 2.8 in
 * the shipped draw, none in others), or reads it as the surname going on once the given name is taken as a name
 * (`goesOn`, name-detector.ts personGoesOn: 12-22 in five draws; "Will Berlin …", B-LOC ahead, stays none), the
 * text reading that word as no sure place or firm elsewhere. "According to X," at a sentence's start: X no common
 * word and no place, firm or other name by the tagger, unless X is a known surname the tagger reads so only unsure
 * ("According to Okonkwo,": LOC at 1.2 in one draw). `tagged`: the tagger's spans, in text order.
 */
export function addOpeningNames(
  text: string,
  tagged: readonly TaggedSpan[],
  candidates: Candidate[],
  commonWord: (word: string) => boolean,
  goesOn: (sentence: string) => number = () => -Infinity,
): void {
  const found: Candidate[] = [];
  // A line break before the text opens its first sentence; `at` is where a match starts in `text` (-1: that break).
  const lined = `\n${text}`;
  OPENING_PAIR_RE.lastIndex = 0;
  for (let m = OPENING_PAIR_RE.exec(lined); m !== null; m = OPENING_PAIR_RE.exec(lined)) {
    const at = m.index - 1;
    const given = m[1] as string;
    const surname = m[2] as string;
    const next = m[3] as string;
    // Let the lower-case word after the pair open the next match's search: it cannot start a sentence.
    OPENING_PAIR_RE.lastIndex -= next.length;
    if (FUNCTION_WORDS.has(next)) continue;
    if (text.charAt(at) === '.' && ABBREVIATION_BEFORE_RE.test(text.slice(Math.max(0, at - 6), at))) continue;
    const listedCommon = COMMON_WORD_GIVEN_NAME_SET.has(given);
    if (!GIVEN_NAME_SET.has(given) && !listedCommon) continue;
    if (!surnameLike(surname, commonWord)) continue;
    const end = at + m[0].length - next.length;
    const start = at + m[0].indexOf(given);
    // The lists say whether a given name is also a common word; the model's lexicon, which varies with the training
    // text (a social-media source writes "jan", "john" in lower case), only where this text writes it so as well.
    const commonGiven = listedCommon || (commonWord(given) && writtenLowerCase(text, given, start));
    const surnameEnd = text.lastIndexOf(surname, end) + surname.length;
    // "Szkoła im. Jana Kochanowskiego": an abbreviation's full stop before a place named after someone.
    if (personAt(candidates, start, surnameEnd) || namesAPlace(text, start, surnameEnd)) continue;
    const read = taggedAt(tagged, surnameEnd - surname.length, surnameEnd);
    if (read !== undefined && read.kind !== 'PER') continue;
    if (commonGiven) {
      if (RANKS.has(given)) continue;
      const close = sentenceEnd(text, end);
      if (text.charAt(close) === '?') continue;
      // The tagger's own reading of the surname, not of a span opening on the common word ("River Cess": 19.6,
      // then 3.9), which tagged-names.ts judged already; else its reading of the pair as one name.
      const readSurname = read !== undefined && read.start === surnameEnd - surname.length;
      if (!readSurname && (read !== undefined || goesOn(text.slice(start, close + 1)) < margins.word || readAsOtherName(text, tagged, surname))) continue;
    }
    found.push({ type: 'PERSON', start, end: surnameEnd, rank: RANK_FORMAT });
  }
  SOURCE_OPENING_RE.lastIndex = 0;
  for (let m = SOURCE_OPENING_RE.exec(lined); m !== null; m = SOURCE_OPENING_RE.exec(lined)) {
    const at = m.index - 1;
    const word = m[1] as string;
    const end = at + m[0].length - 1;
    const start = end - word.length;
    if (!surnameLike(word, commonWord) || personAt(candidates, start, end)) continue;
    const read = taggedAt(tagged, start, end);
    if (read !== undefined && read.kind !== 'PER' && !(LONE_SURNAME_SET.has(word) && read.firstConfidence < margins.oneWordVeto)) continue;
    found.push({ type: 'PERSON', start, end, rank: RANK_FORMAT });
  }
  candidates.push(...found);
}
