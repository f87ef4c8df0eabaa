import { LETTER_CLASS, LETTERS, SMALL_CLASS, UPPER_CLASS } from '../latin-letters.js';
import { RANK_FORMAT, type Candidate } from '../recognizer.js';
import { COMMON_WORD_GIVEN_NAME_SET, GIVEN_NAME_SET } from '../recognizers/person-words.js';
import { bothInitialCases, wordAlternation } from '../word-alternation.js';

// A company named after its founder ("le groupe Renault", "Barilla S.p.A.", "Ford Motor Company") or a work named
// after its hero ("the novel Frankenstein") is not that person. Where a text of the request marks a word so, the
// word alone is no person anywhere in the request ("La Renault Clio se vend bien", "Frankenstein is still read"),
// nor a name the tagger opens with it; a full name opening on a given name ("Louis Renault") and a name a title,
// greeting or label marks ("Herr Siemens") stay people.

/**
 * Nouns for works and organisations, before the capitalised word they name ("the novel Frankenstein", "der Roman
 * Effi", "il gruppo Barilla", "der Konzern Siemens", "stacja Orlen"). Not the English ones that are also verbs
 * ("book", "store", "label", "group": "book Anna a room" names her), nor films, whose makers follow the noun in a
 * relative clause ("the film Spielberg shows"; "the novel Dickens wrote" is the same risk, taken for novels).
 */
const MARKING_NOUNS = `
novel novella opera musical album sitcom newspaper magazine company firm corporation
roman livre pièce chanson journal magazine groupe société entreprise compagnie marque enseigne
novela libro canción periódico revista grupo empresa compañía sociedad marca
romanzo libro canzone giornale rivista gruppo azienda società marchio
roman boek lied krant tijdschrift concern bedrijf groep merk
koncern koncernu spółka spółki stacja stacji
`
  .split(/\s+/)
  .filter((w) => w !== '');
/**
 * German nouns, capitalised as German writes them (lower-case "firma" is Spanish and Italian for a signature).
 * Not Polish works or firms in general: a name after one is its owner, in the genitive ("książka Lessiga", "firma
 * Kowalskiego").
 */
const GERMAN_MARKING_NOUNS = 'Roman Buch Theaterstück Lied Oper Zeitung Zeitschrift Konzern Firma Unternehmen Gruppe Marke Hersteller'.split(' ');

/**
 * Legal forms and group words after a firm's name, with up to two more capitalised words between ("Barilla
 * S.p.A.", "Siemens AG", "Ford Motor Company", "Mapfre S.A.", "Orlen Group", "PKN Orlen Sp. z o.o.").
 */
const MARKING_SUFFIXES = `S.A. SA S.A.S. SAS SARL S.L. S.p.A. SpA S.r.l. Srl AG GmbH KGaA SE N.V. NV B.V. BV Inc. Inc Ltd Ltd. Limited
plc PLC LLC Corp. Corp Corporation Company Holding Holdings Group Gruppe Groupe Grupo Gruppo Groep Grupa`
  .split(/\s+/)
  .filter((w) => w !== '');

/** A capitalised word (Latin letters: no u flag, as person.ts writes its scans for speed). */
const WORD = `${UPPER_CLASS}${SMALL_CLASS}+(?:['’-]${UPPER_CLASS}?${SMALL_CLASS}+)?`;
// Opening on the space, bracket or quote before the noun: on prose twice as fast as opening on the noun (350 vs
// 140-180 MB/s), which V8 tries at every letter that starts one. (Curly quotes in that class halve the gain.)
const NOUNS = wordAlternation([...bothInitialCases(MARKING_NOUNS), ...GERMAN_MARKING_NOUNS]);
const NOUN_BEFORE_RE = new RegExp(`[ \\t\\n("]${NOUNS}[ \\t]+["“«„]?[ \\t]?(${WORD})(?!${LETTER_CLASS})`, 'g');
const SUFFIX_AFTER_RE = new RegExp(`[ \\t](?:${wordAlternation(MARKING_SUFFIXES)}|Sp\\. z o\\.o\\.)(?!${LETTER_CLASS}|\\.${LETTER_CLASS})`, 'g');
/** An article right before a word. */
const ARTICLE_BEFORE_RE = /(?:^|[^\p{L}])(?:the|a|an|der|die|das|den|dem|des|ein|eine|einen|einem|eines|le|la|un|une|el|il|lo|uno|het|de|een)[ \t]+$/u;
/** Up to three capitalised words, one space apart, ending the text before a suffix, a comma or not ("Galois, Inc"). */
const WORDS_BEFORE_SUFFIX_RE = new RegExp(`((?:${WORD}[ \\t]){0,2}${WORD}),?$`);

