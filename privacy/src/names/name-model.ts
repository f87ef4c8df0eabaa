import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { LEXICON_BITS, MAX_TEMPLATES, TAG_COUNT, type NameLexicon } from './name-features.js';
import { emptyLexiconSet, MAX_LEXICON_SETS, type LexiconSet } from './lexicon-sets.js';
import { CAP_GRADES, hasWide, MAX_FINE, NAME_GRADES, NO_CLUSTER } from './word-clusters.js';

/**
 * The name tagger's weights: a hashed table of `buckets` × TAG_COUNT weights, quantised to 16 bits (the scale
 * turns them back into the trainer's units), the lower-case lexicon and the word clusters. On disk: "PTAG4\n", a
 * JSON header line (with the clusters' word and cluster counts), then gzipped: the
 * table, the lexicon's bits, the clusters' word hashes (u32), their training-text clusters (u16), each such
 * cluster's coarse group (u8), then, with wide clusters (word-clusters.ts), each word's wide cluster (u16), each
 * wide cluster's coarse group (u8), each word's capitalisation grade (u8) and each wide cluster's name grade (u8).
 * Every part starts 4-byte aligned, so each is a view on one shared buffer. "PTAG5" adds word lists
 * (lexicon-sets.ts): the header names each (id, size, probes) and their bits follow, in order. A model without
 * lists is written as "PTAG4"; "PTAG4" and "PTAG3" files (no wide clusters) are still read. "PTAG6" is PTAG5's
 * layout (word lists optional) for a model with register features (text-register.ts): older code refuses it
 * rather than score it without them. "PTAG7" is the same layout for a model trained with extra context templates
 * (name-features.ts): the header names their bits (`templates`) and whether it has register features.
 */
export interface NameModel {
  readonly buckets: number;
  readonly scale: number;
  readonly weights: Int16Array;
  readonly lexicon: NameLexicon;
  readonly info: Readonly<Record<string, unknown>>;
}

const MAGIC_TEMPLATES = 'PTAG7\n';
const MAGIC_REGISTER = 'PTAG6\n';
const MAGIC_LISTS = 'PTAG5\n';
const MAGIC = 'PTAG4\n';
const MAGIC_NO_GRADES = 'PTAG3\n';

const bytesOf = (a: ArrayBufferView): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
const padded4 = (n: number): number => (n + 3) & ~3;

export function encodeNameModel(model: NameModel): Buffer {
  const { common, clusters } = model.lexicon;
  const sets = model.lexicon.sets ?? [];
  const templates = model.lexicon.templates ?? 0;
  const header = JSON.stringify({
    buckets: model.buckets,
    tags: TAG_COUNT,
    scale: model.scale,
    clusterWords: clusters.keys.length,
    fineClusters: clusters.fineCount,
    wideClusters: clusters.wideCount,
    ...(sets.length > 0 ? { lexicons: sets.map((l) => ({ id: l.id, bitsLog2: l.bitsLog2, probes: l.probes })) } : {}),
    ...(model.lexicon.register === true ? { register: true } : {}),
    ...(templates !== 0 ? { templates } : {}),
    info: model.info,
  });
  const aligned = (a: ArrayBufferView): Buffer => {
    const out = Buffer.alloc(padded4(a.byteLength));
    bytesOf(a).copy(out);
    return out;
  };
  const parts = [bytesOf(model.weights), bytesOf(common), bytesOf(clusters.keys), aligned(clusters.fine), aligned(clusters.coarseOf)];
  if (hasWide(clusters)) parts.push(aligned(clusters.wideFine), aligned(clusters.wideCoarseOf), aligned(clusters.wordClass), bytesOf(clusters.clusterClass));
  if (sets.length > 0) {
    if (!hasWide(clusters)) throw new Error('a model with word lists needs wide clusters (PTAG5 extends PTAG4)');
    parts[parts.length - 1] = aligned(clusters.clusterClass);
    for (const l of sets) parts.push(bytesOf(l.bits));
  }
  if (model.lexicon.register === true && !hasWide(clusters)) throw new Error('a model with register features needs wide clusters (PTAG6 extends PTAG4)');
  const magic = templates !== 0 ? MAGIC_TEMPLATES : model.lexicon.register === true ? MAGIC_REGISTER : sets.length > 0 ? MAGIC_LISTS : MAGIC;
  return Buffer.concat([Buffer.from(`${magic}${header}\n`, 'utf8'), gzipSync(Buffer.concat(parts), { level: 9 })]);
}

