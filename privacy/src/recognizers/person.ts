import { LETTER_CLASS, LOWER_CLASS, SMALL_CLASS, UPPER_CLASS } from '../latin-letters.js';
import { RANK_CONTEXT, RANK_FORMAT } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';
import { isIdentifierWord } from '../names/agent-text-words.js';
import { bothInitialCases, wordAlternation } from '../word-alternation.js';
import {
  COMMON_WORD_GIVEN_NAME_SET,
  GIVEN_NAME_SET,
  GREETING_FORMS,
  SENTENCE_OPENERS,
  WORLD_WORDS,
  isListedName,
  LANGUAGE_NAMES,
  LONE_SURNAME_SET,
  NAME_CUES,
  NAME_LABELS,
  OFFICE_MODIFIERS,
  OFFICES,
  PARTICLES,
  PLACE_PREFIXES,
  PLACE_WORDS,
  PLATFORM_NAMES,
  ABBREVIATED_TITLES,
  RUNNING_TEXT_OFFICES,
  RUNNING_TEXT_TITLES,
  SIGN_OFFS,
  STOP_WORDS,
  SURNAME_SET,
  TITLE_PARTICLES,
  TITLE_SET,
  TITLES,
  WORD_LIKE_GIVEN_NAME_SET,
} from './person-words.js';

// People's names, found seven ways, most certain first:
//  - after a title in any of the seven languages ("Dr O'Brien", "Frau Schröder", "Sig.ra Bianchi", "Pani Nowak"),
//    also as running text writes it in lower case ("il signor Rossi", "z panem Kowalskim");
//  - after a greeting that opens a line, up to a comma or the line's end ("Hi Siobhan,");
//  - on the line after a sign-off ("Kind regards,\nAoife Murphy", "Liebe Grüße\nJürgen");
//  - after a field label and its colon ("Name: Tegan Prothero", "Kontoinhaber: …") or a phrase that introduces a
//    name ("the account holder is", "ich heiße", "hablé con"): the capitalised words, known names or not;
//  - right before a phone number after a dash or in brackets, or before an e-mail address in angle brackets
//    ("Rhodri Prothero – 07700 900123", "Tegan Ogunleye <tegan@…>"): namesBeforeContacts, after the other types;
//  - a known given name followed by a capitalised surname ("Siobhan O'Brien", "Jakub van der Berg"); a given name
//    that is also a common word ("Grace", "Rosa") only when the surname is a known one ("Grace Kowalczyk");
//  - a known given name or surname alone, when it is no word of the seven languages ("Why is Katrine so quiet?").
// The span is the name only: a title stays readable ("Dr [REDACTED_PERSON]"). A name next to a place word
// ("Victoria Station", "Aeropuerto Adolfo Suárez"), after a place prefix ("St Thomas"), next to a house number
// (a street's), or one word inside code punctuation is none. Every quantifier is bounded; the known-name scan
// visits each capitalised word once.

// Latin-script letter classes (latin-letters.ts) rather than \p{Lu}/\p{Ll}: without the u flag V8 scans these
// regexes several times faster (CAPITALISED_RE alone: 66 → 720 MB/s).
const UPPER = UPPER_CLASS;
const LOWER = LOWER_CLASS;
const LETTER = LETTER_CLASS;
// A capital inside after a Gaelic or Norman prefix: "O'Brien", "McDonald", "MacLeod", "D'Angelo".
const NAME_WORD = `(?:O['’]|Mc|Mac|D['’])?${UPPER}${LOWER}{1,24}(?:-${UPPER}${LOWER}{1,24})?`;
const PARTICLE = `(?:${PARTICLES.join('|')})`;
/** A particle that starts a surname written alone, as after a title: "Van der Berg", "De Vries", "Di Stefano". */
const LEADING_PARTICLE = `(?:${PARTICLES.map((p) => `${p[0]?.toUpperCase() ?? ''}${p.slice(1)}`).join('|')})`;
// Words apart by one space or more: `man` justifies its lines ("et  Lucien  Gentis <…>").
const NAME_SEQ = String.raw`(?:${LEADING_PARTICLE}[ \t]+)?${NAME_WORD}(?:[ \t]+(?:${PARTICLE}[ \t]+)?${NAME_WORD}){0,2}`;
const TITLE = `${wordAlternation(TITLES)}\\.?`;

/**
 * After a title the surname may open on a particle ("Mevrouw de Vries", "Herr von Weizsäcker"), not after "M.",
 * which is also a given name's initial ("M. van Dijk": findAfterContext).
 */
