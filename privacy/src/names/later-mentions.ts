import { RANK_FORMAT, type Candidate } from '../recognizer.js';
import { COMMON_WORD_GIVEN_NAME_SET, GIVEN_NAME_SET, LONE_SURNAME_SET, STOP_WORDS, TITLE_SET, WITH_WORDS } from '../recognizers/person-words.js';
import { usedAsCode } from './code-words.js';
import { margins } from './detector-margins.js';
import type { TaggedSpan } from './name-tagger.js';
import { lastStartingBy } from './span-search.js';

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
const LETTER_OR_DIGIT = /[\p{L}\p{M}\p{N}_]/u;
const DASHES = '-‐‑–—';
/** Code around a word: a member, path, call or markup ("user.Emde", "Emde(", "<Emde"). */
const CODE_BEFORE = /[./\\@#$<>=`{[|~*+^]/;
const CODE_AFTER = /^(?:[(_=`\]}>|*+^<@#$\\/~[{]|::|[.:][\p{L}\p{N}_])/u;
/**
 * Articles, determiners and German contractions: a capitalised word after one is a noun ("die Fischer", "beim
 * Richter", "als Koch", "het Visser", "the Baker"), or a family or a work, not the person alone.
 */
const DETERMINERS: ReadonlySet<string> = new Set(
  `the a an this that these those his her its our their my your every each some many any
  der die das den dem des ein eine einen einem einer eines kein keine keinen keinem dieser diese dieses diesen
  jeder jede jedes jedem jeden alle allen viele vielen vieler einige einiger mancher manche sein seine seinem
  ihr ihre ihrem unser unsere unserem mein meine zum zur beim vom im am ins ans als
  de het een deze dit le la les l un une du ce cette ces el los las una unos unas lo il gli uno ten ta`.split(/\s+/),
);
/**
 * Words that make the capitalised word after them an organisation's name, a brand or a shop ("il gruppo Barilla",
 * "la tienda Zara", "stacja Orlen", "the bank Lloyds"): a company named after its founder is not that person.
 */
const ORGANISATION_WORDS: ReadonlySet<string> = new Set(
  `group groupe grupo gruppo gruppe groep grupa company compagnie compañía compagnia firm firma société società
  sociedad empresa azienda bedrijf spółka spółki spółką koncern konzern concern brand marque marca marke merk marka
  label shop store tienda negozio magasin laden winkel sklep bank banque banco banca hotel hôtel albergo stacja
  stacji sieć sieci`.split(/\s+/),
);
/** A legal form or a group's name after the word: "Zara S.A.", "Barilla S.p.A.", "Siemens AG", "Orlen Group". */
const ORGANISATION_AFTER =
  /^[ \t]+(?:AG|GmbH|KGaA|KG|SE|plc|PLC|Ltd|Limited|Inc|LLC|Corp|Co\.|S\.?A\.?S?|SARL|S\.L\.|S\.?p\.?A\.?|S\.?r\.?l\.?|B\.?V\.?|N\.?V\.?|sp\. z o\.o\.|Group|Gruppe|Groupe|Grupo|Gruppo|Groep|Grupa|Holding)(?![\p{L}\p{N}])/u;
/** The two words before (group 1 may be missing), each then spaces. */
const WORDS_BEFORE = /(?:([\p{L}]+)[ \t]+)?([\p{L}]+)[ \t]+$/u;
/** German, Dutch and Romance adjective endings: "ein guter Koch", "der alte Fischer", "het grote Visser". */
const ADJECTIVE_ENDING = /^\p{Ll}+(?:e|er|en|em|es)$/u;
/** Initials in capitals, two to five: an organisation's ("PKN", "FC", "BSC"). */
const INITIALS = /^\p{Lu}{2,5}$/u;
/** What comes before a sentence's first word: nothing, a line break, an end of sentence or an opening quote. */
const OPENS_SENTENCE = /(?:^|[\n.!?:]\s*|["“„«]\s*)$/u;
/** An initial ("J.") or a number, or a capitalised word (group 1; not one ending a sentence), then a space. */
const CAPITALISED_OR_NUMBER_BEFORE = /(?:\p{Lu}\.|(\p{Lu}[\p{L}'’-]*)|[\p{N}][\p{L}\p{N}.-]*)[ \t]+$/u;

/**
 * The surnames of the sure full names among `candidates` (PERSON, two words or more), each at most once. Sure: the
 * tagger read it as a person's name with a clear margin (real names score 30-80; "Status Workflow", a heading,
 * 4), or it opens on a known given name, or a title, greeting or label marks it. Left out: a surname that is also
 * an ordinary word ("Brown", "Baker": `commonWord`, whether the model's lexicon writes it in lower case), a name
 * opening on one ("Supplier London"), and a word the tagger is sure is a place or organisation elsewhere in the
 * text (`places`). One misread name must not spread through a text: every "Workflow" of a tool's manual, every
 * "London" of a report. (Where the tagger is unsure, a lone surname read as a place is the misreading this rule
 * mends.) Also, under the same exclusions, one word alone a title, greeting or label marks, or the tagger is sure
 * of in sum (loneNamesByVote).
 */
function surnamesOf(
  text: string,
  candidates: readonly Candidate[],
  tagged: readonly TaggedSpan[],
  people: SpanIndex<TaggedSpan>,
  places: ReadonlySet<string>,
  commonWord: (word: string) => boolean,
  cued: ReadonlySet<Candidate>,
): Set<string> {
  const out = new Set<string>();
  for (const c of candidates) {
    if (c.type !== 'PERSON') continue;
    const name = text.slice(c.start, c.end);
    if (!/\s/.test(name)) {
      // One word alone that a title, greeting or label marks ("Herr Lippelt"), or a verb of saying or an office
      // ("sagte Lippelt", "il ministro Lombardi": `cued`).
      if ((c.rank > RANK_FORMAT || cued.has(c) || withSurePerson(text, c, name, people)) && loneNameWorthLookingFor(name, commonWord) && !places.has(name)) out.add(name);
      continue;
    }
    const last = surnameOf(name, commonWord);
    if (last === undefined || places.has(last)) continue;
    const sure =
      c.rank > RANK_FORMAT ||
      GIVEN_NAME_SET.has(name.split(/\s+/)[0] as string) ||
      people.some(c.start, c.end, (p) => p.kind === 'PER' && Math.min(p.firstConfidence, p.restConfidence) >= margins.sureName);
    if (sure) out.add(last);
  }
  for (const word of loneNamesByVote(text, tagged, candidates)) if (loneNameWorthLookingFor(word, commonWord) && !places.has(word)) out.add(word);
  return out;
}

/** "With" between two people (WITH_WORDS), after and before a name. */
const WITH_AFTER = new RegExp(`^[ \\t]+(?:${WITH_WORDS})[ \\t]+`, 'u');
const WITH_BEFORE = new RegExp(`[ \\t]+(?:${WITH_WORDS})[ \\t]+$`, 'u');

/**
 * Whether a lone surname the lists know stands "with" a person the tagger is sure of ("Gestern hat Scholz mit
 * Wiśniewski telefoniert": Wiśniewski at 52-75 in five training draws, Scholz at 11, 3 or none): the lists and the
 * company it keeps make it a person as surely as a verb of saying would, to be looked for again alone.
 */
function withSurePerson(text: string, c: Candidate, name: string, people: SpanIndex<TaggedSpan>): boolean {
  if (!LONE_SURNAME_SET.has(name)) return false;
  const sure = (p: TaggedSpan): boolean => p.kind === 'PER' && Math.min(p.firstConfidence, p.restConfidence) >= margins.listNeighbour;
  const after = WITH_AFTER.exec(text.slice(c.end, c.end + 16));
  if (after !== null) {
    const at = c.end + after[0].length;
    if (people.some(at, at + 1, (p) => p.start === at && sure(p))) return true;
  }
  const before = WITH_BEFORE.exec(text.slice(Math.max(0, c.start - 16), c.start));
  if (before === null) return false;
  const at = c.start - before[0].length;
  return people.some(at - 1, at, (p) => p.end === at && sure(p));
}

/**
 * One word the tagger reads alone as a person, sure enough in sum over the places the detector kept it: its
 * margins as a person ("sagte Lippelt" 25; "wandte Cuntz sich" 12 and "stellt Cuntz entnervt" 14), less those
 * where it read the word as a place or organisation. A surname used alone through an article, never introduced
 * in full.
 */
function loneNamesByVote(text: string, tagged: readonly TaggedSpan[], candidates: readonly Candidate[]): string[] {
  // Only where the detector kept the reading: not in code ("import { Thomas, Victoria }"), a heading or a label.
  const kept = new Set<number>();
  for (const c of candidates) if (c.type === 'PERSON') kept.add(c.start * 0x10000 + (c.end - c.start));
  const votes = new Map<string, number>();
  for (const s of tagged) {
    if (s.words !== 1) continue;
    if (s.kind === 'PER' && !kept.has(s.start * 0x10000 + (s.end - s.start))) continue;
    const word = text.slice(s.start, s.end);
    votes.set(word, (votes.get(word) ?? 0) + (s.kind === 'PER' ? s.firstConfidence : -s.firstConfidence));
  }
  const out: string[] = [];
  // A surname the lists know (and that is no common word: LONE_SURNAME_SET) has that as evidence besides the
  // tagger's, and may need less margin in sum.
  for (const [word, vote] of votes) if (vote >= (LONE_SURNAME_SET.has(word) ? margins.sureLoneKnown : margins.sureLone)) out.push(word);
  return out;
}

// The margins (detector-margins.ts): a full name's (sureName) for its surname to be looked for alone; one word's
// alone, in sum over its readings in the text (sureLone; CoNLL-2003 dev articles: German recall gains up to 15,
// English precision falls below it), less for a word the surname lists know (sureLoneKnown).

/** The surname of a full name found (two words or more) worth looking for alone, or undefined. */
function surnameOf(name: string, commonWord: (word: string) => boolean): string | undefined {
  const words = name.split(/\s+/);
  if (words.length < 2 || (commonWord(words[0] as string) && !plainGivenName(words[0] as string))) return undefined;
  const last = words[words.length - 1] as string;
  return loneNameWorthLookingFor(last, commonWord) ? last : undefined;
}

/**
 * A given name the lists know that is no common word by the lists either ("Jan", "Hans"; not "Will", "Mark"):
 * whatever a model's lexicon learnt of it in lower case (one draw holds "jan", January), a full name opening on it
 * is a person's.
 */
function plainGivenName(word: string): boolean {
  return GIVEN_NAME_SET.has(word) && !COMMON_WORD_GIVEN_NAME_SET.has(word);
}

/** Whether `word` may be looked for alone: capitalised letters, three or more, no ordinary word or title. */
function loneNameWorthLookingFor(word: string, commonWord: (word: string) => boolean): boolean {
  return word.length >= 3 && SURNAME_RE.test(word) && !STOP_WORDS.has(word) && !TITLE_SET.has(word) && !commonWord(word);
}

/**
 * Prepositions of place that govern a place and hardly ever a person, per language ("nach Berlin", "en Toledo",
 * "naar Utrecht", "w Krakowie"). Not those that also govern people: "to", "a", "à", "da", "bei", "bij", "z", "do",
 * "presso" ("I wrote to Emde", "llamé a Etxeberria", "bei Müller").
 */
const PLACE_PREPOSITIONS: ReadonlySet<string> = new Set(
  `in at near into inside outside across throughout
  nach aus nahe nördlich südlich östlich westlich
  dans en vers
  desde hacia
  verso
  naar uit nabij
  w we pod`.split(/\s+/),
);
/** The word right before a position, and what comes before it. */
const WORD_BEFORE = /([\p{L}]+)[ \t]+$/u;

/**
 * The one-word places and organisations the tagger is sure of ("London"), and the words the text uses as a place:
 * read as one by the tagger, at any margin, after a preposition of place ("Wir fahren nach Berlin", "En Toledo
 * hace calor"). The preposition and the tagger's reading agree; the margin alone swings from one training draw to
 * the next (Toledo after "En": 20-32 over five draws, against the 25 a veto needs).
 */
function oneWordPlaces(text: string, vetoes: readonly Span[], tagged: readonly TaggedSpan[]): Set<string> {
  const out = new Set<string>();
  for (const v of vetoes) {
    const value = text.slice(v.start, v.end);
    if (!/\s/.test(value)) out.add(value);
  }
  for (const s of tagged) {
    if (s.kind !== 'LOC' || s.words !== 1) continue;
    const before = WORD_BEFORE.exec(text.slice(Math.max(0, s.start - 24), s.start))?.[1];
    if (before !== undefined && PLACE_PREPOSITIONS.has(before.toLowerCase())) out.add(text.slice(s.start, s.end));
  }
  return out;
}

const MAX_ENDING = 4;
const PLAIN = new Set(['', 's']);
const MASCULINE_ADJECTIVAL = new Set(['i', 'iego', 'iemu', 'im', 'ich', 'is']);
const FEMININE_ADJECTIVAL = new Set(['a', 'iej', 'ą']);
/** Endings of a Polish name whose stem ends on a consonant (declined-names.ts reads them too). */
export const CONSONANT_STEM: ReadonlySet<string> = new Set(['', 's', 'a', 'u', 'owi', 'em', 'iem', 'ie', 'om', 'ów']);
const ADJECTIVAL_RE = /(?:sk|ck|dzk)[ia]$/;
export const CONSONANT_END_RE = /[bcdfghjklłmnprstwzż]$/;

/**
 * How a surname is written in other grammatical cases: the part that stays, and the endings after it. The
 * genitive "s" of German and Dutch ("Emdes"); in Polish text, Polish declension ("Kowalczyka", "Kowalczykiem";
 * "Wiśniewskiego", "Wiśniewskim"; "Kowalskiej"), which elsewhere would take "Rossa" for "Ross".
 */
function inflections(surname: string, polish: boolean): { stem: string; endings: ReadonlySet<string> } {
  if (polish && ADJECTIVAL_RE.test(surname)) {
    return { stem: surname.slice(0, -1), endings: surname.endsWith('i') ? MASCULINE_ADJECTIVAL : FEMININE_ADJECTIVAL };
  }
  return { stem: surname, endings: polish && CONSONANT_END_RE.test(surname) ? CONSONANT_STEM : PLAIN };
}

/** Letters only Polish writes among the seven languages: a text with one may decline its surnames. */
const POLISH_LETTERS = /[ąćęłńśźżĄĆĘŁŃŚŹŻ]/;
/**
 * A capitalised word, as a surname or one of its cases is written: marks kept with their letters, an inner
 * apostrophe or hyphen before a capital ("O'Brien", "Smith-Jones"); "Emde's" is "Emde", "Blair-era" "Blair".
 */
const CAPITALISED_WORD = /\p{Lu}[\p{L}\p{M}]*(?:['’-]\p{Lu}[\p{L}\p{M}]*)*/gu;

/** Surnames by the stem their cases share: a word is looked up in one pass, whatever the number of surnames. */
class SurnameIndex {
  private readonly byStem = new Map<string, { surname: string; endings: ReadonlySet<string> }>();

  constructor(surnames: Iterable<string>, polish: boolean) {
    for (const surname of surnames) {
      const { stem, endings } = inflections(surname, polish);
      this.byStem.set(stem, { surname, endings });
    }
  }

  /** The surname `word` is a case of, or undefined. */
  match(word: string): string | undefined {
    for (let cut = 0; cut <= MAX_ENDING && cut < word.length; cut++) {
      const hit = this.byStem.get(cut === 0 ? word : word.slice(0, -cut));
      if (hit !== undefined && hit.endings.has(cut === 0 ? '' : word.slice(-cut))) return hit.surname;
    }
    return undefined;
  }
}

/**
 * Which of `surnames` `text` writes in any of their cases, each tried once per capitalised word. `polish`: whether
 * to read Polish cases (by default, whether `text` has a Polish letter; the silver labels of names-model say so
 * for a word of a Polish novel).
 */
export function surnamesMentioned(text: string, surnames: Iterable<string>, polish = POLISH_LETTERS.test(text)): Set<string> {
  const index = new SurnameIndex(surnames, polish);
  const out = new Set<string>();
  for (const m of text.matchAll(CAPITALISED_WORD)) {
    const surname = index.match(m[0]);
    if (surname !== undefined) out.add(surname);
  }
  return out;
}

const NONE: ReadonlySet<string> = new Set();
const NO_CANDIDATES: ReadonlySet<Candidate> = new Set();

/** Longer candidates than this (a long address, say) are few: an index keeps them aside and checks each. */
const LONGEST_SPAN = 200;

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
    for (let k = lastStartingBy(this.sorted, end - 1); k >= 0 && (this.sorted[k] as S).start > start - LONGEST_SPAN; k--) {
      const s = this.sorted[k] as S;
      if (s.end > start && test(s)) return true;
    }
    return false;
  }
}

/** Whether the mention at [at, end) stands alone as a person: not inside a word, code, a compound or another name. */
function lonePersonAt(text: string, at: number, end: number, named: SpanIndex<TaggedSpan>, commonWord: (word: string) => boolean): boolean {
  const before = text.charAt(at - 1);
  const after = text.charAt(end);
  if (at > 0 && (LETTER_OR_DIGIT.test(before) || CODE_BEFORE.test(before))) return false;
  if (LETTER_OR_DIGIT.test(after) || CODE_AFTER.test(text.slice(end, end + 2))) return false;
  // A compound ("Schamir-Regierung", "pre-Castro", "Emde–Gruppe") is not the person.
  if ((before !== '' && DASHES.includes(before)) || (after !== '' && DASHES.includes(after))) return false;
  const window = text.slice(Math.max(0, at - 40), at);
  // After an article, or an article and an adjective, it is a noun ("die Fischer", "ein guter Koch"), a family
  // or a work; after an organisation word, or before a legal form, a company ("il gruppo Barilla", "Zara S.A.").
  const words = WORDS_BEFORE.exec(window);
  const previous = words?.[2];
  if (previous !== undefined && (DETERMINERS.has(previous.toLowerCase()) || ORGANISATION_WORDS.has(previous.toLowerCase()))) return false;
  if (ORGANISATION_AFTER.test(text.slice(end, end + 16))) return false;
  const second = words?.[1];
  if (previous !== undefined && second !== undefined && ADJECTIVE_ENDING.test(previous) && DETERMINERS.has(second.toLowerCase())) return false;
  // After a number, an initial, or a capitalised word the tagger read as part of a name, it is part of another
  // name: "BSC 47 Kelsterbach", "J. Emde", "Saqlain Mushtaq", "TTC Iphitos München". After one it did not
  // ("Haltung Emdes"), or a common word opening a sentence ("Tell Emde we paid", "Auch Emde"), it is the person.
  // After initials in capitals it is a company's name, whatever the tagger read ("PKN Orlen", "FC Barcelona").
  const ahead = CAPITALISED_OR_NUMBER_BEFORE.exec(window);
  if (ahead === null) return true;
  const word = ahead[1];
  if (word === undefined) return false;
  if (OPENS_SENTENCE.test(window.slice(0, window.length - ahead[0].length)) && commonWord(word)) return true;
  if (INITIALS.test(word)) return false;
  const from = at - ahead[0].length;
  return !named.overlaps(from, from + word.length);
}

/**
 * Adds a PERSON candidate for each lone mention of a full name's surname elsewhere in `text`, in any of its cases
 * ("Emdes Haltung", "z Kowalczykiem"), unless it lies in another candidate or one of `vetoes` (places and
 * organisations the tagger is sure of: "Jones Medical"), follows an article ("die Fischer"), or touches code.
 * `named`: every span the tagger read as a name of any kind, in text order. `known`: surnames of full names found in
 * the other texts of the same request (detectAll), looked for here too. `ownAlready`: this text's own surnames
 * from an earlier call, whose mentions `candidates` then already hold (a second look, for `known` alone). `cued`:
 * this text's one-word candidates a verb of saying or an office marks, as sure as a title. Returns this text's own
 * sure surnames (and lone names by vote).
 */
export function addLaterMentions(
  text: string,
  candidates: Candidate[],
  named: readonly TaggedSpan[],
  vetoes: readonly Span[],
  commonWord: (word: string) => boolean,
  known: ReadonlySet<string> = NONE,
  ownAlready?: ReadonlySet<string>,
  cued: ReadonlySet<Candidate> = NO_CANDIDATES,
): ReadonlySet<string> {
  const places = oneWordPlaces(text, vetoes, named);
  const namedIndex = new SpanIndex(named);
  const own = ownAlready ?? surnamesOf(text, candidates, named, namedIndex, places, commonWord, cued);
  const surnames = new Set(own);
  for (const surname of known) if (!places.has(surname)) surnames.add(surname);
  if (surnames.size === 0) return own;
  const taken = new SpanIndex<Span>(candidates);
  const vetoed = new SpanIndex<Span>(vetoes);
  const polish = POLISH_LETTERS.test(text);
  const index = new SurnameIndex(surnames, polish);
  const found: Candidate[] = [];
  for (const m of text.matchAll(CAPITALISED_WORD)) {
    const surname = index.match(m[0]);
    if (surname === undefined) continue;
    const at = m.index;
    const end = at + m[0].length;
    if (!lonePersonAt(text, at, end, namedIndex, commonWord) || taken.overlaps(at, end)) continue;
    // A word the text uses as code nearby is a type, whatever a string names ("Joe Employee" in a test beside
    // "public class Employee", code-words.ts).
    if (usedAsCode(text, m[0], at)) continue;
    // A place or organisation the tagger is sure of stays one ("Jones Medical"), except a Polish case of a
    // surname, read alone as a place: after a preposition the tagger takes "z Kowalczykiem" for "z Krakowem".
    if (vetoed.some(at, end, (v) => !(polish && m[0] !== surname && v.start === at && v.end === end))) continue;
    found.push({ type: 'PERSON', start: at, end, rank: RANK_FORMAT });
  }
  candidates.push(...found);
  return own;
}
