import { MAX_FINE, NO_CLUSTER, type WordClusters } from '@gateway/privacy/internals';
import type { LanguageClusters } from './cluster-file.js';

/** The wide clusters of every language in one table, before they join the training text's clusters. */
export interface WideClusters {
  readonly keys: Uint32Array;
  readonly fine: Uint16Array;
  readonly coarseOf: Uint8Array;
  readonly fineCount: number;
  readonly wordClass: Uint8Array;
  readonly clusterClass: Uint8Array;
}

/**
 * Languages merged: each language's fine and coarse clusters numbered after the previous languages'; a word hash
 * two languages share goes to the language whose text uses it more (the earlier language on a tie).
 */
export function mergeClusters(parts: readonly LanguageClusters[]): WideClusters {
  const fineCount = parts.reduce((n, p) => n + p.fineCount, 0);
  const coarseCount = parts.reduce((n, p) => n + p.coarseCount, 0);
  if (fineCount > MAX_FINE || coarseCount > 255) throw new Error(`merged clusters too many: fine ${fineCount}, coarse ${coarseCount}`);
  const coarseOf = new Uint8Array(fineCount);
  const clusterClass = new Uint8Array(fineCount);
  // key → part index << 24 | word index
  const owner = new Map<number, number>();
  const fineBases: number[] = [];
  let fineBase = 0;
  let coarseBase = 0;
  parts.forEach((p, pi) => {
    fineBases.push(fineBase);
    for (let c = 0; c < p.fineCount; c++) {
      coarseOf[fineBase + c] = coarseBase + (p.coarseOf[c] as number);
      clusterClass[fineBase + c] = p.nameGrade[c] as number;
    }
    p.keys.forEach((key, i) => {
      const held = owner.get(key);
      const heldFrequency = held === undefined ? -1 : ((parts[held >>> 24] as LanguageClusters).frequency[held & 0xffffff] as number);
      if (heldFrequency < (p.frequency[i] as number)) owner.set(key, (pi << 24) | i);
    });
    fineBase += p.fineCount;
    coarseBase += p.coarseCount;
  });
  const keys = Uint32Array.from(owner.keys()).sort();
  const fine = new Uint16Array(keys.length);
  const wordClass = new Uint8Array(keys.length);
  keys.forEach((key, j) => {
    const held = owner.get(key) as number;
    const p = parts[held >>> 24] as LanguageClusters;
    const i = held & 0xffffff;
    fine[j] = (fineBases[held >>> 24] as number) + (p.fine[i] as number);
    wordClass[j] = p.capGrade[i] as number;
  });
  return { keys, fine, coarseOf, fineCount, wordClass, clusterClass };
}

/** The training text's clusters and the wide ones under one table of keys: a word costs the tagger one lookup. */
export function combineClusters(own: WordClusters, wide: WideClusters): WordClusters {
  const keys = Uint32Array.from(new Set([...own.keys, ...wide.keys])).sort();
  const fine = new Uint16Array(keys.length).fill(NO_CLUSTER);
  const wideFine = new Uint16Array(keys.length).fill(NO_CLUSTER);
  const wordClass = new Uint8Array(keys.length);
  // Both inputs are sorted: one merge walk.
  let a = 0;
  let b = 0;
  keys.forEach((key, j) => {
    if (a < own.keys.length && own.keys[a] === key) fine[j] = own.fine[a++] as number;
    if (b < wide.keys.length && wide.keys[b] === key) {
      wideFine[j] = wide.fine[b] as number;
      wordClass[j] = wide.wordClass[b++] as number;
    }
  });
  return {
    keys,
    fine,
    coarseOf: own.coarseOf,
    fineCount: own.fineCount,
    wideFine,
    wideCoarseOf: wide.coarseOf,
    wideCount: wide.fineCount,
    wordClass,
    clusterClass: wide.clusterClass,
  };
}
