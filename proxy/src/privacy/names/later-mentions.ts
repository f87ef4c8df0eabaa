import { RANK_FORMAT, type Candidate } from '../recognizer.js';
import { GIVEN_NAME_SET, STOP_WORDS, TITLES } from '../recognizers/person-words.js';
import type { TaggedSpan } from './name-tagger.js';

// A text that names someone in full ("Werner Emde", "Olaf Scholz") goes on to call them by surname alone ("wirft
// Emde vor", "Scholz said"), often where nothing else marks a name: in German every noun is capitalised too, and
// a lone word needs a clear margin from the tagger. So a full name's last word, found alone elsewhere in the same
// text, is that person again.

interface Span {
  readonly start: number;
  readonly end: number;
}

/** A surname worth looking for: capitalised letters (an inner apostrophe or hyphen allowed), three or more. */
const SURNAME_RE = /^\p{Lu}[\p{Ll}'’-]*\p{Ll}$/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}_]/u;
/** Code around a word: a member, path, call or markup ("user.Emde", "Emde(", "<Emde"). */
const CODE_BEFORE = /[./\\@#$<>=`{[|~*+^]/;
const CODE_AFTER = /^(?:[(_=`\]}>|*+^<@#$\\/~]|[.:][\p{L}\p{N}_])/u;
const TITLE_SET: ReadonlySet<string> = new Set(TITLES.map((t) => t.replace(/\.$/, '')));
/**
 * Articles and determiners: a capitalised word after one is a noun ("die Fischer", "het Visser", "the Baker"),
 * or a family or a work, not the person alone.
 */
const DETERMINERS: ReadonlySet<string> = new Set(
  `the a an this that these those der die das den dem des ein eine einen einem einer eines kein keine dieser diese
  dieses diesen jeder jede jedes de het een deze dit le la les l un une du ce cette ces el los las una unos unas lo
  il gli uno ten ta`.split(/\s+/),
);
const WORD_BEFORE = /([\p{L}]+)[ \t]+$/u;
/** An initial ("J.") or a number, or a capitalised word (group 1; not one ending a sentence), then a space. */
/** What comes before a sentence's first word: nothing, a line break, an end of sentence or an opening quote. */
const OPENS_SENTENCE = /(?:^|[\n.!?:]\s*|["“„«]\s*)$/u;
const CAPITALISED_OR_NUMBER_BEFORE = /(?:\p{Lu}\.|(\p{Lu}[\p{L}'’-]*)|[\p{N}][\p{L}\p{N}.-]*)[ \t]+$/u;

/**
 * The surnames of the sure full names among `candidates` (PERSON, two words or more), each at most once. Sure: the
 * tagger read it as a person's name with a clear margin (real names score 30-80; "Status Workflow", a heading,
 * 4), or it opens on a known given name, or a title, greeting or label marks it. Left out: a surname that is also
 * an ordinary word ("Brown", "Baker": `commonWord`, whether the model's lexicon writes it in lower case), a name
 * opening on one ("Supplier London"), and a word the tagger is sure is a place or organisation elsewhere in the
 * text (`places`). One misread name must not spread through a text: every "Workflow" of a tool's manual, every
 * "London" of a report. (Where the tagger is unsure, a lone surname read as a place is the misreading this rule
 * mends.)
 */
function surnamesOf(
  text: string,
  candidates: readonly Candidate[],
  people: SpanIndex<TaggedSpan>,
  places: ReadonlySet<string>,
  commonWord: (word: string) => boolean,
): Set<string> {
  const out = new Set<string>();
  for (const c of candidates) {
    if (c.type !== 'PERSON') continue;
    const name = text.slice(c.start, c.end);
    const last = surnameOf(name, commonWord);
    if (last === undefined || places.has(last)) continue;
    const sure =
      c.rank > RANK_FORMAT ||
      GIVEN_NAME_SET.has(name.split(/\s+/)[0] as string) ||
      people.some(c.start, c.end, (p) => p.kind === 'PER' && Math.min(p.firstConfidence, p.restConfidence) >= SURE_NAME_MARGIN);
    if (sure) out.add(last);
  }
  return out;
}

/** The tagger's margin (trainer's units) for a full name sure enough to look for its surname alone. */
const SURE_NAME_MARGIN = 15;

/** The surname of a full name found (two words or more) worth looking for alone, or undefined. */
function surnameOf(name: string, commonWord: (word: string) => boolean): string | undefined {
  const words = name.split(/\s+/);
  if (words.length < 2 || commonWord(words[0] as string)) return undefined;
  const last = words[words.length - 1] as string;
  if (last.length < 3 || !SURNAME_RE.test(last) || STOP_WORDS.has(last) || TITLE_SET.has(last) || commonWord(last)) return undefined;
  return last;
}

/** The one-word places and organisations the tagger is sure of ("London"). */
function oneWordPlaces(text: string, vetoes: readonly Span[]): Set<string> {
  const out = new Set<string>();
  for (const v of vetoes) {
    const value = text.slice(v.start, v.end);
    if (!/\s/.test(value)) out.add(value);
  }
  return out;
}

const MAX_ENDING = 4;
const PLAIN = new Set(['', 's']);
const MASCULINE_ADJECTIVAL = new Set(['i', 'iego', 'iemu', 'im', 'ich', 'is']);
const FEMININE_ADJECTIVAL = new Set(['a', 'iej', 'ą']);
const CONSONANT_STEM = new Set(['', 's', 'a', 'u', 'owi', 'em', 'iem', 'ie', 'om', 'ów']);
const ADJECTIVAL_RE = /(?:sk|ck|dzk)[ia]$/;
const CONSONANT_END_RE = /[bcdfghjklłmnprstwzż]$/;

/**
 * How a surname is written in other grammatical cases: the part that stays, and the endings after it. The
 * genitive "s" of German and Dutch ("Emdes"); Polish declension ("Kowalczyka", "Kowalczykiem"; "Wiśniewskiego",
 * "Wiśniewskim"; "Kowalskiej").
 */
function inflections(surname: string): { stem: string; endings: ReadonlySet<string> } {
  if (ADJECTIVAL_RE.test(surname)) {
    return { stem: surname.slice(0, -1), endings: surname.endsWith('i') ? MASCULINE_ADJECTIVAL : FEMININE_ADJECTIVAL };
  }
  return { stem: surname, endings: CONSONANT_END_RE.test(surname) ? CONSONANT_STEM : PLAIN };
}

const NONE: ReadonlySet<string> = new Set();

/** Longer candidates than this (a long address, say) are few: an index keeps them aside and checks each. */
const LONGEST_SPAN = 200;

/** Whether `text` holds `surname` in any of its cases, maybe inside a longer word (a quick test before a scan). */
export function mentionsSurname(text: string, surname: string): boolean {
  return text.includes(inflections(surname).stem);
}

/** Spans sorted by start, for overlap queries. */
class SpanIndex<S extends Span = Span> {
  private readonly sorted: S[] = [];
  private readonly long: S[] = [];

  constructor(spans: Iterable<S>) {
    for (const s of [...spans].sort((a, b) => a.start - b.start)) (s.end - s.start > LONGEST_SPAN ? this.long : this.sorted).push(s);
  }

  overlaps(start: number, end: number): boolean {
    return this.some(start, end, () => true);
  }

  /** Whether a span overlapping [start, end) satisfies `test`. */
  some(start: number, end: number, test: (s: S) => boolean): boolean {
    for (const s of this.long) if (s.start < end && start < s.end && test(s)) return true;
    // The last span starting before `end`, then back while one could still reach `start`.
    let lo = 0;
    let hi = this.sorted.length - 1;
    let k = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((this.sorted[mid] as S).start < end) {
        k = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    for (; k >= 0 && (this.sorted[k] as S).start > start - LONGEST_SPAN; k--) {
      const s = this.sorted[k] as S;
      if (s.end > start && test(s)) return true;
    }
    return false;
  }
}

/**
 * Adds a PERSON candidate for each lone mention of a full name's surname elsewhere in `text`, in any of its cases
 * ("Emdes Haltung", "z Kowalczykiem"), unless it lies in another candidate or one of `vetoes` (places and
 * organisations the tagger is sure of: "Jones Medical"), follows an article ("die Fischer"), or touches code.
 * `named`: every span the tagger read as a name of any kind, in text order. `known`: surnames of full names found in
 * the other texts of the same request (detectAll), looked for here too. Returns this text's own sure surnames.
 */
export function addLaterMentions(
  text: string,
  candidates: Candidate[],
  named: readonly TaggedSpan[],
  vetoes: readonly Span[],
  commonWord: (word: string) => boolean,
  known: ReadonlySet<string> = NONE,
): Set<string> {
  const places = oneWordPlaces(text, vetoes);
  const namedIndex = new SpanIndex(named);
  const own = surnamesOf(text, candidates, namedIndex, places, commonWord);
  const surnames = new Set(own);
  for (const surname of known) if (!places.has(surname)) surnames.add(surname);
  if (surnames.size === 0) return own;
  const occupied = new SpanIndex<Span>([...candidates, ...vetoes]);
  const found: Candidate[] = [];
  const foundAt = new Set<number>();
  for (const surname of surnames) {
    const { stem, endings } = inflections(surname);
    for (let at = text.indexOf(stem); at !== -1; at = text.indexOf(stem, at + stem.length)) {
      let end = at + stem.length;
      while (end < text.length && end - at - stem.length <= MAX_ENDING && LETTER_OR_DIGIT.test(text.charAt(end))) end += 1;
      if (!endings.has(text.slice(at + stem.length, end))) continue;
      const before = text.charAt(at - 1);
      if ((at > 0 && (LETTER_OR_DIGIT.test(before) || CODE_BEFORE.test(before))) || LETTER_OR_DIGIT.test(text.charAt(end))) continue;
      if (CODE_AFTER.test(text.slice(end, end + 2))) continue;
      // A compound ("Schamir-Regierung", "pre-Castro") is not the person.
      if (before === '-' || text.charAt(end) === '-') continue;
      const previous = WORD_BEFORE.exec(text.slice(Math.max(0, at - 24), at))?.[1];
      if (previous !== undefined && DETERMINERS.has(previous.toLowerCase())) continue;
      // After a number, an initial, or a capitalised word the tagger read as part of a name, it is part of
      // another name: "BSC 47 Kelsterbach", "J. Emde", "Saqlain Mushtaq", "TTC Iphitos München". After one it
      // did not ("Haltung Emdes", "Auch Emde"), it is the person.
      // A common word opening a sentence is neither ("Tell Emde we paid", "Ask Kowalską").
      const window = text.slice(Math.max(0, at - 40), at);
      const ahead = CAPITALISED_OR_NUMBER_BEFORE.exec(window);
      if (ahead !== null) {
        const from = at - ahead[0].length;
        const opening = ahead[1] !== undefined && OPENS_SENTENCE.test(window.slice(0, window.length - ahead[0].length)) && commonWord(ahead[1]);
        if (!opening && (ahead[1] === undefined || namedIndex.overlaps(from, from + ahead[1].length))) continue;
      }
      if (foundAt.has(at) || occupied.overlaps(at, end)) continue;
      foundAt.add(at);
      found.push({ type: 'PERSON', start: at, end, rank: RANK_FORMAT });
    }
  }
  candidates.push(...found);
  return own;
}
