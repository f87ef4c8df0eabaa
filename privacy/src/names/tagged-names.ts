import { RANK_FORMAT } from '../recognizer.js';
import type { Candidate } from '../recognizer.js';
import { notAPersonHere, startsWithSalutation } from '../recognizers/person.js';
import {
  COMMON_WORD_GIVEN_NAME_SET,
  DEITIES,
  GIVEN_NAME_SET,
  GREETING_FORMS,
  isListedName,
  LANGUAGE_NAMES,
  LONE_SURNAME_SET,
  OFFICES,
  OPENING_TIME_ADVERBS,
  PARTICLES,
  PLATFORM_NAMES,
  PRODUCT_NAMES,
  PRODUCT_WORDS_AFTER,
  ROLE_WORDS,
  SPEECH_VERBS,
  STOP_WORDS,
  SURNAME_SET,
  TITLE_SET,
  WITH_WORDS,
  WORD_LIKE_GIVEN_NAME_SET,
} from '../recognizers/person-words.js';
import {
  inDeriveList,
  initialJoinedToWord,
  inProductTokens,
  isDateWords,
  isDefinedTerm,
  isIdentifierWord,
  linksToOwnSite,
  namesARelease,
  namesSoftware,
  nearby,
  onManPageHeader,
  opensOptionDescription,
  opensTableCell,
  writtenLowerCase,
} from './agent-text-words.js';
import { usedAsCode } from './code-words.js';
import { declinedFormOfWritten, partOfCompounds } from './word-forms.js';
import { margins } from './detector-margins.js';
import { namesAPlace, namesATerm } from './place-named-after.js';
import { imperativeVerb, opensSentence } from './imperative-verbs.js';
import { inFontStack, inSoftwareList } from './software-lists.js';
import { capitalsSurnameAfter } from './capitals-surnames.js';
import { addLaterMentions } from './later-mentions.js';
import { lastStartingBy } from './span-search.js';
import { speechCuedNames } from './speech-cued-names.js';
import { declaresType, onCodeLine, typeNamesIn } from './type-names.js';
import type { TaggedSpan } from './name-tagger.js';

// How the name tagger's spans join the detector's candidates: which of its PERSON spans to trust (the house's
// rules for names, and margins where the tagger errs most), and which list matches its places and organisations
// overrule.

/** Markdown emphasis around a name, the same marks both sides ("**Anna Nowak**", "__Matteo Collina__"). */
const EMPHASIS_BEFORE = /(?:^|[^*_\p{L}\p{N}])(\*\*|__|\*|_)$/u;
/** An HTML element's opening tag right before its text ("<dd>Matt Hickman (…)</dd>", "<td>Anna Nowak</td>"). */
const OPENING_TAG_BEFORE = /<[a-zA-Z][\w-]*(?:[ \t][^<>\n]*)?>$/;

/**
 * Whether the name at [start, end) is the text of markup, not code: a Markdown link's text ("[Mark Beckwith](https://
 * github.com/wythe)"), emphasis ("[__Matteo Collina__](…)"), or an HTML element's text ("<dd>Matt Hickman</dd>").
 */
function inMarkup(text: string, start: number, end: number): boolean {
  let from = start;
  let to = end;
  const marks = EMPHASIS_BEFORE.exec(text.slice(Math.max(0, from - 3), from))?.[1];
  if (marks !== undefined && text.startsWith(marks, to) && !/[*_\p{L}\p{N}]/u.test(text.charAt(to + marks.length))) {
    from -= marks.length;
    to += marks.length;
  }
  if (text.charAt(from - 1) === '[' && text.startsWith('](', to)) return true;
  if (from !== start) return true;
  return OPENING_TAG_BEFORE.test(text.slice(Math.max(0, from - 48), from));
}