/** Throws with a plain reason when the bytes are not a model this code can run. */
export function decodeNameModel(bytes: Buffer): NameModel {
  const magic = bytes.subarray(0, MAGIC.length).toString('latin1');
  if (magic !== MAGIC && magic !== MAGIC_NO_GRADES && magic !== MAGIC_LISTS && magic !== MAGIC_REGISTER && magic !== MAGIC_TEMPLATES) throw new Error('not a name-tagger model (bad magic)');
  const eol = bytes.indexOf(0x0a, MAGIC.length);
  if (eol === -1) throw new Error('model header is cut off');
  const header = JSON.parse(bytes.subarray(MAGIC.length, eol).toString('utf8')) as {
    buckets: number;
    tags: number;
    scale: number;
    clusterWords: number;
    fineClusters: number;
    wideClusters?: number;
    lexicons?: { id: string; bitsLog2: number; probes: number }[];
    register?: boolean;
    templates?: number;
    info: Record<string, unknown>;
  };
  if (header.tags !== TAG_COUNT) throw new Error(`model has ${header.tags} tags, this code ${TAG_COUNT}`);
  if (!Number.isInteger(Math.log2(header.buckets))) throw new Error('model bucket count is not a power of two');
  const { clusterWords, fineClusters } = header;
  const wideCount = magic !== MAGIC_NO_GRADES ? (header.wideClusters ?? 0) : 0;
  const extended = magic === MAGIC_TEMPLATES;
  const register = magic === MAGIC_REGISTER || (extended && header.register === true);
  const templates = extended ? (header.templates ?? 0) : 0;
  if (extended && (!Number.isInteger(templates) || templates <= 0 || templates > MAX_TEMPLATES)) throw new Error('model templates are invalid');
  if (register && wideCount === 0) throw new Error('model register features need wide clusters');
  const listHeads = magic === MAGIC_LISTS || register || extended ? (header.lexicons ?? []) : [];
  if (listHeads.length > MAX_LEXICON_SETS || (listHeads.length > 0 && wideCount === 0)) throw new Error('model word lists are invalid');
  // Validated here (size, probes) before any bytes are read for them.
  const sets: LexiconSet[] = listHeads.map((l) => emptyLexiconSet(String(l.id), l.bitsLog2, l.probes));
  const badCount = (n: number): boolean => !Number.isInteger(n) || n < 0 || n > MAX_FINE;
  if (!Number.isInteger(clusterWords) || clusterWords < 0 || badCount(fineClusters) || badCount(wideCount)) {
    throw new Error('model cluster counts are invalid');
  }
  const payload = gunzipSync(bytes.subarray(eol + 1));
  const tableBytes = header.buckets * TAG_COUNT * 2;
  const keysAt = tableBytes + LEXICON_BITS / 8;
  const fineAt = keysAt + clusterWords * 4;
  const coarseAt = fineAt + padded4(clusterWords * 2);
  // PTAG3 ended at the coarse groups, unpadded.
  const wideAt = coarseAt + (magic !== MAGIC_NO_GRADES ? padded4(fineClusters) : fineClusters);
  const wideCoarseAt = wideAt + padded4(clusterWords * 2);
  const wordClassAt = wideCoarseAt + padded4(wideCount);
  const clusterClassAt = wordClassAt + padded4(clusterWords);
  const listsAt = clusterClassAt + (sets.length > 0 ? padded4(wideCount) : wideCount);
  const end = wideCount > 0 ? listsAt + sets.reduce((n, l) => n + l.bits.byteLength, 0) : wideAt;
  if (payload.byteLength !== end) throw new Error('model table has the wrong size');
  // Shared memory: the detector threads are handed these, not copies of them (19 MB each otherwise).
  const shared = new SharedArrayBuffer(payload.byteLength);
  new Uint8Array(shared).set(payload);
  const weights = new Int16Array(shared, 0, header.buckets * TAG_COUNT);
  const common = new Uint32Array(shared, tableBytes, LEXICON_BITS / 32);
  const clusters = {
    keys: new Uint32Array(shared, keysAt, clusterWords),
    fine: new Uint16Array(shared, fineAt, clusterWords),
    coarseOf: new Uint8Array(shared, coarseAt, fineClusters),
    fineCount: fineClusters,
    wideFine: wideCount > 0 ? new Uint16Array(shared, wideAt, clusterWords) : new Uint16Array(0),
    wideCoarseOf: wideCount > 0 ? new Uint8Array(shared, wideCoarseAt, wideCount) : new Uint8Array(0),
    wideCount,
    wordClass: wideCount > 0 ? new Uint8Array(shared, wordClassAt, clusterWords) : new Uint8Array(0),
    clusterClass: wideCount > 0 ? new Uint8Array(shared, clusterClassAt, wideCount) : new Uint8Array(0),
  };
  let at = listsAt;
  const lists = sets.map((l) => {
    const bits = new Uint32Array(shared, at, l.bits.length);
    at += l.bits.byteLength;
    return { id: l.id, bitsLog2: l.bitsLog2, probes: l.probes, bits };
  });
  for (const f of clusters.fine) if (f >= fineClusters && f !== NO_CLUSTER) throw new Error('model names a word cluster it does not have');
  for (const f of clusters.wideFine) if (f >= wideCount && f !== NO_CLUSTER) throw new Error('model names a wide word cluster it does not have');
  for (const c of clusters.wordClass) if (c >= CAP_GRADES) throw new Error('model has a capitalisation grade out of range');
  for (const c of clusters.clusterClass) if (c >= NAME_GRADES) throw new Error('model has a name grade out of range');
  return { buckets: header.buckets, scale: header.scale, weights, lexicon: { common, clusters, ...(lists.length > 0 ? { sets: lists } : {}), ...(register ? { register: true } : {}), ...(templates !== 0 ? { templates } : {}) }, info: header.info };
}

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
