import { fnv1a } from '@gateway/privacy/internals';
import { MAX_FINE, NO_CLUSTERS, type WordClusters } from '@gateway/privacy/internals';
import { seededRandom } from './perceptron.js';

// Word clusters for the tagger: words that stand in the same company ("said Kowalski", "said Müller") land in
// one cluster, so a name seen once in training, or a verb the model never saw beside a name, borrows the weights
// its cluster earned. The classic lift for linear NER taggers (Ratinov and Roth 2009); here spherical k-means
// over each word's neighbours (positive PMI, left and right apart), then the fine clusters grouped into coarse
// ones. Built from the train part's text only, deterministic for a seed.

export interface ClusterOptions {
  readonly seed: number;
  /** Fine clusters (≤ 65534) and the coarse groups they fall into (≤ 255). */
  readonly fine: number;
  readonly coarse: number;
  /** Words seen fewer times have no cluster. */
  readonly minCount: number;
  /** The most frequent words, each a context dimension on either side; rarer neighbours count by their shape. */
  readonly contextWords: number;
  readonly iterations: number;
  /**
   * Each word's strongest context dimensions kept (by PMI), the rest dropped before clustering; 0 keeps all. Large
   * text (ten million words and more) gives frequent words thousands of contexts each, and k-means' cost grows with
   * them; the strongest few carry the company a word keeps.
   */
  readonly rowTop?: number;
}

export const DEFAULT_CLUSTER_OPTIONS: ClusterOptions = { seed: 1, fine: 256, coarse: 32, minCount: 3, contextWords: 1000, iterations: 12 };

/** Rare neighbours: capitalised, lower-case, with a digit, anything else. */
const SHAPE_DIMS = 4;
const BOUNDARY = 0;

function shapeDim(w: string): number {
  const c = w.charAt(0);
  if (/\d/.test(w)) return 2;
  if (c !== c.toLowerCase()) return 0;
  if (c !== c.toUpperCase()) return 1;
  return 3;
}

interface SparseRows {
  readonly offsets: Uint32Array;
  readonly dims: Uint32Array;
  readonly values: Float32Array;
}

/** The vocabulary: words seen at least minCount times, most frequent first (ties by code unit order). */
function vocabulary(sentences: readonly (readonly string[])[], minCount: number): { words: string[]; counts: Uint32Array } {
  const counts = new Map<string, number>();
  for (const s of sentences) for (const w of s) counts.set(w, (counts.get(w) ?? 0) + 1);
  const words = [...counts.keys()].filter((w) => (counts.get(w) as number) >= minCount);
  words.sort((a, b) => (counts.get(b) as number) - (counts.get(a) as number) || (a < b ? -1 : a > b ? 1 : 0));
  return { words, counts: Uint32Array.from(words, (w) => counts.get(w) as number) };
}

/**
 * Each vocabulary word's neighbour counts as positive PMI, rows L2-normalised. A context's probability sums its
 * pair counts raised to 0.75, which damps the contexts every word has (a full stop, "the").
 */
