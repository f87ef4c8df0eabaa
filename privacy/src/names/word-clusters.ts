/**
 * Word clusters the tagger looks words up in: words that stand in the same company share a cluster. Two sets,
 * under one table of word hashes so a word costs one lookup: the clusters names-model/ learns from the training
 * text (in-domain company), and, when the model has them, "wide" clusters learnt from large unlabelled text per
 * language (names-model/clusters/: coverage of words the training text never holds). The model file carries both.
 *
 * Wide clusters also carry two language-independent grades, so a language with no labelled text of its own
 * (Spanish, Italian) still gains from its clusters: a word's capitalisation grade (how often the text writes it
 * capitalised mid sentence rather than in lower case) and a cluster's name grade (how many of its words the
 * house's given-name and surname lists hold).
 */
export interface WordClusters {
  /** fnv1a of each clustered word (case kept), ascending. */
  readonly keys: Uint32Array;
  /** keys[i]'s fine cluster from the training text, or NO_CLUSTER. */
  readonly fine: Uint16Array;
  /** Each fine cluster's coarse group. */
  readonly coarseOf: Uint8Array;
  readonly fineCount: number;
  /** keys[i]'s wide cluster, or NO_CLUSTER; empty when the model has no wide clusters. */
  readonly wideFine: Uint16Array;
  /** Each wide cluster's coarse group. */
  readonly wideCoarseOf: Uint8Array;
  readonly wideCount: number;
  /** keys[i]'s capitalisation grade (< CAP_GRADES; 0 without a wide cluster). */
  readonly wordClass: Uint8Array;
  /** Each wide cluster's name grade (< NAME_GRADES). */
  readonly clusterClass: Uint8Array;
}

/** Most clusters a set may have: their number + 1 is a u16 feature value, and 0xffff marks a boundary. */
export const MAX_FINE = 0xfffe;
/** A word with no cluster in one of the two sets (it has one in the other). */
export const NO_CLUSTER = 0xffff;
/** Capitalisation grades: 0 lower-case word, 1 capitalised only at sentence starts, 2-6 mid-sentence capital share. */
export const CAP_GRADES = 7;
/** Name grades: given-name share (0-3) × 4 + surname share (0-3). */
export const NAME_GRADES = 16;

export const NO_CLUSTERS: WordClusters = {
  keys: new Uint32Array(0),
  fine: new Uint16Array(0),
  coarseOf: new Uint8Array(0),
  fineCount: 0,
  wideFine: new Uint16Array(0),
  wideCoarseOf: new Uint8Array(0),
  wideCount: 0,
  wordClass: new Uint8Array(0),
  clusterClass: new Uint8Array(0),
};

/** The index in `keys` of the word whose fnv1a is `key`, or -1: the one lookup a word costs. */
export function clusterIndexOf(clusters: WordClusters, key: number): number {
  const keys = clusters.keys;
  let lo = 0;
  let hi = keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const k = keys[mid] as number;
    if (k === key) return mid;
    if (k < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The training-text fine cluster + 1 of the word at index `at` (clusterIndexOf), or 0 for none. */
export function fineAt(clusters: WordClusters, at: number): number {
  const f = at === -1 ? NO_CLUSTER : (clusters.fine[at] as number);
  return f === NO_CLUSTER ? 0 : f + 1;
}

/** The wide cluster + 1 of the word at index `at`, or 0 for none. */
export function wideAt(clusters: WordClusters, at: number): number {
  const f = at === -1 || clusters.wideCount === 0 ? NO_CLUSTER : (clusters.wideFine[at] as number);
  return f === NO_CLUSTER ? 0 : f + 1;
}

/** The training-text fine cluster + 1 of the word whose fnv1a is `key`, or 0 for a word with none. */
export function fineClusterOf(clusters: WordClusters, key: number): number {
  return fineAt(clusters, clusterIndexOf(clusters, key));
}

/** The coarse group + 1 of a fine cluster + 1 (0 stays 0). */
export function coarseClusterOf(clusters: WordClusters, fine: number): number {
  return fine === 0 ? 0 : (clusters.coarseOf[fine - 1] as number) + 1;
}

/** Whether the model has wide clusters (one built before them does not, and scores without their features). */
export function hasWide(clusters: WordClusters): boolean {
  return clusters.wideCount > 0;
}
