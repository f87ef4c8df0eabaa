/**
 * Word lists the tagger reads as features, not as rules (issue 32, point 4): software and project names, a
 * language's dictionary words written in lower case, its dictionary words written capitalised. Each list is a
 * Bloom filter of the lower-cased words' hashes (no text of the list ships), so a word costs a few probes per
 * list, once per distinct word (name-features.ts caches). A false hit only moves a weight training has learnt to
 * weigh: "Jackson" is a software name and a surname, and the model, not the list, decides.
 */
export interface LexiconSet {
  /** What the list holds, e.g. "software", "nl-lower": the feature is its position in the model, the id is for people. */
  readonly id: string;
  /** log2 of the filter's size in bits. */
  readonly bitsLog2: number;
  readonly probes: number;
  readonly bits: Uint32Array;
}

/** Most lists a model may carry: each is one bit of a word's mask. */
export const MAX_LEXICON_SETS = 8;

/** The second hash of double hashing (murmur3's finaliser of the first). */
function secondHash(h: number): number {
  let x = Math.imul(h ^ 0x5bd1e995, 0x9e3779b1);
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return (x | 1) >>> 0;
}

/** Adds the word whose lower-case fnv1a is `lowerHash` to the list. */
export function addToLexiconSet(set: LexiconSet, lowerHash: number): void {
  const mask = (2 ** set.bitsLog2 - 1) >>> 0;
  const step = secondHash(lowerHash);
  let p = lowerHash;
  for (let k = 0; k < set.probes; k++) {
    const bit = (p & mask) >>> 0;
    set.bits[bit >>> 5] = (set.bits[bit >>> 5] as number) | (1 << (bit & 31));
    p = (p + step) >>> 0;
  }
}

function inLexiconSet(set: LexiconSet, lowerHash: number): boolean {
  const mask = (2 ** set.bitsLog2 - 1) >>> 0;
  const step = secondHash(lowerHash);
  let p = lowerHash;
  for (let k = 0; k < set.probes; k++) {
    const bit = (p & mask) >>> 0;
    if (((set.bits[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return false;
    p = (p + step) >>> 0;
  }
  return true;
}

/** Bit i set: the word is in list i. */
export function lexiconMask(sets: readonly LexiconSet[], lowerHash: number): number {
  let m = 0;
  for (let i = 0; i < sets.length; i++) if (inLexiconSet(sets[i] as LexiconSet, lowerHash)) m |= 1 << i;
  return m;
}

export function emptyLexiconSet(id: string, bitsLog2: number, probes: number): LexiconSet {
  if (!Number.isInteger(bitsLog2) || bitsLog2 < 5 || bitsLog2 > 30) throw new Error(`lexicon ${id}: ${bitsLog2} is no filter size`);
  if (!Number.isInteger(probes) || probes < 1 || probes > 8) throw new Error(`lexicon ${id}: ${probes} probes`);
  return { id, bitsLog2, probes, bits: new Uint32Array(2 ** (bitsLog2 - 5)) };
}