const AFTER_TITLE = String.raw`((?:${wordAlternation(TITLE_PARTICLES)}[ \t])?${NAME_SEQ})(?!${LETTER}|[\d_])`;
const TITLE_RE = new RegExp(String.raw`${TITLE}[ \t]${AFTER_TITLE}`, 'g');
// The lower-case titles come after a space (or an elided article: "l'avv. Ghedini"), as running text writes
// them: opening on it, the scan passes every other position at its first character (with them in TITLE_RE,
// bench:pii mixed prose 16.5 → 14.8 MB/s). The abbreviated ones only with their full stop ("gen. Bielski", not
// "next gen Xbox").
const RUNNING_TEXT_TITLE_RE = new RegExp(
  String.raw`[ \t'’](?:${wordAlternation(RUNNING_TEXT_TITLES)}\.?[ \t]${AFTER_TITLE}|(?:${wordAlternation(RUNNING_TEXT_OFFICES)}\.?|${wordAlternation(bothInitialCases(ABBREVIATED_TITLES))}\.)[ \t](${NAME_SEQ})(?!${LETTER}|[\d_]))`,
  'g',
);
// Greetings and sign-offs open their line (after any indent or '>' of a quoted mail). Anchored there, a scan
// rejects every other position at once instead of trying sixty words at each (bench:pii mixed prose 18 → 27
// MB/s); a greeting in the middle of a line ("Thanks. Hi Anna,") is missed, which costs the multilingual set
// 0.7 points of PERSON recall, and finding sentence starts to try it there cost more than it saved.
const GREETING_RE = new RegExp(
  String.raw`^[ \t>]*${wordAlternation(bothInitialCases(GREETING_FORMS))}[ \t]+(?:${TITLE}[ \t])?(${NAME_SEQ})(?=[ \t]*(?:[,!:\r\n]|$))`,
  'gm',
);
const SIGN_OFF_RE = new RegExp(
  String.raw`^[ \t>]*${wordAlternation(bothInitialCases(SIGN_OFFS))}[ \t]*[,!.]?[ \t]*\r?\n[ \t>]*(${NAME_SEQ})(?=[ \t]*(?:\r?\n|,|$))`,
  'gm',
);
// Credits in code and its documents: the holder of a copyright after its years ("Copyright (c) 2009-2013 TJ
// Holowaychuk"), an author or maintainer field's value ("author='Armin Ronacher'", "\"author\": \"… <…>\""), a
// package's person ("{ \"name\": \"TJ Holowaychuk\", \"email\": …"). Two words or more, up to the line's end, a
// mailbox or the field's quote, so that a firm ("Google Inc.", "Red Hat, Inc.", "Mozilla") is none; up to three
// capitals may open it as initials ("TJ"). Set on the agent-text set's dev part (its real names are labelled).
const CREDITED_NAME = String.raw`((?:${UPPER}{1,3}\.?[ \t])?${NAME_SEQ})`;
const COPYRIGHT_RE = new RegExp(
  String.raw`(?:[Cc]opyright|COPYRIGHT|©)(?:[ \t]*(?:\([cC]\)|©))?[ \t]*\d{4}(?:[ \t]*[-–,][ \t]*\d{2,4}){0,8},?[ \t]+${CREDITED_NAME}(?=[ \t]*(?:<|\(|\r?\n|$))`,
  'g',
);
const AUTHOR_FIELD_RE = new RegExp(String.raw`\b(?:[Aa]uthor|[Mm]aintainer)s?["']?[ \t]*[:=][ \t]*\[?[ \t]*["']${CREDITED_NAME}(?=[ \t]*["'<])`, 'g');
const PACKAGE_PERSON_RE = new RegExp(String.raw`["']name["'][ \t]*:[ \t]*["']${CREDITED_NAME}(?=["'][ \t]*,[ \t]*["'](?:email|url)["'])`, 'g');

/**
 * A git header or trailer line's person: all that stands between the key and the mailbox ("Author: TJ Holowaychuk
 * <…>", "Co-authored-by: Boy van Duuren <…>", "Signed-off-by: Wong Hoi Sing Edison <…>", "Author: Jan T. Sott <…>"),
 * however the name is written (initials, a nickname in quotes, a surname in capitals, "Last, First"), where the
 * other rules take its capitalised words only and leave "TJ" or "Jan T." readable.
 */
const GIT_PERSON_LINE_RE = /^[ \t]*(?:author|committer|co-authored-by|signed-off-by|reviewed-by|acked-by|tested-by|reported-by|suggested-by|helped-by):[ \t]+([^<>@:\n]{2,80}?)[ \t]*<[^<>\s]+@[^<>\s]+>/gim;
/** One word of such a name: letters with dots, apostrophes or hyphens, a comma after a surname, or a quoted nickname. */
const GIT_NAME_WORD_RE = /^(?:\p{L}[\p{L}'’.-]*,?|['"(]\p{L}+['")])$/u;

/**
 * Credits' names (COPYRIGHT_RE, AUTHOR_FIELD_RE, PACKAGE_PERSON_RE, GIT_PERSON_LINE_RE): two words or more. Each
 * scan runs only where a plain search finds its key word, so prose without one costs a few substring searches.
 */
function findCredits(text: string, out: Candidate[]): void {
  if (text.includes('opyright') || text.includes('OPYRIGHT') || text.includes('©')) findCreditsBy(COPYRIGHT_RE, text, out);
  if (text.includes('uthor') || text.includes('aintainer')) findCreditsBy(AUTHOR_FIELD_RE, text, out);
  if (text.includes('name')) findCreditsBy(PACKAGE_PERSON_RE, text, out);
  if (text.includes('@') && (text.includes('uthor') || text.includes('-by:') || text.includes('-By:'))) findGitPeople(text, out);
}

function findGitPeople(text: string, out: Candidate[]): void {
  GIT_PERSON_LINE_RE.lastIndex = 0;
  for (let m = GIT_PERSON_LINE_RE.exec(text); m !== null; m = GIT_PERSON_LINE_RE.exec(text)) {
    const name = m[1] ?? '';
    const parts = name.split(/[ \t]+/);
    if (parts.length < 2 || parts.length > 6 || !parts.every((w) => GIT_NAME_WORD_RE.test(w))) continue;
    pushContextName(m.index + m[0].indexOf(name, m[0].indexOf(':') + 1), name, out);
  }
}

