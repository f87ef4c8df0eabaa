import { fnv1a } from '@gateway/privacy/internals';
import type { CorpusFile } from './manifest.js';

export type SplitPart = 'train' | 'dev' | 'heldout';

/**
 * Which part a sentence belongs to, fixed by the seed, the file and the sentence's index: 10% of every train
 * file is held out for the real-text report (never trained or tuned on), 5% joins the dev set; a published dev
 * split is all dev, or all held out when the manifest keeps it for the report alone. Public test splits are not
 * in the manifest at all.
 */
export function splitOf(seed: number, file: CorpusFile, index: number): SplitPart {
  if (file.role === 'dev') return 'dev';
  if (file.role === 'report') return 'heldout';
  const h = fnv1a(`${seed}:${file.local}:${index}`) % 100;
  return h < 10 ? 'heldout' : h < 15 ? 'dev' : 'train';
}

/** Whether sentence `index` survives the file's subsample cap (`keep` of `total`), chosen by hash, not order. */
export function inSubsample(seed: number, file: CorpusFile, index: number, total: number): boolean {
  const cap = file.maxSentences;
  if (cap === undefined || total <= cap) return true;
  return fnv1a(`sub:${seed}:${file.local}:${index}`) % total < cap;
}