/** The words `text` marks as an organisation's or a work's name. */
export function markedWords(text: string): Set<string> {
  const out = new Set<string>();
  // A space before the text lets a noun opening it match too ("Groupe Renault recrute").
  const spaced = ` ${text}`;
  NOUN_BEFORE_RE.lastIndex = 0;
  for (let m = NOUN_BEFORE_RE.exec(spaced); m !== null; m = NOUN_BEFORE_RE.exec(spaced)) {
    // A noun that is also a given name ("Roman Polanski") marks only after an article ("der Roman Effi").
    const noun = m[0].slice(1, m[0].slice(1).search(/[ \t]/) + 1);
    if ((GIVEN_NAME_SET.has(noun) || COMMON_WORD_GIVEN_NAME_SET.has(noun)) && !ARTICLE_BEFORE_RE.test(spaced.slice(Math.max(0, m.index - 8), m.index + 1))) continue;
    out.add(m[1] as string);
  }
  SUFFIX_AFTER_RE.lastIndex = 0;
  for (let m = SUFFIX_AFTER_RE.exec(text); m !== null; m = SUFFIX_AFTER_RE.exec(text)) {
    const words = WORDS_BEFORE_SUFFIX_RE.exec(text.slice(Math.max(0, m.index - 64), m.index))?.[1];
    if (words !== undefined) for (const w of words.split(/[ \t]/)) out.add(w);
  }
  return out;
}

/** The first word of a name, up to a space. */
function firstWord(name: string): string {
  const space = name.search(/\s/);
  return space === -1 ? name : name.slice(0, space);
}

/** Whether a PERSON candidate could be a marked word's firm or work: the tagger's or a list's, opening on no given name. */
export function mayBeMarked(text: string, c: Candidate): boolean {
  return c.type === 'PERSON' && c.rank <= RANK_FORMAT && !GIVEN_NAME_SET.has(firstWord(text.slice(c.start, c.end)));
}

/** The capitalised word right before a position, one space or tab apart. */
const MARKED_BEFORE_RE = new RegExp(`(?:^|[^${LETTERS}])(${WORD})[ \\t]$`);

/**
 * Whether a rule's or the tagger's PERSON candidate follows a marked word right after it: a firm's model or brand
 * ("La Renault Clio", "Barilla Integrale"), however the tagger split it, and whatever the name lists say of the
 * word ("Clio" is also a given name).
 */
function afterMarked(text: string, c: Candidate, marked: ReadonlySet<string>): boolean {
  const before = capitalisedBefore(text, c);
  return before !== undefined && marked.has(before);
}

/** The capitalised word right before a rule's or the tagger's PERSON candidate, if any. */
function capitalisedBefore(text: string, c: Candidate): string | undefined {
  if (c.type !== 'PERSON' || c.rank > RANK_FORMAT) return undefined;
  return MARKED_BEFORE_RE.exec(text.slice(Math.max(0, c.start - 40), c.start))?.[1];
}

/** Whether a candidate could be dropped by a marked word: it may be the firm or work, or follow its name. */
export function mayFollowOrBeMarked(text: string, c: Candidate): boolean {
  return mayBeMarked(text, c) || capitalisedBefore(text, c) !== undefined;
}

/**
 * `candidates` without the PERSON ones (mayBeMarked) whose first word `marked` holds ("Renault", "Renault Clio"),
 * nor those right after such a word (afterMarked: "Clio" where the tagger read "Renault" apart).
 */
export function withoutMarked(text: string, candidates: readonly Candidate[], marked: ReadonlySet<string>): Candidate[] {
  if (marked.size === 0) return candidates.slice();
  return candidates.filter((c) => !(mayBeMarked(text, c) && marked.has(firstWord(text.slice(c.start, c.end)))) && !afterMarked(text, c, marked));
}