function findCreditsBy(re: RegExp, text: string, out: Candidate[]): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const name = m[1] ?? '';
    if (wordsOf(name).length < 2) continue;
    pushContextName(m.index + m[0].length - name.length, name, out);
  }
}
const CAPITALISED_RE = new RegExp(`${UPPER}${SMALL_CLASS}{1,20}(?!${LETTER}|[\\d_'’])`, 'g');
/** A letter, digit or underscore: a title or greeting right after one is inside another word. */
const WORD_CHAR_RE = new RegExp(`${LETTER}|[\\d_]`);
/** What may not stand right before a given name: a letter (the word goes on), or a sign of an identifier or path. */
const JOINED_BEFORE_RE = new RegExp(`${LETTER}|[\\d_'’./@#$\\\\-]`);
/**
 * French and Italian elided articles and prepositions, up to their apostrophe: the word after one starts afresh
 * ("le livre d'Émile Zola", "la bottega dell'Orlandini"), where after "O'" it goes on ("O'Brien"). Lower case
 * only: "D'Annunzio" is one surname.
 */
const ELIDED_BEFORE_RE = /(?:^|[^\p{L}])(?:d|l|j|m|t|s|n|c|qu|jusqu|lorsqu|puisqu|dell|all|dall|nell|sull|coll|un|quell)['’]$/u;

/** Whether the word at `start` is joined to what stands before it, so no name can start there. */
function joinedBefore(text: string, start: number): boolean {
  if (start === 0 || !JOINED_BEFORE_RE.test(text[start - 1] ?? '')) return false;
  return !ELIDED_BEFORE_RE.test(text.slice(Math.max(0, start - 8), start));
}
/** One surname word after a given name, with its particle: sticky, tried right after the given name. */
const SURNAME_RE = new RegExp(String.raw`[ \t](?:[A-Z]\.?[ \t])?((?:${PARTICLE}[ \t])?)(${NAME_WORD})(?!${LETTER}|[\d_])`, 'y');
const NEXT_WORD_RE = /[ \t]([\p{L}]{2,20})/uy;
const PREVIOUS_WORD_RE = /([\p{L}]{2,20})\.?[ \t]$/u;
const CODE_BEFORE_RE = /[{(["`<=]$|[{(["`<=][ \t]$/;
const CODE_AFTER_RE = /^(?:[.:][\p{L}_]|[ \t]?[})\]"`>=]|\()/u;
const HOUSE_NUMBER_AFTER_RE = /[ \t]\d{1,4}[a-z]?(?![\d\p{L}]|[ \t]?\d)/uy;
/** Three to five digits right before a name, a year aside ("in 1997 Smith joined"): a house number or a postcode. */
const HOUSE_NUMBER_NOT_YEAR_BEFORE_RE = /(?:^|[^\d.,:-])(?!1\d{3}\b|20\d{2}\b)\d{3,5}[a-z]?,?[ \t]$/;
const HOUSE_NUMBER_BEFORE_RE = /(?:^|[^\d \t-])[ \t]*\d{1,5}[a-z]?,?[ \t]$/;
const PLACE_PREFIX_SET: ReadonlySet<string> = new Set(PLACE_PREFIXES);
/** The one-word greetings and sign-offs ("Buongiorno", "Pozdrawiam"): no name when they open a line. */
const SALUTATIONS: readonly string[] = [...GREETING_FORMS, ...SIGN_OFFS];
const SALUTATION_WORDS: ReadonlySet<string> = new Set(SALUTATIONS.filter((w) => !w.includes(' ')));
const WORD_RE = /[\p{L}'’-]+/gu;
/** Capitalised words from a position on, as a name, a middle initial allowed ("Abby M. Laidlaw"): sticky. */
const NAME_AT_RE = new RegExp(
  String.raw`(?:${LEADING_PARTICLE}[ \t])?${NAME_WORD}(?:[ \t]${UPPER}\.?(?=[ \t]))?(?:[ \t](?:${PARTICLE}[ \t])?${NAME_WORD}){0,2}(?!${LETTER}|[\d_])`,
  'y',
);
/** What opens the field a label names: a line, a sentence, a table cell, a list item or markdown emphasis. */
const FIELD_START_RE = /(?:^|[\n|*>\t•]|[.;,] )[ \t*_-]*([^\n|*>\t•:.;,]{1,40}(?::[ \t]*)?)$/;
const LETTER_BEFORE_RE = new RegExp(LETTER);
/** The cue phrases by their last word: a phrase is only compared when the word before a name ends one. */
const CUES_BY_LAST_WORD: ReadonlyMap<string, readonly string[]> = (() => {
  const m = new Map<string, string[]>();
  for (const cue of NAME_CUES) {
    const last = cue.slice(cue.lastIndexOf(' ') + 1);
    m.set(last, [...(m.get(last) ?? []), cue]);
  }
  return m;
})();
/** A name right before a phone number (after a dash or in brackets) or an e-mail address in angle brackets. */
const NOT_AFTER = String.raw`(?<!${LETTER}|[\d_'’.@/\\-])`;
const NAME_BEFORE_PHONE_RE = new RegExp(String.raw`${NOT_AFTER}(${NAME_SEQ})[ \t]?(?:[–—-][ \t]?|\()$`);
const NAME_BEFORE_EMAIL_RE = new RegExp(String.raw`${NOT_AFTER}(${NAME_SEQ})[ \t]*<$`);
/** The one-word particles, in lower case as they stand inside a name ("von", "van", "de"). */
const PARTICLE_WORD_SET: ReadonlySet<string> = new Set(PARTICLES.filter((p) => !p.includes(' ') && p === p.toLowerCase()));
/** A line's indent and a mailbox's opening bracket, nothing else. */
const BRACKET_ALONE_RE = /^[ \t]*<$/;

/** The words of a matched name, particles included. */
function wordsOf(name: string): string[] {
  return name.match(WORD_RE) ?? [];
}

/** Office words opening a name after a title ("Presidente", "Primo Ministro"), each with the space after it or the end. */
const OFFICE_WORD = `(?:(?:${wordAlternation([...OFFICE_MODIFIERS])})[ \\t]+)?(?:${wordAlternation([...OFFICES])})`;
const OFFICES_BEFORE_RE = new RegExp(String.raw`^(?:${OFFICE_WORD}(?:[ \t]+|$))+`);

/** Months (and their abbreviations) that are also given names: "Jan Kowalski", "April Jones", "August Müller". */
const MONTHS_THAT_ARE_NAMES: ReadonlySet<string> = new Set(['Jan', 'April', 'May', 'June', 'August']);

/**
 * A name with a stop or place word in it is none: "Hello World", "Hi Team", "Dear Victoria Station"; but a month
 * that is also a given name may open one ("Jan Kowalski – 601 234 567").
 */
function pushContextName(start: number, name: string, out: Candidate[]): void {
  const words = wordsOf(name);
  const stop = (w: string, i: number): boolean => STOP_WORDS.has(w) && !(i === 0 && words.length > 1 && MONTHS_THAT_ARE_NAMES.has(w));
  // A place word names a place ("Victoria Station – 020 …"), unless it is a surname as well ("Sehr geehrter Herr
  // Ward,", "Mr Hall").
  if (words.some((w, i) => stop(w, i) || (PLACE_WORDS.has(w) && !SURNAME_SET.has(w)))) return;
  // A project's or team's mailbox, not a person's: "l10n-Team von Debian <debian-l10n-german@…>", "Debian L10n
  // Spanish <debian-l10n-spanish@…>".
  if (words.some((w) => PLATFORM_NAMES.has(w)) || (words.length === 1 && LANGUAGE_NAMES.has(words[0] as string))) return;
  // A second title before the name is none ("Frau Dr. Schmidt", "From: Dr. Okonjo-Iweala"): the name follows it.
  if (words.every((w) => TITLE_SET.has(w))) return;
  // An office after the title is no name ("Signor Presidente", "Herr Bundeskanzler", "Signor Primo Ministro");
  // the name may follow it ("Herr Professor Schmidt").
  const offices = OFFICES_BEFORE_RE.exec(name)?.[0] ?? '';
  if (offices.trim() === name) return;
  out.push({ type: 'PERSON', start: start + offices.length, end: start + name.length, rank: RANK_CONTEXT });
}

const ONE_LETTER_TITLE_BEFORE_RE = /(?:^|[ \t'’])M\.?[ \t]$/;
const PARTICLE_OPENING_RE = /^[a-z]/;

function findAfterContext(re: RegExp, text: string, out: Candidate[]): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    // A title or greeting starts a word (checked here: a leading \b or lookbehind slows the scan down); one
    // matched with the space before it has its boundary.
    if (m.index > 0 && WORD_CHAR_RE.test(text[m.index] ?? '') && WORD_CHAR_RE.test(text[m.index - 1] ?? '')) continue;
    // The name ends the match: what follows it is only looked at, never consumed.
    const name = m[1] ?? m[2] ?? '';
    // A particle after "M." opens no surname: "M." is an initial there ("M. van Dijk").
    if (ONE_LETTER_TITLE_BEFORE_RE.test(m[0].slice(0, m[0].length - name.length)) && PARTICLE_OPENING_RE.test(name)) continue;
    if (WORLD_WORDS.has(name) || SENTENCE_OPENERS.has(wordsOf(name)[0] ?? '')) continue;
    pushContextName(m.index + m[0].length - name.length, name, out);
  }
}

/**
 * Where the name that starts with the given name at `start` ends: after its surnames ("Siobhan O'Brien", "María
 * García López", "Faina D. Yefremova"), or after the given name alone when `alone` allows ("Why is Katrine so
 * quiet?"); -1 when it is none (a place's name, or a common word not before a known surname).
 */
function nameEnd(text: string, start: number, given: string, plain: boolean, alone: boolean): number {
  let end = start + given.length;
  let surnames = 0;
  let secondGiven = false;
  for (let i = 0; i < 3; i += 1) {
    SURNAME_RE.lastIndex = end;
    const s = SURNAME_RE.exec(text);
    if (s === null) break;
    const word = s[2] ?? '';
    if (PLACE_WORDS.has(word)) return -1;
    if (STOP_WORDS.has(word)) break;
    // A second given name ("Mary Ann Smith") may precede the surname, or be it ("Jan Thomas").
    if (surnames === 0 && i === 0 && (s[1] ?? '') === '' && GIVEN_NAME_SET.has(word)) {
      end = SURNAME_RE.lastIndex;
      secondGiven = true;
      continue;
    }
    if (surnames === 0 && !plain && !SURNAME_SET.has(word)) break;
    end = SURNAME_RE.lastIndex;
    surnames += 1;
    if (surnames === 2) break;
  }
  if (surnames === 0 && !secondGiven && !alone) return -1;
  return followedByPlace(text, end) ? -1 : end;
}

/** Known given names with their surnames, and known surnames alone ("Kaczmarek was influenced by…"). */
function findKnownNames(text: string, context: readonly Candidate[], out: Candidate[]): void {
  CAPITALISED_RE.lastIndex = 0;
  let next = 0; // the first name found after a context that does not end before the current word
  for (let m = CAPITALISED_RE.exec(text); m !== null; m = CAPITALISED_RE.exec(text)) {
    const start = m.index;
    const word = m[0];
    // A word joined to what is before it (checked here rather than as a lookbehind, which made the regex test
    // every position of the text) and the words after it belong to one identifier or path ("/home/sarah/Sarah
    // Jones.txt"); a place prefix and the words after it to a place's name ("San Pablo", "St Thomas").
    if (joinedBefore(text, start) || PLACE_PREFIX_SET.has(word)) {
      CAPITALISED_RE.lastIndex = wordsEnd(text, start + word.length);
      continue;
    }
    while (next < context.length && (context[next]?.end ?? 0) <= start) next += 1;
    if (next < context.length && (context[next]?.start ?? Infinity) <= start) continue;
    if (MONTHS_THAT_ARE_NAMES.has(word)) {
      // A month is a given name only before a known surname ("Jan Kowalski", not "May Day" or "Jan 2024").
      const end = monthNamedPerson(text, start, word);
      if (end > 0) {
        out.push({ type: 'PERSON', start, end, rank: RANK_FORMAT });
        CAPITALISED_RE.lastIndex = end;
      }
      continue;
    }
    if (STOP_WORDS.has(word)) continue;
    const cued = cuedName(text, start);
    if (cued > start) {
      pushContextName(start, text.slice(start, cued), out);
      CAPITALISED_RE.lastIndex = cued;
      continue;
    }
    // "Buongiorno" and "Cara" are names too, but a greeting or sign-off when they open a line.
    if (SALUTATION_WORDS.has(word) && opensLine(text, start)) continue;
    const plain = GIVEN_NAME_SET.has(word);
    const lone = !plain && LONE_SURNAME_SET.has(word);
    if (!plain && !lone && SURNAME_SET.has(word) && sourceCited(text, start, start + word.length)) {
      pushContextName(start, word, out);
      continue;
    }
    if (!plain && !lone && !COMMON_WORD_GIVEN_NAME_SET.has(word)) continue;
    const before = previousWord(text, start);
    // "St Thomas", "Santa Maria": the name after a place prefix is a place's.
    if (before !== undefined && PLACE_PREFIX_SET.has(before)) continue;
    // "Aeropuerto Adolfo Suárez", "Gare Saint-Lazare", "rue Victor Hugo": a place named after a person.
    if (before !== undefined && isPlaceWord(before)) {
      CAPITALISED_RE.lastIndex = wordsEnd(text, start + word.length);
      continue;
    }
    let end = nameEnd(text, start, word, plain, plain && !WORD_LIKE_GIVEN_NAME_SET.has(word));
    if (end < 0 && lone && !followedByPlace(text, start + word.length)) end = start + word.length;
    if (end < 0) continue;
    CAPITALISED_RE.lastIndex = end;
    if (inStreetAddress(text, start, end)) continue;
    // One word alone in code ("{ Adrian }", "(Ahmed.java", "\"Thomas\"") is an identifier or a string's value.
    if (end === start + word.length && inCode(text, start, end)) continue;
    out.push({ type: 'PERSON', start, end, rank: RANK_FORMAT });
  }
}

// "According to" in the seven languages: what follows cites a source, a person or an organisation.
const SOURCE_CUE_BEFORE_RE = /(?:^|[\s("'«„“])(?:[Aa]ccording to|[Vv]olgens|[Ss]elon|[Ss]egún|[Ll]aut|[Ss]econdo|[Ww]edług)\s+$/;

/**
 * A known surname that is also a common word ("Visser", "Bakker", "Koch"), alone right after "according to",
 * cites a person: "Volgens Visser is …", "laut Koch". An organisation there is no known surname.
 */
function sourceCited(text: string, start: number, end: number): boolean {
  if (!SOURCE_CUE_BEFORE_RE.test(text.slice(Math.max(0, start - 16), start))) return false;
  const after = /^\s*(\S)/.exec(text.slice(end, end + 8));
  return after === null || !UPPER_CLASS_RE.test(after[1] as string);
}
const UPPER_CLASS_RE = new RegExp(`^${UPPER_CLASS}$`);

/**
 * Where the name at `start` ends when a field label and its colon ("Name: ", "Kontoinhaber: ") or a phrase that
 * introduces a name ("the account holder is ", "hablé con ") stands right before it; -1 otherwise. The label is
 * the whole field (from the line, sentence, cell or list item's start to the colon), so "Note the account
 * holder: …" or a JSON key is none.
 */
function cuedName(text: string, start: number): number {
  let i = start - 1;
  while (i >= 0 && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i--;
  if (i === start - 1) return -1;
  let cued = false;
  // A key written in lower case, as YAML and code write it ("- name: Analyze", "name: String"): its value names a
  // job, a step or a type unless a list knows one of its words.
  let codeKey = false;
  const sep = text.charCodeAt(i);
  if (sep === 58 /* : */ || sep === 124 /* | */) {
    // "Name: …", or a table's label cell "| Name: | …" / "| Name | …".
    const field = FIELD_START_RE.exec(text.slice(Math.max(0, i - 48), i))?.[1];
    cued = field !== undefined && NAME_LABELS.has(field.trim().replace(/[ \t]*:$/, '').toLowerCase());
    codeKey = cued && sep === 58 && field?.trim() === 'name';
  } else {
    // Most capitalised words follow a word that ends no cue: only that word is looked at before any slice.
    let w = i;
    while (w >= 0 && w > i - 12 && LETTER_BEFORE_RE.test(text.charAt(w))) w--;
    const cues = w < i ? CUES_BY_LAST_WORD.get(text.slice(w + 1, i + 1).toLowerCase()) : undefined;
    if (cues !== undefined) {
      const lower = `${text.slice(Math.max(0, i - 48), i + 1).toLowerCase()} `;
      cued = cues.some((c) => lower.endsWith(`${c} `) && !LETTER_BEFORE_RE.test(lower.charAt(lower.length - c.length - 2)));
    }
  }
  if (!cued) return -1;
  NAME_AT_RE.lastIndex = start;
  if (NAME_AT_RE.exec(text) === null) return -1;
  const end = NAME_AT_RE.lastIndex;
  if (codeKey && !wordsOf(text.slice(start, end)).some(isListedName)) return -1;
  // A package's metadata, as `pip show`, `npm view` or a manifest print it: "Name: Sphinx\nVersion: 1.4.5".
  if (sep === 58 && PACKAGE_VERSION_NEXT_RE.test(text.slice(end, end + 24))) return -1;
  // A phrase introducing a name goes on as a sentence ("I spoke to Anna Nowak in accounts"); a field's value ends.
  return (sep === 58 || sep === 124) && labelValueGoesOn(text, text.slice(start, end), end) ? -1 : end;
}

/** The next line is a version's field: the value before names a package. */
const PACKAGE_VERSION_NEXT_RE = /^[ \t]*\r?\n[ \t]*version[ \t]*:/i;

/** Lower-case words that may follow a name in a field's value: "Anna Nowak i Jan Nowak", "Jan Smit of Piet Smit". */
const NAME_LIST_WORDS: ReadonlySet<string> = new Set(['and', 'or', 'und', 'oder', 'et', 'ou', 'y', 'o', 'e', 'i', 'oraz', 'lub', 'en', 'of', 'u']);
const NEXT_VALUE_WORD_RE = /^[ \t]+([\p{L}][\p{L}\p{N}_]*)/u;
/** A call, generic, literal or path going on: "name: Ok(alias)", "name: Result<&str>", "from: Path::new(". */
const CODE_VALUE_AFTER_RE = /^(?:[(<{[]|::|\.[\p{L}_])/u;

/**
 * Whether the value after a label is code, or runs on past the capitalised words as a phrase: a lower-case word
 * that joins no list of names, an identifier, or any word after one capitalised word no list knows ("- name: Set
 * up JDK 11", "name: Checkout old version", "name: Initialize CodeQL", "- name: Check API compatibility": a CI
 * step's name, not a person's). Set on the agent-text set's dev part.
 */
function labelValueGoesOn(text: string, value: string, end: number): boolean {
  const rest = text.slice(end, end + 40);
  if (CODE_VALUE_AFTER_RE.test(rest)) return true;
  const next = NEXT_VALUE_WORD_RE.exec(rest)?.[1];
  if (next === undefined) return false;
  if (isIdentifierWord(next)) return true;
  if (NAME_LIST_WORDS.has(next) || PARTICLES.includes(next)) return false;
  // One word no list knows before more words: a phrase ("- name: Check API compatibility"), where a name's
  // words all start it ("Name: Anna Kowalska", "Name: Okonkwo").
  if (!/[ \t]/.test(value) && !isListedName(value)) return true;
  return next.charAt(0) !== next.charAt(0).toUpperCase();
}

/**
 * Names that label a contact value found by the other recognizers: "Rhodri Prothero – 07700 900123", "Dervla
 * Mulholland (020 7946 0958)", "Tegan Ogunleye <tegan@example.com>". Any capitalised words there are a name,
 * known or not (but no stop or place word: "Customer Service – 0800 …", "Victoria Station (020 …)").
 */
export function namesBeforeContacts(text: string, found: readonly Candidate[], out: Candidate[]): void {
  for (const c of found) {
    const re = c.type === 'PHONE' ? NAME_BEFORE_PHONE_RE : c.type === 'EMAIL' ? NAME_BEFORE_EMAIL_RE : undefined;
    if (re === undefined) continue;
    let line = text.slice(Math.max(0, c.start - 64), c.start);
    const nl = line.lastIndexOf('\n');
    if (nl >= 0) line = line.slice(nl + 1);
    // Where the line holds no more than the mailbox's bracket, its name ends the line before: a man page's
    // credits ("… und Helge Kreutzmann\n       <debian@…>").
    let lineStart = c.start - line.length;
    if (c.type === 'EMAIL' && BRACKET_ALONE_RE.test(line) && text.charCodeAt(lineStart - 1) === 0x0a) {
      const end = lineStart - 1 - (text.charCodeAt(lineStart - 2) === 0x0d ? 1 : 0);
      const before = text.slice(Math.max(0, end - 64), end);
      line = `${before.slice(before.lastIndexOf('\n') + 1)} <`;
      lineStart = end - (line.length - 2);
    }
    const m = re.exec(line);
    let name = m?.[1];
    if (m === null || name === undefined) continue;
    // The regex starts at the name (its guard is a lookbehind), so the match's index is the name's.
    let nameStart = lineStart + m.index;
    // Three capitalised words whose first is no known given name start with a sentence's first word ("Call
    // Dervla Mulholland (020 …)"): the name is the rest.
    const words = name.split(/[ \t]+/);
    if (words.length >= 3 && !GIVEN_NAME_SET.has(words[0] ?? '') && !COMMON_WORD_GIVEN_NAME_SET.has(words[0] ?? '')) {
      let cut = name.length - name.slice((words[0] ?? '').length).trimStart().length;
      // A particle left opening it before a given name is a preposition: "Copyright von Patrick Schoenfeld <…>".
      if (PARTICLE_WORD_SET.has(words[1] ?? '') && GIVEN_NAME_SET.has(words[2] ?? '')) cut = name.indexOf(words[2] as string, cut);
      nameStart += cut;
      name = name.slice(cut);
    }
    pushContextName(nameStart, name, out);
  }
}

/** Where "Jan Kowalski" ends when `word` (a month that is also a given name) opens a name: before a known surname. */
function monthNamedPerson(text: string, start: number, word: string): number {
  SURNAME_RE.lastIndex = start + word.length;
  const s = SURNAME_RE.exec(text);
  if (s === null || (s[1] ?? '') !== '' || !SURNAME_SET.has(s[2] ?? '')) return -1;
  const end = nameEnd(text, start, word, false, false);
  return end > 0 && !inStreetAddress(text, start, end) ? end : -1;
}

/** "Charles de Gaulle airport", "Evans-Bonilla" (a firm's name or a double-barrelled surname: one cannot tell). */
function followedByPlace(text: string, at: number): boolean {
  if (text[at] === '-') return true;
  NEXT_WORD_RE.lastIndex = at;
  const next = NEXT_WORD_RE.exec(text)?.[1];
  // "via" in lower case after a name is the preposition ("e-mail Taylor Otwell via taylor@…"); Italian writes the
  // street word before the name ("via Garibaldi").
  return next !== undefined && next !== 'via' && isPlaceWord(next);
}

/** A place word as written or capitalised: "Station", "airport", "rue", "Aeropuerto". */
function isPlaceWord(word: string): boolean {
  return PLACE_WORDS.has(word) || PLACE_WORDS.has(`${word.charAt(0).toUpperCase()}${word.slice(1)}`);
}

/** Whether only spaces, tabs or a quoted mail's '>' stand between the line's start and `start`. */
function opensLine(text: string, start: number): boolean {
  for (let i = start - 1; i >= 0 && start - i <= 16; i--) {
    const c = text.charCodeAt(i);
    if (c === 10 /* \n */) return true;
    if (c !== 32 && c !== 9 && c !== 62 /* > */ && c !== 13) return false;
  }
  return start <= 16 && /^[ \t>]*$/.test(text.slice(0, start));
}

/** The word (an abbreviation's full stop dropped) one space before `start`, if any: "St. Thomas" gives "St". */
function previousWord(text: string, start: number): string | undefined {
  return PREVIOUS_WORD_RE.exec(text.slice(Math.max(0, start - 24), start))?.[1];
}

/** Where the capitalised words that follow `at`, one space apart, end. */
function wordsEnd(text: string, at: number): number {
  let end = at;
  for (let i = 0; i < 3; i += 1) {
    SURNAME_RE.lastIndex = end;
    if (SURNAME_RE.exec(text) === null) break;
    end = SURNAME_RE.lastIndex;
  }
  return end;
}

/** A word in code: right after an opening bracket, quote or `=` (a space between allowed), or right before a closing one, a call or a member. */
export function inCode(text: string, start: number, end: number): boolean {
  return CODE_BEFORE_RE.test(text.slice(Math.max(0, start - 2), start)) || CODE_AFTER_RE.test(text.slice(end, end + 2));
}

// Code around a name the tagger found: braces, brackets, `=`, backticks and angle brackets, a space between
// allowed (`import { Thomas, Victoria }`), or a call or member right after. Not parentheses and quotes with a
// space: running text writes "( Simmons 4-38 )" and "\" Hoddle said" in the corpora, and prose "(Smith)".
const TAGGED_CODE_BEFORE_RE = /[{[=`<][ \t]?$/;
const TAGGED_CODE_AFTER_RE = /^(?:[.:][\p{L}_]|[ \t]?[}\]`>=]|\()/u;

function inCodeBrackets(text: string, start: number, end: number): boolean {
  return TAGGED_CODE_BEFORE_RE.test(text.slice(Math.max(0, start - 2), start)) || TAGGED_CODE_AFTER_RE.test(text.slice(end, end + 2));
}

/** Whether `span` starts with a greeting or sign-off ("Thanks Jane", "Liebe Grüße"). */
export function startsWithSalutation(span: string): boolean {
  return SALUTATIONS.some((w) => span === w || span.startsWith(`${w} `));
}

/**
 * At most this many digits after a name the tagger is sure of are a score, a rank or an age ("b Croft 46", "( K.
 * Spiring 52 )"), not a house number; three ("Peter Zuidhove 188") may be either, and stay a house number.
 */
const SCORE_DIGITS = 2;

/**
 * Whether a span another recognizer (the name tagger) calls a person's name is none by this file's rules: in code,
 * in a street address, next to a place word or after a place prefix, joined to the word before it, or a greeting
 * or sign-off opening its line. `sure`: the tagger's margin is high enough for a short number after the name to
 * be a score (SCORE_DIGITS). `markup`: Markdown's or HTML's marks around it ("[Mark Beckwith](…)", "__Matteo
 * Collina__", "<dd>Matt Hickman</dd>") are no code.
 */
export function notAPersonHere(text: string, start: number, end: number, sure = false, markup = false): boolean {
  // Markup's marks around a name are no code (`markup`: a Markdown link's text or emphasis, an HTML element's text).
  if (!markup && (joinedBefore(text, start) || inCodeBrackets(text, start, end))) return true;
  if (followedByPlace(text, end)) return true;
  // A house number after the name at the end of an address line ("Joaquin Suarez 2906.", "03751 Gerrit
  // Achterberghove 137"), or one of three digits or more before it ("159 Eleftheriou Venizelou"), a year aside; not a number the
  // sentence goes on after ("Odkrył ją John Herschel 24 marca 1835"), nor a short one before a name alone
  // (results tables: "68 Steve Stricker", "2. Lombardi").
  if (HOUSE_NUMBER_NOT_YEAR_BEFORE_RE.test(text.slice(Math.max(0, start - 8), start))) return true;
  HOUSE_NUMBER_AFTER_RE.lastIndex = end;
  if (
    HOUSE_NUMBER_AFTER_RE.test(text) &&
    !(sure && HOUSE_NUMBER_AFTER_RE.lastIndex - end <= SCORE_DIGITS + 1) &&
    /^[ \t]?(?:[,.;)\r\n]|$)/.test(text.slice(HOUSE_NUMBER_AFTER_RE.lastIndex, HOUSE_NUMBER_AFTER_RE.lastIndex + 2))
  ) {
    return true;
  }
  const before = previousWord(text, start);
  if (before !== undefined && (PLACE_PREFIX_SET.has(before) || isPlaceWord(before))) return true;
  // A place word, then a particle: the tagger's "Rohan" in "rue de Rohan" (a list match after a particle is
  // left to the list rules: applied to them too, this cost more names than it saved on the real-text rows).
  if (afterPlaceWordAndParticle(text, start)) return true;
  const span = text.slice(start, end);
  if (SALUTATIONS.includes(span)) return true;
  // A place or firm word inside it: "Bertha Inc", "Hall Orchestra", "Russell Investments"; not a surname that is
  // one ("Hall", "Ward", "Church") ending a known given name the tagger is sure is a person's ("Dear Anna Ward,",
  // "Yesterday Anna Hall wrote"; it reads "Albert Hall" and "Carnegie Hall" as places).
  const words = span.split(' ');
  if (words.some((w) => isPlaceWord(w)) && !(sure && knownFullName(words))) return true;
  return opensLine(text, start) && SALUTATIONS.some((w) => span.startsWith(`${w} `));
}

/** A known given name, then a known surname last, no other place word: "Anna Hall", "John Church". */
function knownFullName(words: readonly string[]): boolean {
  const last = words[words.length - 1] as string;
  return words.length > 1 && GIVEN_NAME_SET.has(words[0] as string) && SURNAME_SET.has(last) && words.slice(0, -1).every((w) => !isPlaceWord(w));
}

/** A word (group 1), then one or two particles, right before a name. */
const PLACE_WORD_THEN_PARTICLE_RE = /(\p{L}{2,20})\.?[ \t]+(?:(?:de|du|des|di|del|della|da|la|van|von|der|den|dos)[ \t]+){1,2}$/u;

/** A place word, then a particle, right before `start`: "rue de Rohan", "Plaza de Colón", "via della Spiga" name a street. */
function afterPlaceWordAndParticle(text: string, start: number): boolean {
  const word = PLACE_WORD_THEN_PARTICLE_RE.exec(text.slice(Math.max(0, start - 40), start))?.[1];
  return word !== undefined && isPlaceWord(word);
}

/** A house number right before or after a name makes it a street's: "Rua João Pessoa 1636", "03751 Gerrit Achterberghove". */
function inStreetAddress(text: string, start: number, end: number): boolean {
  HOUSE_NUMBER_AFTER_RE.lastIndex = end;
  if (HOUSE_NUMBER_AFTER_RE.test(text)) return true;
  return HOUSE_NUMBER_BEFORE_RE.test(text.slice(Math.max(0, start - 12), start));
}

function find(text: string, out: Candidate[]): void {
  const context: Candidate[] = [];
  findAfterContext(TITLE_RE, text, context);
  findAfterContext(RUNNING_TEXT_TITLE_RE, text, context);
  findAfterContext(GREETING_RE, text, context);
  findAfterContext(SIGN_OFF_RE, text, context);
  findCredits(text, context);
  // The known-name scan skips the words of names already found after a title, greeting or sign-off.
  context.sort((a, b) => a.start - b.start);
  findKnownNames(text, context, out);
  for (const c of context) out.push(c);
}

export const personRecognizer: Recognizer = { name: 'person', find };