function contextRows(sentences: readonly (readonly string[])[], words: readonly string[], contextWords: number, rowTop: number): SparseRows {
  const index = new Map<string, number>();
  words.forEach((w, i) => index.set(w, i));
  const topCount = Math.min(contextWords, words.length);
  // One side's dimensions: the boundary, the rare shapes, then the top words.
  const side = 1 + SHAPE_DIMS + topCount;
  const dimOf = (w: string | undefined): number => {
    if (w === undefined) return BOUNDARY;
    const i = index.get(w);
    return i !== undefined && i < topCount ? 1 + SHAPE_DIMS + i : 1 + shapeDim(w);
  };
  const keys: number[] = [];
  for (const s of sentences) {
    for (let i = 0; i < s.length; i++) {
      const row = index.get(s[i] as string);
      if (row === undefined) continue;
      keys.push(row * 2 * side + dimOf(s[i - 1]), row * 2 * side + side + dimOf(s[i + 1]));
    }
  }
  const sorted = Float64Array.from(keys).sort();
  // Run lengths → counts per (row, dim); totals per row and per dim for PMI.
  const rowOf: number[] = [];
  const dimList: number[] = [];
  const countList: number[] = [];
  for (let k = 0; k < sorted.length; ) {
    const key = sorted[k] as number;
    let n = 0;
    while (k < sorted.length && sorted[k] === key) {
      n += 1;
      k += 1;
    }
    rowOf.push(Math.floor(key / (2 * side)));
    dimList.push(key % (2 * side));
    countList.push(n);
  }
  const rowTotal = new Float64Array(words.length);
  const dimTotal = new Float64Array(2 * side);
  for (let k = 0; k < countList.length; k++) {
    rowTotal[rowOf[k] as number] += countList[k] as number;
    dimTotal[dimList[k] as number] += (countList[k] as number) ** 0.75;
  }
  let total = 0;
  let dimSum = 0;
  for (const t of rowTotal) total += t;
  for (const t of dimTotal) dimSum += t;
  const offsets = new Uint32Array(words.length + 1);
  const dims: number[] = [];
  const values: number[] = [];
  let k = 0;
  for (let r = 0; r < words.length; r++) {
    offsets[r] = dims.length;
    const from = dims.length;
    for (; k < rowOf.length && rowOf[k] === r; k++) {
      const pmi = Math.log(((countList[k] as number) / total) / (((rowTotal[r] as number) / total) * ((dimTotal[dimList[k] as number] as number) / dimSum)));
      if (pmi <= 0) continue;
      dims.push(dimList[k] as number);
      values.push(pmi);
    }
    if (rowTop > 0 && values.length - from > rowTop) keepStrongest(dims, values, from, rowTop);
    let norm = 0;
    for (let j = from; j < values.length; j++) norm += (values[j] as number) ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let j = from; j < values.length; j++) values[j] = (values[j] as number) / norm;
  }
  offsets[words.length] = dims.length;
  return { offsets, dims: Uint32Array.from(dims), values: Float32Array.from(values) };
}

/** Keeps the `top` largest values of dims/values from `from` on (in dimension order), dropping the rest in place. */
function keepStrongest(dims: number[], values: number[], from: number, top: number): void {
  const order = [];
  for (let j = from; j < values.length; j++) order.push(j);
  // Ties by dimension, so the kept set never depends on the sort's stability.
  order.sort((a, b) => (values[b] as number) - (values[a] as number) || (dims[a] as number) - (dims[b] as number));
  const kept = order.slice(0, top).sort((a, b) => a - b);
  const keptDims = kept.map((j) => dims[j] as number);
  const keptValues = kept.map((j) => values[j] as number);
  dims.length = from;
  values.length = from;
  dims.push(...keptDims);
  values.push(...keptValues);
}

/** Spherical k-means: each row to the centroid of highest cosine; returns each row's cluster and the centroids. */
function sphericalKMeans(
  rows: SparseRows,
  dimCount: number,
  k: number,
  iterations: number,
  random: () => number,
): { assign: Uint16Array; centroids: Float32Array } {
  const n = rows.offsets.length - 1;
  // Centroids stored dimension-major (d * k + c): a row's few dimensions each read k contiguous weights.
  const centroids = new Float32Array(dimCount * k);
  const seedRow = (c: number, r: number): void => {
    for (let j = rows.offsets[r] as number; j < (rows.offsets[r + 1] as number); j++) centroids[(rows.dims[j] as number) * k + c] = rows.values[j] as number;
  };
  const chosen = new Set<number>();
  for (let c = 0; c < k; c++) {
    let r: number;
    do r = Math.floor(random() * n);
    while (chosen.has(r));
    chosen.add(r);
    seedRow(c, r);
  }
  const assign = new Uint16Array(n);
  const scores = new Float64Array(k);
  for (let it = 0; it < iterations; it++) {
    let moved = 0;
    for (let r = 0; r < n; r++) {
      scores.fill(0);
      for (let j = rows.offsets[r] as number; j < (rows.offsets[r + 1] as number); j++) {
        const base = (rows.dims[j] as number) * k;
        const v = rows.values[j] as number;
        for (let c = 0; c < k; c++) scores[c] += v * (centroids[base + c] as number);
      }
      let best = 0;
      for (let c = 1; c < k; c++) if ((scores[c] as number) > (scores[best] as number)) best = c;
      if (it === 0 || assign[r] !== best) moved += 1;
      assign[r] = best;
    }
    // New centroids: the normalised sum of their rows; an emptied cluster restarts from a random row.
    centroids.fill(0);
    const size = new Uint32Array(k);
    for (let r = 0; r < n; r++) {
      const c = assign[r] as number;
      size[c] += 1;
      for (let j = rows.offsets[r] as number; j < (rows.offsets[r + 1] as number); j++) centroids[(rows.dims[j] as number) * k + c] += rows.values[j] as number;
    }
    for (let c = 0; c < k; c++) if (size[c] === 0) seedRow(c, Math.floor(random() * n));
    const norms = new Float64Array(k);
    for (let i = 0; i < centroids.length; i++) norms[i % k] += (centroids[i] as number) ** 2;
    for (let i = 0; i < centroids.length; i++) centroids[i] = (centroids[i] as number) / (Math.sqrt(norms[i % k] as number) || 1);
    if (moved === 0) break;
  }
  return { assign, centroids };
}

