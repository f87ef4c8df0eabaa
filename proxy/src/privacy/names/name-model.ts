import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { LEXICON_BITS, TAG_COUNT } from './name-features.js';

/**
 * The name tagger's weights: a hashed table of `buckets` × TAG_COUNT weights, quantised to 16 bits (the scale
 * turns them back into the trainer's units), and the lower-case lexicon. On disk: "PTAG2\n", a JSON header
 * line, then the gzipped table followed by the lexicon's bits.
 */
export interface NameModel {
  readonly buckets: number;
  readonly scale: number;
  readonly weights: Int16Array;
  /** The lower-case lexicon (name-features.ts), LEXICON_BITS bits. */
  readonly lexicon: Uint32Array;
  readonly info: Readonly<Record<string, unknown>>;
}

const MAGIC = 'PTAG2\n';

export function encodeNameModel(model: NameModel): Buffer {
  const header = JSON.stringify({ buckets: model.buckets, tags: TAG_COUNT, scale: model.scale, info: model.info });
  const table = Buffer.from(model.weights.buffer, model.weights.byteOffset, model.weights.byteLength);
  const lexicon = Buffer.from(model.lexicon.buffer, model.lexicon.byteOffset, model.lexicon.byteLength);
  return Buffer.concat([Buffer.from(`${MAGIC}${header}\n`, 'utf8'), gzipSync(Buffer.concat([table, lexicon]), { level: 9 })]);
}

/** Throws with a plain reason when the bytes are not a model this code can run. */
export function decodeNameModel(bytes: Buffer): NameModel {
  if (bytes.subarray(0, MAGIC.length).toString('latin1') !== MAGIC) throw new Error('not a name-tagger model (bad magic)');
  const eol = bytes.indexOf(0x0a, MAGIC.length);
  if (eol === -1) throw new Error('model header is cut off');
  const header = JSON.parse(bytes.subarray(MAGIC.length, eol).toString('utf8')) as {
    buckets: number;
    tags: number;
    scale: number;
    info: Record<string, unknown>;
  };
  if (header.tags !== TAG_COUNT) throw new Error(`model has ${header.tags} tags, this code ${TAG_COUNT}`);
  if (!Number.isInteger(Math.log2(header.buckets))) throw new Error('model bucket count is not a power of two');
  const payload = gunzipSync(bytes.subarray(eol + 1));
  const tableBytes = header.buckets * TAG_COUNT * 2;
  if (payload.byteLength !== tableBytes + LEXICON_BITS / 8) throw new Error('model table has the wrong size');
  // Shared memory: the detector threads are handed these, not copies of them (19 MB each otherwise).
  const shared = new SharedArrayBuffer(payload.byteLength);
  new Uint8Array(shared).set(payload);
  const weights = new Int16Array(shared, 0, header.buckets * TAG_COUNT);
  const lexicon = new Uint32Array(shared, tableBytes, LEXICON_BITS / 32);
  return { buckets: header.buckets, scale: header.scale, weights, lexicon, info: header.info };
}

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
