import { COMMON_WORD_GIVEN_NAME_SET } from '../recognizers/person-words.js';

// A given name that is also a verb ("Mark", "Sue", "Bill") opening a sentence before its object is the verb in the
// imperative ("Mark the ticket as done"); where the text writes it so, the same word before an object elsewhere
// in it is the verb too ("… and Mark every item"), however sure the tagger is of a person there (one retrain:
// 36.4; the shipped model reads "and Sue every agent" at 33.2). A list of determiners, not the model: it holds
// for any training draw. English determiners only, and not "a" or "an": "Albert a répondu" (French "has").

const DETERMINERS = 'the|every|each|all|any|some|this|these|those|your|our|its|their|both';
/** A determiner, then a word in lower case: an object ("every item"), not an epithet ("the Great"). */
const OBJECT_AFTER_RE = new RegExp(`^[ \\t]+(?:${DETERMINERS})[ \\t]+\\p{Ll}`, 'u');
/** What stands before a sentence's first word: a closing mark or a line break, maybe a quote or a bullet. */
const SENTENCE_BEFORE_RE = /[.!?\n]["”»)]?[ \t>*-]*$/u;

function objectAfter(text: string, end: number): boolean {
  return OBJECT_AFTER_RE.test(text.slice(end, end + 24));
}

/** Whether `at` is a sentence's first word: after a closing mark or a line break, maybe a quote or a bullet. */
export function opensSentence(text: string, at: number): boolean {
  return SENTENCE_BEFORE_RE.test(`${at <= 8 ? '\n' : ''}${text.slice(Math.max(0, at - 8), at)}`);
}

/** Whether the word at [start, end) is a given name that the text uses as a verb in the imperative, before an object. */
export function imperativeVerb(text: string, start: number, end: number): boolean {
  const word = text.slice(start, end);
  if (!COMMON_WORD_GIVEN_NAME_SET.has(word) || !objectAfter(text, end)) return false;
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    if (opensSentence(text, at) && objectAfter(text, at + word.length)) return true;
  }
  return false;
}
