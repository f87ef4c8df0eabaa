// Not for the proxy. What the model builder (names-model/: training, tuning, loss reports) and the PII evaluation
// must share with the engine bit for bit: the tagger's tokens, features, model format and scorer, the rules around
// it, and the word lists the evaluation writes its generated text from. Listed one by one, so a change to any of
// these is a change to a named surface.
export { digitWindows } from './digit-windows.js';
export type { Candidate } from './recognizer.js';
export { notAPersonHere } from './recognizers/person.js';
export {
  COMMON_WORD_GIVEN_NAME_SET,
  GIVEN_NAME_SET,
  LONE_SURNAME_SET,
  PRODUCT_NAMES,
  STOP_WORDS,
  SURNAME_SET,
  TITLE_SET,
} from './recognizers/person-words.js';
export type { NameLexicon, WordInfo } from './names/name-features.js';
export {
  addToLexicon,
  fnv1a,
  isScorable,
  LEXICON_BITS,
  MAX_FEATURES,
  NAME_TAGS,
  NameFeatureContext,
  wordInfo,
  TAG_COUNT,
  TAG_O,
} from './names/name-features.js';
export { decodeNameModel, encodeNameModel, sha256Hex } from './names/name-model.js';
export type { TagScorer } from './names/name-tagger.js';
export { addWeights, quantisedScorer, tagNames, tagWords } from './names/name-tagger.js';
export { tokeniseForNames } from './names/name-tokens.js';
export { addTaggedNames } from './names/tagged-names.js';
export { surnamesMentioned } from './names/later-mentions.js';
export { CAP_GRADES, clusterIndexOf, coarseClusterOf, fineAt, fineClusterOf, hasWide, MAX_FINE, NAME_GRADES, NO_CLUSTER, NO_CLUSTERS, wideAt } from './names/word-clusters.js';
export type { WordClusters } from './names/word-clusters.js';
export { addToLexiconSet, emptyLexiconSet, lexiconMask, MAX_LEXICON_SETS } from './names/lexicon-sets.js';
export type { LexiconSet } from './names/lexicon-sets.js';
export type { DetectorMargins } from './names/detector-margins.js';
export { margins, SHIPPED_MARGINS, useDetectorMargins } from './names/detector-margins.js';
export { isSoftwareToken, registersOfText, registersOfWords } from './names/text-register.js';