/** Fine centroids grouped into `coarse` groups (spherical k-means over the centroids themselves). */
function coarseGroups(centroids: Float32Array, fine: number, coarse: number, dimCount: number, random: () => number): Uint8Array {
  const dims: number[] = [];
  const values: number[] = [];
  const offsets = new Uint32Array(fine + 1);
  for (let c = 0; c < fine; c++) {
    offsets[c] = dims.length;
    for (let d = 0; d < dimCount; d++) {
      const v = centroids[d * fine + c] as number;
      if (v !== 0) {
        dims.push(d);
        values.push(v);
      }
    }
  }
  offsets[fine] = dims.length;
  const { assign } = sphericalKMeans({ offsets, dims: Uint32Array.from(dims), values: Float32Array.from(values) }, dimCount, coarse, 20, random);
  return Uint8Array.from(assign);
}

/** Each vocabulary word (most frequent first) with its count and fine cluster, and each fine cluster's coarse group. */
export interface VocabularyClusters {
  readonly words: readonly string[];
  readonly counts: Uint32Array;
  readonly fine: Uint16Array;
  readonly coarseOf: Uint8Array;
  readonly fineCount: number;
}

/** The clustering itself (see the file's head), before its words are hashed. */
export function clusterVocabulary(sentences: readonly (readonly string[])[], options: ClusterOptions = DEFAULT_CLUSTER_OPTIONS): VocabularyClusters {
  // Fine clusters + 1 are u16 feature values (0xffff marks a sentence boundary), coarse groups u8.
  if (!(options.fine >= 1 && options.fine <= MAX_FINE) || !(options.coarse >= 1 && options.coarse <= 255)) {
    throw new Error(`cluster counts out of range: fine ${options.fine} (1-${MAX_FINE}), coarse ${options.coarse} (1-255)`);
  }
  const random = seededRandom(options.seed);
  const { words, counts } = vocabulary(sentences, options.minCount);
  const rows = contextRows(sentences, words, options.contextWords, options.rowTop ?? 0);
  const dimCount = 2 * (1 + SHAPE_DIMS + Math.min(options.contextWords, words.length));
  const fine = Math.min(options.fine, words.length);
  const { assign, centroids } = sphericalKMeans(rows, dimCount, fine, options.iterations, random);
  const coarseOf = coarseGroups(centroids, fine, Math.min(options.coarse, fine), dimCount, random);
  return { words, counts, fine: assign, coarseOf, fineCount: fine };
}

/** Clusters for the words of `sentences` (see the file's head). */
export function trainWordClusters(sentences: readonly (readonly string[])[], options: ClusterOptions = DEFAULT_CLUSTER_OPTIONS): WordClusters {
  const v = clusterVocabulary(sentences, options);
  // Keyed by the word's hash, sorted for binary search; of two words with one hash the more frequent keeps it.
  const byKey = new Map<number, number>();
  v.words.forEach((w, i) => {
    const key = fnv1a(w);
    if (!byKey.has(key)) byKey.set(key, i);
  });
  const keys = Uint32Array.from(byKey.keys()).sort();
  const fineOf = new Uint16Array(keys.length);
  keys.forEach((key, j) => (fineOf[j] = v.fine[byKey.get(key) as number] as number));
  return { ...NO_CLUSTERS, keys, fine: fineOf, coarseOf: v.coarseOf, fineCount: v.fineCount };
}
