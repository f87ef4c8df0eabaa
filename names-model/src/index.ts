export { chosenSources, loadSplits, scoreTagger, trainNames } from './train-names.js';
export type { CorpusSplits, HeldOutSet, TrainOptions, TrainResult } from './train-names.js';
export { locateCorpusFiles, readManifest, sha256OfFile } from './manifest.js';
export type { CorpusFile, CorpusSource, DataManifest } from './manifest.js';
export { parseCorpus } from './read-corpus.js';
export type { LabelledSentence } from './read-corpus.js';
export { addScore, emptyScore, f1, mergeScores, precision, recall, sentenceText, tagSpans } from './score-names.js';
export type { NameScore, Span } from './score-names.js';
export { splitOf } from './split.js';
