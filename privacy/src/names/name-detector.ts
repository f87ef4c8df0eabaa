import { loadNameModel } from './load-name-model.js';
import type { NameModel } from './name-model.js';
import { wordInfo } from './name-features.js';
import { personGoesOnMargin, quantisedScorer, tagNames, type TagScorer, type TaggedSpan } from './name-tagger.js';

// The tagger this process (or detector thread) uses. The proxy installs the model it checked at start; anything
// else that runs the detector (tests, eval, benches) gets the shipped model, checked the same way, on first use.
let scorer: TagScorer | undefined;

export function useNameModel(model: NameModel): void {
  scorer = quantisedScorer(model);
}

/** Names the tagger finds in `text`: people, and the places and organisations that veto list matches. */
export function findTaggedNames(text: string): TaggedSpan[] {
  if (scorer === undefined) useNameModel(loadNameModel());
  return tagNames(scorer as TagScorer, text);
}

/** Whether the model's lexicon holds `word` lower-cased: a word the training text writes in lower case ("Dan", "Elke"). */
export function isCommonWord(word: string): boolean {
  if (scorer === undefined) useNameModel(loadNameModel());
  return wordInfo(word, (scorer as TagScorer).lexicon).common === 1;
}

/**
 * How surely the tagger reads the second word of `sentence` (text opening a sentence) as the surname of a person
 * its first word names (name-tagger.ts personGoesOnMargin).
 */
export function personGoesOn(sentence: string): number {
  if (scorer === undefined) useNameModel(loadNameModel());
  return personGoesOnMargin(scorer as TagScorer, sentence);
}