/** Just before a name: inside an identifier, a path, markup or code ("user.Name", "<Anna", "=Smith", "`Alice"). */
const CODE_BEFORE = /[\p{L}\p{N}_./\\@#$<>=`{[|~*+^]$/u;
/** Just after one: a call, member, assignment, literal or identifier going on ("Anna(", "Smith.name", "Lee_", "Bob=", "Stack{"). */
const CODE_AFTER = /^(?:[(_=`\]{}>|*+^<@#$\\/~]|[.:][\p{L}\p{N}_]|;(?:\r|\n|$))/u;

const FIRST_WORD = /^([\p{L}.'’-]+)\s+/u;
const SECOND_WORD = /^[\p{L}'’-]+/u;
/** A plural acronym ("IDs", "APIs", "PRs") is no word of a name: "Model IDs" is a heading. */
const ACRONYM_PLURAL = /(?:^|\s)\p{Lu}{2,}s(?=\s|$)/u;
// The margins (detector-margins.ts; trainer's units) a name needs where the tagger errs most, and how they came
// to be (docs/privacy.md (p): re-measured on the commercial sources' dev parts alone): words opening a sentence or line ("Will
// you…", "Can I…"; a word before a colon only as a sure speaker, speakerLine: "Handy:" is a label), one word
// alone opening one, and a lone given name that is also a common word ("Grace period"). Set on the multilingual and presidio sets' look-alikes and the dev
// split's errors: sure names score 20-45. One word alone opening a sentence needs 25 (was 15): the retrained
// model gives "Mój numer to …" 15-23; on the dev parts 25 costs 0.2-0.7 points of recall in en and fr, nothing
// elsewhere.
// A one-word place or organisation overrules a known given name only when sure: "Hi, I am Jane (…)" read as a
// place at margin 4 by the retrained model is a person; "Santander" in "Banco Santander" is two words.
// A surname known from a full name (in this text or another of the request) is kept from a lone mention that the
// tagger reads as a one-word place or organisation, and such a word from counting as a surname at all ("Jordan"),
// only when the tagger is this sure of the place: the clustered model reads lone surnames as places at 10-30
// ("Kowalska wrote back yesterday": LOC at 17). CoNLL-2003 dev articles read whole, a model trained on the train
// part: en 0.942 / 0.857 → 0.939 / 0.876, de 0.874 / 0.680 → 0.874 / 0.697 (at 10
// and 25; 20: recall 0.870 and 0.694; 30: 0.881 and 0.698, but the city in "Plaza Mayor 199, 6º C, Sevilla", LOC
// at 29.6, became a person where "Marilú Sevilla" attends; 45 and never as 30, German precision -0.2 sentence by
// sentence); the sentence-by-sentence dev sets unchanged.
// A name the tagger is this sure of may have a one- or two-digit score after it ("b Croft 46", "( K. Spiring 52 )")
// that the house-number rule takes for an address ("Joaquin Suarez 2906."). On the dev parts the house-number
// rule had dropped 54 names, mostly in results tables, to save 8 false positives, most of those under margin 13;
// sparing only short numbers after sure names keeps presidio's addresses out (all its tables unchanged) and
// takes English dev recall 0.766 → 0.776, precision 0.833 → 0.835.
// A common word opening a longer name ("Frank Schlömer", "Guy Forget", but "Ieri Bianchi", "Szanowna Pani …") is
// cut off below this margin; cutting it whatever the margin lost 2-6 names per 100 in dev (names-model tune).

/** French conjunctions elided before a vowel, written as one token with the next word: no name begins so. */
const ELIDED_CONJUNCTION_RE = /^(?:Lorsqu|Puisqu|Jusqu|Quoiqu|Presqu|Quelqu|Qu)['’]\p{Ll}/u;

/**
 * Whether `word` after an assistant's name makes it a product: no known surname, and a product's word, a common word,
 * an acronym or a number.
 */
function productWord(word: string, commonWord: (word: string) => boolean): boolean {
  if (SURNAME_SET.has(word)) return false;
  // An acronym of two or three capitals or a number ("Claude API", "Llama 3"); not an initial ("Claude E. Shannon")
  // nor a surname in capitals ("Claude DUBOIS", capitals-surnames.ts).
  return PRODUCT_NAMES.has(word) || PRODUCT_WORDS_AFTER.has(word) || commonWord(word) || /^(?:\p{Lu}{2,3}|\d[\d.]*)$/u.test(word);
}

/** Where the name in a tagger's PERSON span starts (a title before it stays readable), or -1 when it is none. */
function personStart(text: string, s: TaggedSpan, people: readonly TaggedSpan[], k: number, commonWord: (word: string) => boolean): number {
  let start = s.start;
  let words = s.words;
  // The margin and lexicon flag of the name's first word (the span's, until a word is trimmed off its front).
  let confidence = s.firstConfidence;
  let firstCommon = s.firstCommon;
  // A field label ("Handy: 0160 …", "Tarjeta:"), unless a sentence follows and the tagger is sure of a word the
  // training text never writes in lower case: a speaker in minutes, an interview or a chat ("Krätschmer: Das ist …").
  if (words === 1 && text.charCodeAt(s.end) === 0x3a /* : */ && !speakerLine(text, s)) return -1;
  if (ACRONYM_PLURAL.test(text.slice(s.start, s.end))) return -1;
  if (s.opensSentence) {
    // "Ieri Bianchi …", "Secondo Lombardi …", "Can I …": a sentence's first word the tagger is unsure of, or
    // one the training text writes in lower case (a known given name aside), is not part of the name.
    const first = text.slice(s.start, words > 1 ? s.secondStart : s.end).trimEnd();
    const common = s.firstCommon && !GIVEN_NAME_SET.has(first);
    // A reporting word or a time adverb ("Según Etxeberria", "Secondo Bertolucci", "Volgens Huisman", "Ieri Franco
    // Ossowski") is never part of the name; nor is an unsure word before a known given name ("Ieri Giulia
    // Bertolucci"): the lexicon of a model trained without labelled text in a language (es, it for the commercial
    // profile) does not know its adverbs.
    const reporting = words > 1 && (SPEECH_VERBS.has(first.toLowerCase()) || OPENING_TIME_ADVERBS.has(first.toLowerCase()));
    const beforeGivenName =
      words > 1 &&
      s.firstConfidence < margins.openingCommon &&
      !GIVEN_NAME_SET.has(first) &&
      !SURNAME_SET.has(first) &&
      GIVEN_NAME_SET.has(SECOND_WORD.exec(text.slice(s.secondStart, s.end))?.[0] ?? '');
    // A known given name opening a longer name stays, however unsure the tagger is of its kind ("Hans Berlin kam":
    // B-PER over B-ORG by 1.7 in one draw, 12.5 in another).
    const unsure = s.firstConfidence < margins.opening && !(words > 1 && GIVEN_NAME_SET.has(first));
    if (reporting || beforeGivenName || unsure || (common && s.firstConfidence < (words > 1 ? margins.openingCommon : margins.commonWord))) {
      // After a reporting word the rest is what the tagger read as the name, however unsure of where it ends
      // ("Secondo Nunzia Scarpelli": 19.9, then 1.2).
      if (words === 1 || (!reporting && s.restConfidence < margins.opening)) return -1;
      start = s.secondStart;
      words -= 1;
      confidence = s.restConfidence;
      firstCommon = false;
    }
  }
  const first = FIRST_WORD.exec(text.slice(start, s.end));
  if (first !== null && TITLE_SET.has((first[1] as string).replace(/\.$/, ''))) {
    start += first[0].length;
    words -= 1;
    confidence = s.restConfidence;
    firstCommon = false;
  }
  if (words > 1) {
    const parts = text.slice(start, s.end).split(/\s+/);
    // Title-case words the lexicon knows, none a known name: a heading or a product ("Status Workflow").
    if (start === s.start && s.commonWords === s.words && !parts.some(isListedName)) return -1;
    // Cut off after a particle ("Meta Lenguaje del" in "… del Web") with no known name: a title's words, where a
    // person's name would go on to its surname ("Julien de", "Ludwig van" keep their given names).
    if (PARTICLE_END.test(text.slice(start, s.end)) && !parts.some(isListedName)) return -1;
    // Stop words only: filler or a status ("Lorem Ipsum", "Build Failed"), whatever markup is around it.
    if (parts.every((p) => STOP_WORDS.has(p))) return -1;
    // A product: "Claude Code", "Claude Opus", "Gemini 2.5" (but "Claude Monet", "Claude Shannon").
    if (PRODUCT_NAMES.has(parts[0] as string) && productWord(parts[1] as string, commonWord)) return -1;
    // An operating system's name in it: a distribution ("Gentoo Linux", "Arch Linux"), no one's name.
    if (parts.some((p) => PLATFORM_NAMES.has(p))) return -1;
    return start;
  }
  const word = text.slice(start, s.end);
  // A lone letter, or an initial with its full stop ("Serie A.", "P." before a stop word), is no name.
  if (word.replace(/\.$/, '').length < 2 || STOP_WORDS.has(word) || DEITIES.has(word) || TITLE_SET.has(word.replace(/\.$/, ''))) return -1;
  // A French conjunction elided before a pronoun, opening a sentence ("Lorsqu’elle prend …", "Puisqu’il …").
  if (ELIDED_CONJUNCTION_RE.test(word)) return -1;
  // A speaker ("Yeltsin said", "erklärte Götschow"), an office holder ("Minister Durant"), one a relative or an
  // age marks (personCue), or an item of a list with a sure name ("Wright und Hendrie") needs no more margin than
  // a list name. Read at most once, and only for a word under a margin.
  let cue: boolean | undefined;
  const known = (): boolean =>
    GIVEN_NAME_SET.has(word) || LONE_SURNAME_SET.has(word) || (cue ??= besideSureName(text, people, k) || personCue(text, start, s.end));
  // One word alone opening a sentence ("Steuerliche …", "Scrivimi a …", "Mój numer …"): sure names score ~40.
  if (start === s.start && s.opensSentence && confidence < margins.openingWord && !known()) return -1;
  // An assistant's name alone is the product, unless a surname in capitals follows ("Claude DUBOIS").
  if ((PRODUCT_NAMES.has(word) && capitalsSurnameAfter(text, s.end) === 0) || PLATFORM_NAMES.has(word) || LANGUAGE_NAMES.has(word)) return -1;
  // A lone word that is also a common word: a given name like "Grace", or one the training text writes in lower
  // case ("Esta", "Date", "Mój" after "Señora Pedraza, …"), needs a sure margin. Opening a sentence it is the
  // word ("Grace period …", "Will you …") where the model's lexicon writes it in lower case too; a word the
  // dictionaries hold but the training text only capitalises ("Lula", "César", "Tommy") keeps the margin rule.
  if (COMMON_WORD_GIVEN_NAME_SET.has(word) && (confidence < margins.commonWord || (start === s.start && s.opensSentence && firstCommon))) return -1;
  const common = firstCommon && !GIVEN_NAME_SET.has(word) && !LONE_SURNAME_SET.has(word);
  // A title right before marks the person however common the word ("pan Salas", "Herr Fischer").
  if (common && confidence < margins.commonWord && !titleBefore(text, start)) return -1;
  // Any other lone word the lists do not know needs a clear margin ("Pan Wrona, Mój numer…": 7).
  if (confidence < margins.word && !known()) return -1;
  return start;
}

const WORD_AFTER_RE = /^[ \t]+(\p{Ll}+)/u;
/** The word right before a position, up to 24 characters back. */
const WORD_BEFORE_RE = /(\p{L}+)[ \t]+$/u;

/** Whether a title stands right before `start`, as written or capitalised ("pan Salas", "Frau Fischer"). */
function titleBefore(text: string, start: number): boolean {
  const before = WORD_BEFORE_RE.exec(text.slice(Math.max(0, start - 24), start))?.[1];
  return before !== undefined && TITLE_SET.has(`${before.charAt(0).toUpperCase()}${before.slice(1)}`);
}
/** ", who …", ", whose …" (English's relative for people alone), or an age between commas (", 68 ,"). */
const PERSON_AFTER_RE = /^[ \t]*,[ \t]*(?:(?:who|whose)[ \t]|\d{1,2}[ \t]*,)/;

/**
 * Whether the words beside [start, end) mark a person: a verb of saying right after or before ("Yeltsin said",
 * "erklärte Götschow", "aldus Verhaegen"), an office or a role right before, in any case ("Minister Durant", "il
 * presidente Mattarella", "Trainer Sammers", "die Familie Nadscharow"), a relative for people or an age after
 * (", who", ", 68 ,").
 */
function personCue(text: string, start: number, end: number): boolean {
  const rest = text.slice(end, end + 24);
  const after = WORD_AFTER_RE.exec(rest)?.[1];
  if ((after !== undefined && SPEECH_VERBS.has(after)) || PERSON_AFTER_RE.test(rest)) return true;
  const before = WORD_BEFORE_RE.exec(text.slice(Math.max(0, start - 24), start))?.[1];
  if (before === undefined) return false;
  return SPEECH_VERBS.has(before) || ROLE_WORDS.has(before.toLowerCase()) || OFFICES.has(`${before.charAt(0).toUpperCase()}${before.slice(1)}`) || germanCompoundRole(before);
}

/** German roles and offices that end the compounds German builds of them ("Handelsminister", "SPD-Vizefraktionschef"). */
const GERMAN_ROLES = `minister ministerin präsident präsidentin kanzler kanzlerin chef chefin sprecher sprecherin vorsitzender
  vorsitzende direktor direktorin trainer aktivist aktivistin sekretär sekretärin abgeordneter abgeordnete bürgermeister
  bürgermeisterin kommissar kommissarin botschafter politiker politikerin spieler spielerin stürmer torhüter anwalt
  anwältin richter richterin autor autorin sänger sängerin schauspieler schauspielerin regisseur führer leiter leiterin`
  .split(/\s+/)
  .filter((w) => w !== '');
const GERMAN_ROLE_ENDINGS = new RegExp(`^\\p{Lu}[\\p{L}-]{2,}(?:${GERMAN_ROLES.join('|')})$`, 'u');

/** Whether `word` is a German compound ending on a role or an office ("Handelsminister Gref"). */
function germanCompoundRole(word: string): boolean {
  return word.length > 6 && GERMAN_ROLE_ENDINGS.test(word);
}

/** Between two items of a list: a comma, a dash, a slash, or "and" in one of the seven languages. */
const LIST_GAP_RE = /^[ \t]*(?:[,/–-]|and|und|et|y|e|en|i|oraz)[ \t]*$/u;
// A list's neighbour this sure is a name ("Wright und Hendrie", "Kamps - Fach - Klinkert"): sure names score 20-45.

/** Whether people[k] stands in a list right beside a person the tagger is sure of. */
function besideSureName(text: string, people: readonly TaggedSpan[], k: number): boolean {
  const s = people[k] as TaggedSpan;
  const sure = (t: TaggedSpan): boolean => Math.min(t.firstConfidence, t.restConfidence) >= margins.listNeighbour;
  const prev = people[k - 1];
  if (prev !== undefined && sure(prev) && LIST_GAP_RE.test(text.slice(prev.end, s.start))) return true;
  const next = people[k + 1];
  return next !== undefined && sure(next) && LIST_GAP_RE.test(text.slice(s.end, next.start));
}

/** Three words after the colon: a sentence, not a field's value. */
const SENTENCE_AFTER_COLON_RE = /^:[ \t]+\p{L}+[ \t]+\p{L}+[ \t]+\p{L}/u;

/** Whether a lone word before a colon opens a line of speech ("Krätschmer: Das ist nicht richtig."). */
function speakerLine(text: string, s: TaggedSpan): boolean {
  if (s.firstConfidence < margins.openingWord || s.firstCommon) return false;
  return SENTENCE_AFTER_COLON_RE.test(text.slice(s.end, s.end + 64));
}

/** What addTaggedNames found to look for elsewhere, and how to look here for what other texts found. */
export interface TaggedNames {
  /** The text's own surnames (and lone names) to look for in the request's other texts. */
  readonly surnames: ReadonlySet<string>;
  /**
   * Adds to `candidates` (this text's, as addTaggedNames left them) the lone mentions of `known`, surnames other
   * texts of the request found: the same as passing them to addTaggedNames, without reading the text again.
   */
  addKnown(candidates: Candidate[], known: ReadonlySet<string>): void;
}

/**
 * The tagger's people become PERSON candidates (ranked like the list matches, so the overlap rules settle them
 * the same way), unless code punctuation touches them. Its places and organisations are negative evidence: a
 * list match inside one ("Santander" in "Banco Santander", "Sebastián" in "San Sebastián") is dropped; so is a
 * lone list name its silence overrules (listVetoed). `commonWord`: whether the model's lexicon holds a word
 * lower-cased (name-detector.ts isCommonWord). Then surnames found again alone (later-mentions.ts), also those of
 * `knownSurnames`.
 */
export function addTaggedNames(
  text: string,
  tagged: readonly TaggedSpan[],
  candidates: Candidate[],
  commonWord: (word: string) => boolean = () => false,
  knownSurnames?: ReadonlySet<string>,
): TaggedNames {
  const others: TaggedSpan[] = [];
  // The tagger's own candidates, in text order and apart from each other.
  const mine: Candidate[] = [];
  const cued = new Set<Candidate>();
  let typeNames: ReadonlySet<string> | undefined;
  const people = tagged.filter((s) => s.kind === 'PER');
  // Places and organisations the tagger is sure start where they do, however unsure of where they end ("Ford Motor
  // Company": 8.9, then 0.4), by their first two words: the same two words elsewhere are that name again.
  const opened = tagged.filter((s) => s.kind !== 'PER' && s.words > 1 && s.firstConfidence >= margins.veto && !startsWithSalutation(text.slice(s.start, s.end)));
  const reopened = opened.length === 0 ? [] : openingsAgain(text, opened);
  let k = -1; // people[k] is the span at hand
  for (const s of tagged) {
    if (s.kind !== 'PER') {
      // Only a sure place or organisation overrules a list match; "Thanks Jane" read as ORG does not.
      const sure = Math.min(s.firstConfidence, s.restConfidence) >= (s.words === 1 ? margins.oneWordVeto : margins.veto);
      if (sure && !startsWithSalutation(text.slice(s.start, s.end))) others.push(s);
      continue;
    }
    k += 1;
    const from = personStart(text, s, people, k, commonWord);
    if (from === -1) continue;
    const [start, end] = nameAroundTitle(text, from, s.end);
    if (start === -1 || agentTextLookalike(text, start, end, start === s.start && s.opensSentence, people, commonWord) || imperativeVerb(text, start, end)) continue;
    const markup = inMarkup(text, start, end);
    if (!markup && CODE_BEFORE.test(text.slice(Math.max(0, start - 1), start))) continue;
    // A lone word the text's code uses as a type ("grant: Grant"), on a line of code or comment (type-names.ts);
    // the text's type names are read only when such a word is found.
    const word = s.words === 1 ? text.slice(start, end) : '';
    if (word !== '' && ((typeNames ??= typeNamesIn(text)).has(word) || declaresType(nearby(text, start), word)) && onCodeLine(text, start, word)) continue;
    // "Ford Motor shares" where the text names "Ford Motor Company": the organisation again, not a person.
    if (word !== '' && reopened.some((r) => r.start === start)) continue;
    const sure = Math.min(s.firstConfidence, s.restConfidence) >= margins.houseNumber;
    if ((!markup && CODE_AFTER.test(text.slice(end, end + 2))) || notAPersonHere(text, start, end, sure, markup) || namesAPlace(text, start, end) || namesATerm(text, start, end)) continue;
    const c: Candidate = { type: 'PERSON', start, end, rank: RANK_FORMAT };
    mine.push(c);
    candidates.push(c);
    // "sagte Lippelt": found again alone where nothing marks it ("Lippelt betonte"), as after a title.
    if (word !== '' && personCue(text, start, end)) cued.add(c);
  }
  const own = new Set(mine);
  let kept = 0;
  for (const c of candidates) {
    if (c.type !== 'PERSON' || own.has(c)) candidates[kept++] = c;
    else if (splitsTaggedName(text, c, mine, tagged) || namesAPlace(text, c.start, c.end) || namesATerm(text, c.start, c.end)) continue;
    else if (c.rank <= RANK_FORMAT && (listWordLookalike(text, c) || imperativeVerb(text, c.start, c.end))) continue;
    else if (c.rank > RANK_FORMAT || !listVetoed(text, c, others, people, commonWord)) candidates[kept++] = c;
  }
  candidates.length = kept;
  // A surname found again inside a place or organisation the tagger opened surely is part of its name.
  const mentionVetoes = [...others.filter((s) => s.words > 1 || s.firstConfidence >= margins.mentionVeto), ...opened.filter((s) => !others.includes(s)), ...reopened].sort(
    (a, b) => a.start - b.start,
  );
  // "sagte Lippelt" where the tagger read nothing: a speaker, as sure as a cued one (speech-cued-names.ts).
  for (const c of speechCuedNames(text, tagged, candidates, commonWord)) {
    candidates.push(c);
    cued.add(c);
  }
  const surnames = addLaterMentions(text, candidates, tagged, mentionVetoes, commonWord, knownSurnames, undefined, cued);
  return {
    surnames,
    addKnown: (more, known) => void addLaterMentions(text, more, tagged, mentionVetoes, commonWord, known, surnames),
  };
}

const WORD_RE = /\S+/g;
const TWO_WORDS = /^\S+[ \t]+[\p{L}'’-]+/u;
const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * Every place in `text` where the first two words of one of `opened` stand together as written there, the span's
 * own start included: "Ford Motor" in "Ford Motor shares rose" after "Ford Motor Company". A native search per
 * distinct pair (a scan of every word cost 2-4 ms on the 115 KB agent request).
 */
function openingsAgain(text: string, opened: readonly TaggedSpan[]): { start: number; end: number }[] {
  const pairs = new Set<string>();
  for (const s of opened) {
    const m = TWO_WORDS.exec(text.slice(s.start, s.end));
    if (m !== null) pairs.add(m[0]);
  }
  const out: { start: number; end: number }[] = [];
  for (const pair of pairs) {
    for (let at = text.indexOf(pair); at !== -1; at = text.indexOf(pair, at + 1)) {
      const end = at + pair.length;
      if (!WORD_CHAR.test(text.charAt(at - 1)) && !WORD_CHAR.test(text.charAt(end))) out.push({ start: at, end });
    }
  }
  return out;
}

/**
 * Whether what agent text makes look like a name is none (agent-text-words.ts): a date's weekday and month, a man
 * page's header line, a user-agent string's words, a Rust or C++ path, a product before a word for software, a
 * contraction, an identifier alone or in a span, a word the text uses as code or a tool's name opening unknown
 * words (code-words.ts), a noun written in compounds or a declined form of a word written alone (word-forms.ts),
 * or a word alone that the same text writes in lower case and the name lists do not know ("Fichero" opening a man
 * page's table cells, beside "el fichero"). Set on the dev part of the agent-text set.
 */
function agentTextLookalike(
  text: string,
  start: number,
  end: number,
  opensSentence: boolean,
  people: readonly TaggedSpan[],
  commonWord: (word: string) => boolean,
): boolean {
  if (isDateWords(text, start, end) || onManPageHeader(text, start) || inProductTokens(text, start)) return true;
  // A path in Rust or C++ ("sync::Arc", "std::string"); PHP's "Monolog\Logger" has its backslash in CODE_BEFORE.
  if (text.endsWith('::', start) || namesSoftware(text, start, end)) return true;
  const words = text.slice(start, end).split(/\s+/);
  // An identifier inside a longer span is a product's ("Novell NetWare"); a name's camel case has a prefix the
  // identifier rule knows ("Scott DesJarlais", "Ronald McNair").
  if (words.length > 1) return words.some(isIdentifierWord) || commonWordOpens(text, start, words) || toolOpens(text, start, words);
  const word = words[0] as string;
  // A word the text uses as code nearby, a known name or not ("class Logger" beside "Logger.php", code-words.ts).
  if (isIdentifierWord(word) || initialJoinedToWord(word, commonWord) || inDeriveList(text, start) || usedAsCode(text, word, start)) return true;
  // A link to its own site: a project ("[Babel](https://babeljs.io/)").
  if (linksToOwnSite(text, start, end)) return true;
  // A word no list knows inside a heading's run of capitalised common words ("Feature Test Macro Requirements").
  if (!isListedName(word) && insideTitleCaseRun(text, start, end, commonWord)) return true;
  // A noun the text also writes inside compounds ("Benutzer" beside "Benutzername", word-forms.ts).
  const known = isListedName(word);
  if (!known && partOfCompounds(text, word, start)) return true;
  // One item of a list written as software ("GnuTLS, OpenSSL, Rustls, Schannel, or wolfSSL", software-lists.ts).
  if (inSoftwareList(text, start, end, known) || inFontStack(text, start, end)) return true;
  // An option's description opening ("--pointer=STR   Pointer to the current line"), a licence's defined term
  // ('(the "Waiver")').
  if (opensOptionDescription(text, start) || isDefinedTerm(text, start, end)) return true;
  // A release's code name beside its product and version ("Catalina (macOS 10.15)", "Debian 11 (Bullseye)").
  if (namesARelease(text, start, end)) return true;
  // A declined form of a word the text writes alone, outside the names the tagger found ("Debiana" beside "Debian").
  if (!known && declinedFormOfWritten(text, word, start, (at) => inSpan(people, at))) return true;
  // A word no list knows opening a table's cell and a phrase in lower case: the cell's description ("│ Guión o
  // programa de generación", "| Fichero de datos"); a name in a table stands alone or with its other names.
  if (!known && opensTableCell(text, start) && LOWER_WORD_AFTER.test(text.slice(end, end + 4))) return true;
  if (!writtenLowerCase(text, word, start)) return false;
  if (!known) return true;
  // A known name that is also a common word, opening a sentence before a word in lower case, or a table's cell
  // ("│ Fuentes para groff(1)"), in a text that writes it in lower case too, is the common word ("Esta página …"
  // beside "esta"), unless a verb of saying or a role marks a person ("Rosa dijo", personCue).
  return ((opensSentence && LOWER_WORD_AFTER.test(text.slice(end, end + 4))) || opensTableCell(text, start)) && !personCue(text, start, end);
}

const WORD_AFTER_ANY_RE = /^[ \t]+(\p{L}+)/u;
const CAPITALISED_WORD_RE = /^\p{Lu}\p{Ll}+$/u;

/** Whether the words right before and after [start, end) are capitalised common words the name lists do not know. */
function insideTitleCaseRun(text: string, start: number, end: number, commonWord: (word: string) => boolean): boolean {
  const title = (w: string | undefined): boolean => w !== undefined && CAPITALISED_WORD_RE.test(w) && !isListedName(w) && commonWord(w);
  return title(WORD_BEFORE_RE.exec(text.slice(Math.max(0, start - 24), start))?.[1]) && title(WORD_AFTER_ANY_RE.exec(text.slice(end, end + 24))?.[1]);
}

/** Whether `at` lies in one of `spans` (sorted by start). */
function inSpan(spans: readonly TaggedSpan[], at: number): boolean {
  const s = spans[lastStartingBy(spans, at)];
  return s !== undefined && at < s.end;
}

/**
 * Whether a list's lone name is what agent text makes look like one: a word the text uses as code ("Darwin"
 * beside "#[cfg(not(darwin))]"), or a common word opening a table's cell ("│ Fuentes para groff(1)" beside "de
 * fuentes"). Narrower than agentTextLookalike: a list match is no tagger's guess.
 */
function listWordLookalike(text: string, c: Candidate): boolean {
  const word = text.slice(c.start, c.end);
  if (word.includes(' ')) return false;
  return usedAsCode(text, word, c.start) || inFontStack(text, c.start, c.end) || (opensTableCell(text, c.start) && writtenLowerCase(text, word, c.start));
}

const LOWER_WORD_AFTER = /^[ \t]+\p{Ll}/u;

/**
 * Capitalised words opening on one the same text writes in lower case, none of them a known name, particle or
 * title: a table cell or heading ("Fichero Perl", "Fichero Macintosh" beside "el fichero"), not a person
 * ("Sheik Abdel Rahman", "Di Pietro", "Rosa Parks" keep theirs).
 */
function commonWordOpens(text: string, start: number, words: readonly string[]): boolean {
  const first = words[0] as string;
  // Any given name counts here, those that are common words too ("Mark Nudelman" beside "mark the line").
  const given = (w: string): boolean => isListedName(w) || COMMON_WORD_GIVEN_NAME_SET.has(w) || WORD_LIKE_GIVEN_NAME_SET.has(w);
  if (PARTICLES.includes(first.toLowerCase()) || TITLE_SET.has(first.replace(/\.$/, '')) || words.some(given)) return false;
  return writtenLowerCase(text, first, start);
}

/**
 * A tool's name opening words no name list knows: "Tar Handleiding", "GNU Tar Manual" beside "tar -x" (code-words.ts).
 * Not a given name: a homepage's path writes it in lower case ("Christophe Blaess <https://www.blaess.fr/christophe/>").
 */
function toolOpens(text: string, start: number, words: readonly string[]): boolean {
  const first = words[0] as string;
  // A given name that is also a word is one too ("Mark Goldman" in vim's credits, beside its ":mark" command).
  return !GIVEN_NAME_SET.has(first) && !COMMON_WORD_GIVEN_NAME_SET.has(first) && !words.slice(1).some(isListedName) && usedAsCode(text, first, start);
}

/**
 * A title inside the tagger's span (an initial, "M.", is none) splits it. One word before the title greets or
 * qualifies ("Szanowna Pani Baldwin"): the name is after the title. More are a name of their own ("Matti Teufel
 * Dr. Madubuko"): it ends before the title, and the title rule finds the next. [-1, -1] when nothing is left.
 */
function nameAroundTitle(text: string, start: number, end: number): [number, number] {
  WORD_RE.lastIndex = start;
  let last = -1;
  let before = 0;
  for (let m = WORD_RE.exec(text); m !== null && m.index < end; m = WORD_RE.exec(text)) {
    const word = m[0].replace(/\.$/, '');
    if (last !== -1 && word.length > 1 && TITLE_SET.has(word)) {
      if (before > 1) return [start, last];
      WORD_RE.lastIndex = m.index + m[0].length;
      const next = WORD_RE.exec(text);
      return next !== null && next.index < end ? [next.index, end] : [-1, -1];
    }
    last = m.index + m[0].length;
    before += 1;
  }
  return [start, end];
}

/** A name ending on a lower-case word ("Julien de"), and an elided particle ("D' Annunzio", "O'Brien"). */
const PARTICLE_END = /\s\p{Ll}+$/u;
const APOSTROPHE_NEXT = /^\s*\p{L}{1,3}['’]/u;
/** A capitalised word after a lower-case word or a comma, then a space: the start of a name. */
const CAPITALISED_BEFORE = /[\p{Ll},;]\s+\p{Lu}\p{Ll}+ $/u;
const INITIAL_BEFORE = /(?:^|\s)\p{Lu}\.\s+$/u;

/**
 * Whether a rule's PERSON match cuts across a name the tagger read whole: it crosses one's edge ("Alexandra Fusai
 * Nathalie" over "Alexandra Fusai" "Nathalie Tauziat"), a list match lies inside one ("Schulz" in "Charles M.
 * Schulz") or runs on past one ("Mick Jagger Probleme"). A match after a title or greeting only crosses, or
 * follows an initial inside the tagger's name ("Daley" after the "M." of "Richard M. Daley").
 */
function splitsTaggedName(text: string, c: Candidate, mine: readonly Candidate[], tagged: readonly TaggedSpan[]): boolean {
  let inside: Candidate | undefined;
  let insideCount = 0;
  for (let k = lastStartingBy(mine, c.end - 1); k >= 0 && (mine[k] as Candidate).end > c.start; k--) {
    const t = mine[k] as Candidate;
    if (c.start <= t.start && t.end <= c.end) {
      inside = t;
      insideCount += 1;
      continue;
    }
    if (c.start < t.start || t.end < c.end || c.rank <= RANK_FORMAT) return true;
    if (t.start < c.start && INITIAL_BEFORE.test(text.slice(t.start, c.start))) return true;
  }
  // A list match that runs on past the one name the tagger read inside it takes in the words after it ("Evi
  // Berger das Märchen", "Mick Jagger Probleme"): the tagger's name stands, unless it ends on a particle ("Julien
  // de") or an elided one follows ("Gabriele D' Annunzio"), where the tagger stopped short. Over two of the
  // tagger's names ("Fleur" "Richard") the list match is the whole name the tagger split.
  if (insideCount === 1 && inside !== undefined && c.rank <= RANK_FORMAT && (c.start < inside.start || inside.end < c.end)) {
    return (
      !PARTICLE_END.test(text.slice(inside.start, inside.end)) &&
      !APOSTROPHE_NEXT.test(text.slice(inside.end, c.end)) &&
      !givenNameGoesOn(text, inside, c) &&
      !givenNameBefore(text, inside, c) &&
      !undecidedWordGoesOn(text, inside, c, tagged)
    );
  }
  return false;
}

/** Given names that open questions as modal verbs ("Will Thompson come?", "May Thompson join?"). */
const MODAL_GIVEN_NAMES: ReadonlySet<string> = new Set(['Will', 'May']);

/**
 * The tagger read a known surname alone, and the list match is one given name right before it ("Yesterday Hope
 * Thompson wrote", "schreef Elke Lešević", "Serenity Němcová wrote"): the list's full name stands, the given name
 * being a common word or not; taking a verb with it ("Mark Thompson as absent") hides one word more, leaving it
 * would leave the given name. Not a modal opening a question ("Will Thompson come?"), nor a title ("Major Biasci").
 */
function givenNameBefore(text: string, inside: Candidate, c: Candidate): boolean {
  if (inside.end !== c.end || inside.start <= c.start) return false;
  const before = text.slice(c.start, inside.start).trim();
  if (!(GIVEN_NAME_SET.has(before) || COMMON_WORD_GIVEN_NAME_SET.has(before)) || TITLE_SET.has(before)) return false;
  if (!SURNAME_SET.has(text.slice(inside.start, inside.end))) return false;
  return !MODAL_GIVEN_NAMES.has(before) || !opensSentence(text, c.start);
}

/**
 * The tagger read the list match's first word alone, a known given name, and the one word the list match goes on
 * with as a place or organisation it cannot tell from a person ("Jack London wrote": LOC at 0.8-4.2 in five
 * retrains, I-PER in the shipped one): the list's full name stands. A sure place ("Jack London kam": 16.7) does not.
 */
function undecidedWordGoesOn(text: string, inside: Candidate, c: Candidate, tagged: readonly TaggedSpan[]): boolean {
  if (inside.start !== c.start || !GIVEN_NAME_SET.has(text.slice(inside.start, inside.end))) return false;
  const s = tagged[lastStartingBy(tagged, c.end - 1)];
  return s !== undefined && s.kind !== 'PER' && s.words === 1 && s.end === c.end && s.start > inside.end && s.firstConfidence < margins.oneWordVeto && !/\S/.test(text.slice(inside.end, s.start));
}

/**
 * The tagger read the list match's first word alone, a given name that is also a common word, and the list match
 * goes on with known surnames only ("Maren" in "Beste Grüße,\nMaren Weight"): the list's full name stands.
 */
function givenNameGoesOn(text: string, inside: Candidate, c: Candidate): boolean {
  if (inside.start !== c.start || !COMMON_WORD_GIVEN_NAME_SET.has(text.slice(inside.start, inside.end))) return false;
  return text.slice(inside.end, c.end).trim().split(/\s+/).every((w) => SURNAME_SET.has(w));
}

/**
 * A known given name and a known surname that the tagger read, word for word, as a place or organisation it is
 * unsure of: the model has no Spanish or Italian text, and reads "a" before a name as before a city ("Gracias a
 * Pearl Langrová": LOC at 5.9, "Merci à Tobia Domingues": 5.5). A sure one ("Hugo Boss" as a firm) still overrules.
 */
function fullNameOverUnsurePlace(text: string, c: Candidate, o: TaggedSpan): boolean {
  if (o.start !== c.start || o.end !== c.end || Math.min(o.firstConfidence, o.restConfidence) >= margins.oneWordVeto) return false;
  const words = text.slice(c.start, c.end).split(/\s+/);
  const first = words[0] as string;
  return words.length > 1 && (GIVEN_NAME_SET.has(first) || COMMON_WORD_GIVEN_NAME_SET.has(first)) && SURNAME_SET.has(words[words.length - 1] as string);
}

/**
 * Whether the tagger overrules a list match (a known name, no title or label): it lies inside a place or
 * organisation the tagger found, or it is a lone surname ("Frauen", "Vater": German nouns in the surname list)
 * the tagger read in context and did not call a name. Known given names alone keep the lists' word, unless they
 * are also common words by the model's lexicon (Dutch "Dan", "Elke": then, each) and the tagger did not call them
 * names.
 */
function listVetoed(text: string, c: Candidate, others: readonly TaggedSpan[], people: readonly TaggedSpan[], commonWord: (word: string) => boolean): boolean {
  const o = others[lastStartingBy(others, c.start)];
  if (o !== undefined && c.end <= o.end && !fullNameOverUnsurePlace(text, c, o)) return true;
  const word = text.slice(c.start, c.end);
  if (word.includes(' ')) return false;
  // A given name that is also a common word ("Dan", "Elke": then, each) keeps the lists' word only where a name
  // is expected: after a greeting ("Hola Rosa,"), or opening a line before a colon (a speaker: "Ella: …").
  if (GIVEN_NAME_SET.has(word) && (!commonWord(word) || greetedOrSpeaker(text, c.start, c.end))) return false;
  // Right after a capitalised word it ends a name the tagger missed ("I want to add Tünde Hoffmann").
  if (CAPITALISED_BEFORE.test(text.slice(Math.max(0, c.start - 32), c.start))) return false;
  const k = lastStartingBy(people, c.end - 1);
  const p = people[k];
  if (p !== undefined && p.end > c.start) return false;
  // A surname the lists know and no common word, "with" a person the tagger is sure of
  // ("Gestern hat Scholz mit Wiśniewski telefoniert": Wiśniewski at 52-75 in five draws, Scholz at 11 or none).
  return !(LONE_SURNAME_SET.has(word) && !commonWord(word) && besideSurePerson(text, c, people, k));
}

/**
 * "With" alone between the two (WITH_WORDS). Not a list's comma or "and": a list also runs on from a noun the
 * surname lists hold ("Rundfahrt der Frauen, Nicole Cooke") or names a firm ("Jones, Smith and Davis").
 */
const WITH_GAP_RE = new RegExp(`^[ \\t]+(?:${WITH_WORDS})[ \\t]+$`, 'u');

/** Articles: a listed surname after one is a noun ("ein Treffen der Frauen mit Anna Weber"). */
const ARTICLES: ReadonlySet<string> = new Set(
  `the a an der die das den dem des ein eine einer einem einen eines le la les un une des el los las una il lo gli
  uno de het een`.split(/\s+/),
);

/**
 * Whether the word at `c`, after no article, stands with a person the tagger is sure of (people[k]: the last one
 * starting by its end).
 */
function besideSurePerson(text: string, c: Candidate, people: readonly TaggedSpan[], k: number): boolean {
  const before = WORD_BEFORE_RE.exec(text.slice(Math.max(0, c.start - 24), c.start))?.[1];
  if (before !== undefined && ARTICLES.has(before.toLowerCase())) return false;
  const sure = (t: TaggedSpan | undefined): t is TaggedSpan => t !== undefined && Math.min(t.firstConfidence, t.restConfidence) >= margins.listNeighbour;
  const prev = people[k];
  if (sure(prev) && prev.end <= c.start && WITH_GAP_RE.test(text.slice(prev.end, c.start))) return true;
  const next = people[k + 1];
  return sure(next) && WITH_GAP_RE.test(text.slice(c.end, next.start));
}

/** Each greeting's last word, as written or lower-cased: what stands right before the name ("Buenos días Rosa"). */
const GREETING_WORDS: ReadonlySet<string> = new Set(
  GREETING_FORMS.map((g) => g.slice(g.lastIndexOf(' ') + 1)).flatMap((w) => [w, w.toLowerCase()]),
);

/** Whether the word at [start, end) follows a greeting word, or opens a line before a colon. */
function greetedOrSpeaker(text: string, start: number, end: number): boolean {
  const before = WORD_BEFORE_RE.exec(text.slice(Math.max(0, start - 24), start))?.[1];
  if (before !== undefined && GREETING_WORDS.has(before)) return true;
  return text.charCodeAt(end) === 0x3a /* : */ && (start === 0 || text.charCodeAt(start - 1) === 0x0a);
}
