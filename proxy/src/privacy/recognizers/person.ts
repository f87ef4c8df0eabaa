import { RANK_CONTEXT, RANK_FORMAT } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';
import { bothInitialCases, wordAlternation } from '../word-alternation.js';
import { GIVEN_NAME_SET, GREETINGS, PARTICLES, PLACE_PREFIXES, PLACE_WORDS, SIGN_OFFS, STOP_WORDS, TITLES } from './person-words.js';

// People's names, found four ways, most certain first:
//  - after a title in any of the seven languages ("Dr O'Brien", "Frau Schröder", "Sig.ra Bianchi", "Pani Nowak");
//  - after a greeting, up to a comma or the line's end ("Hi Siobhan,", "Liebe Grüße" is a sign-off, below);
//  - on the line after a sign-off ("Kind regards,\nAoife Murphy");
//  - a known given name followed by a capitalised surname ("Siobhan O'Brien", "Jakub van der Berg").
// The span is the name only: a title stays readable ("Dr [REDACTED_PERSON]"). A name right before a place word
// ("Victoria Station", "Elizabeth Line") or after a place prefix ("St Thomas") is a place's, not a person's.
// Given names that are also common words ("Will", "Grace", "Max") count only after a title or a greeting.
// Every quantifier is bounded; the given-name scan visits each capitalised word once.

// Latin-script letter ranges rather than \p{Lu}/\p{Ll}: the seven languages are written in it, and without the
// u flag V8 scans these regexes several times faster (CAPITALISED_RE alone: 66 → 720 MB/s).
const UPPER = '[A-ZÀ-ÖØ-ÞĀ-Ž]';
const LOWER = "[a-zß-öø-ÿā-ž'’]";
const LETTER = '[A-Za-zÀ-ÖØ-öø-ÿĀ-ž]';
const NAME_WORD = `(?:O['’]|Mc|D['’])?${UPPER}${LOWER}{1,24}(?:-${UPPER}${LOWER}{1,24})?`;
const PARTICLE = `(?:${PARTICLES.join('|')})`;
/** A particle that starts a surname written alone, as after a title: "Van der Berg", "De Vries", "Di Stefano". */
const LEADING_PARTICLE = `(?:${PARTICLES.map((p) => `${p[0]?.toUpperCase() ?? ''}${p.slice(1)}`).join('|')})`;
const NAME_SEQ = String.raw`(?:${LEADING_PARTICLE}[ \t])?${NAME_WORD}(?:[ \t](?:${PARTICLE}[ \t])?${NAME_WORD}){0,2}`;
const TITLE = `${wordAlternation(TITLES)}\\.?`;

const TITLE_RE = new RegExp(String.raw`${TITLE}[ \t](${NAME_SEQ})(?!${LETTER}|[\d_])`, 'g');
const GREETING_RE = new RegExp(
  String.raw`${wordAlternation(bothInitialCases(GREETINGS))}[ \t]+(?:${TITLE}[ \t])?(${NAME_SEQ})(?=[ \t]*(?:[,!:\r\n]|$))`,
  'g',
);
const SIGN_OFF_RE = new RegExp(
  String.raw`${wordAlternation(bothInitialCases(SIGN_OFFS))}[ \t]*[,!.]?[ \t]*\r?\n[ \t]*(${NAME_SEQ})(?=[ \t]*(?:\r?\n|,|$))`,
  'g',
);
const CAPITALISED_RE = new RegExp(`${UPPER}[a-zß-öø-ÿā-ž]{1,20}(?!${LETTER}|[\\d_'’])`, 'g');
/** A letter, digit or underscore: a title or greeting right after one is inside another word. */
const WORD_CHAR_RE = new RegExp(`${LETTER}|[\\d_]`);
/** What may not stand right before a given name: a letter (the word goes on), or a sign of an identifier or path. */
const JOINED_BEFORE_RE = new RegExp(`${LETTER}|[\\d_'’./@#$\\\\-]`);
/** One surname word after a given name, with its particle: sticky, tried right after the given name. */
const SURNAME_RE = new RegExp(String.raw`[ \t]((?:${PARTICLE}[ \t])?)(${NAME_WORD})(?!${LETTER}|[\d_])`, 'y');
const PLACE_PREFIX_RE = new RegExp(String.raw`(?:^|[^\p{L}])${wordAlternation(PLACE_PREFIXES)}[ \t]$`, 'u');
const WORD_RE = /[\p{L}'’-]+/gu;

/** The words of a matched name, particles included. */
function wordsOf(name: string): string[] {
  return name.match(WORD_RE) ?? [];
}

/** A name with a stop or place word in it is none: "Hello World", "Hi Team", "Dear Victoria Station". */
function pushContextName(start: number, name: string, out: Candidate[]): void {
  const words = wordsOf(name);
  if (words.some((w) => STOP_WORDS.has(w) || PLACE_WORDS.has(w))) return;
  out.push({ type: 'PERSON', start, end: start + name.length, rank: RANK_CONTEXT });
}

function findAfterContext(re: RegExp, text: string, out: Candidate[]): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    // A title or greeting starts a word (checked here: a leading \b or lookbehind slows the scan down).
    if (m.index > 0 && WORD_CHAR_RE.test(text[m.index - 1] ?? '')) continue;
    // The name ends the match: what follows it is only looked at, never consumed.
    const name = m[1] ?? '';
    pushContextName(m.index + m[0].length - name.length, name, out);
  }
}

/** Known given name + surname (+ a second surname): "Siobhan O'Brien", "María García López". */
function findGivenNames(text: string, out: Candidate[]): void {
  CAPITALISED_RE.lastIndex = 0;
  for (let m = CAPITALISED_RE.exec(text); m !== null; m = CAPITALISED_RE.exec(text)) {
    const start = m.index;
    // Checked here rather than as a lookbehind, which made the regex test every position of the text.
    if (start > 0 && JOINED_BEFORE_RE.test(text[start - 1] ?? '')) continue;
    if (!GIVEN_NAME_SET.has(m[0])) continue;
    if (PLACE_PREFIX_RE.test(text.slice(Math.max(0, start - 8), start))) continue;
    let end = start + m[0].length;
    let surnames = 0;
    let place = false;
    for (let i = 0; i < 3; i += 1) {
      SURNAME_RE.lastIndex = end;
      const s = SURNAME_RE.exec(text);
      if (s === null) break;
      const word = s[2] ?? '';
      if (PLACE_WORDS.has(word)) place = true;
      if (place || STOP_WORDS.has(word)) break;
      // A second given name ("Mary Ann Smith", "Jean Pierre") may precede the surname; at most two surnames.
      if (surnames === 0 && i === 0 && (s[1] ?? '') === '' && GIVEN_NAME_SET.has(word)) {
        end = SURNAME_RE.lastIndex;
        continue;
      }
      end = SURNAME_RE.lastIndex;
      surnames += 1;
      if (surnames === 2) break;
    }
    if (place || surnames === 0) continue;
    out.push({ type: 'PERSON', start, end, rank: RANK_FORMAT });
    CAPITALISED_RE.lastIndex = end;
  }
}

function find(text: string, out: Candidate[]): void {
  findAfterContext(TITLE_RE, text, out);
  findAfterContext(GREETING_RE, text, out);
  findAfterContext(SIGN_OFF_RE, text, out);
  findGivenNames(text, out);
}

export const personRecognizer: Recognizer = { name: 'person', find };
