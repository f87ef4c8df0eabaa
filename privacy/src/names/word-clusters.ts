/**
 * Word clusters the trainer learnt from its text (names-model/src/word-clusters.ts): words that stand in the same
 * company share a cluster. Kept as sorted word hashes with each one's fine cluster, and each fine cluster's coarse
 * group; the model file carries them.
 */
export interface WordClusters {
  /** fnv1a of each clustered word (case kept), ascending. */
  readonly keys: Uint32Array;
  /** keys[i]'s fine cluster. */
  readonly fine: Uint16Array;
  /** Each fine cluster's coarse group. */
  readonly coarseOf: Uint8Array;
  readonly fineCount: number;
}

/** Most fine clusters a model may have: their number + 1 is a u16 feature value, and 0xffff marks a boundary. */
export const MAX_FINE = 0xfffe;

export const NO_CLUSTERS: WordClusters = { keys: new Uint32Array(0), fine: new Uint16Array(0), coarseOf: new Uint8Array(0), fineCount: 0 };

/** The fine cluster + 1 of the word whose fnv1a is `key`, or 0 for a word with none. */
export function fineClusterOf(clusters: WordClusters, key: number): number {
  const keys = clusters.keys;
  let lo = 0;
  let hi = keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const k = keys[mid] as number;
    if (k === key) return (clusters.fine[mid] as number) + 1;
    if (k < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}

/** The coarse group + 1 of a fine cluster + 1 (0 stays 0). */
export function coarseClusterOf(clusters: WordClusters, fine: number): number {
  return fine === 0 ? 0 : (clusters.coarseOf[fine - 1] as number) + 1;
}
