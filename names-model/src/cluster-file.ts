import { gunzipSync, gzipSync } from 'node:zlib';
import { fnv1a } from '@gateway/privacy/internals';
import type { VocabularyClusters } from './word-clusters.js';

/**
 * One language's word clusters as committed under names-model/clusters/<lang>.bin: "WCL1\n", a JSON header line,
 * then gzipped: the words' fnv1a hashes ascending (u32), each one's fine cluster (u16), capitalisation grade (u8)
 * and frequency class (u8: 16·log2 of its count, which word keeps a hash two languages share), then each fine
 * cluster's coarse group (u8) and name grade (u8). Hashes, not words: the file carries no text of the sources.
 */
export interface LanguageClusters {
  readonly language: string;
  readonly keys: Uint32Array;
  readonly fine: Uint16Array;
  readonly capGrade: Uint8Array;
  readonly frequency: Uint8Array;
  readonly coarseOf: Uint8Array;
  readonly nameGrade: Uint8Array;
  readonly fineCount: number;
  readonly coarseCount: number;
  /** Tokens of text the clusters were learnt from. */
  readonly tokens: number;
}

const MAGIC = 'WCL1\n';

export function languageClusters(language: string, v: VocabularyClusters, capGrades: Uint8Array, nameGrades: Uint8Array, tokens: number): LanguageClusters {
  // Of two words with one hash the more frequent keeps it (words come most frequent first).
  const byKey = new Map<number, number>();
  v.words.forEach((w, i) => {
    const key = fnv1a(w);
    if (!byKey.has(key)) byKey.set(key, i);
  });
  const keys = Uint32Array.from(byKey.keys()).sort();
  const at = Array.from(keys, (k) => byKey.get(k) as number);
  return {
    language,
    keys,
    fine: Uint16Array.from(at, (i) => v.fine[i] as number),
    capGrade: Uint8Array.from(at, (i) => capGrades[i] as number),
    frequency: Uint8Array.from(at, (i) => Math.min(255, Math.round(16 * Math.log2(v.counts[i] as number)))),
    coarseOf: v.coarseOf,
    nameGrade: nameGrades,
    fineCount: v.fineCount,
    coarseCount: v.coarseOf.reduce((m, c) => Math.max(m, c + 1), 0),
    tokens,
  };
}

const bytesOf = (a: ArrayBufferView): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

export function encodeLanguageClusters(c: LanguageClusters): Buffer {
  const header = JSON.stringify({ language: c.language, words: c.keys.length, fineCount: c.fineCount, coarseCount: c.coarseCount, tokens: c.tokens });
  const body = Buffer.concat([bytesOf(c.keys), bytesOf(c.fine), bytesOf(c.capGrade), bytesOf(c.frequency), bytesOf(c.coarseOf), bytesOf(c.nameGrade)]);
  // mtime 0 is gzip's default in node: same clusters, same bytes.
  return Buffer.concat([Buffer.from(`${MAGIC}${header}\n`, 'utf8'), gzipSync(body, { level: 9 })]);
}

export function decodeLanguageClusters(bytes: Buffer): LanguageClusters {
  if (bytes.subarray(0, MAGIC.length).toString('latin1') !== MAGIC) throw new Error('not a word-cluster file (bad magic)');
  const eol = bytes.indexOf(0x0a, MAGIC.length);
  const h = JSON.parse(bytes.subarray(MAGIC.length, eol).toString('utf8')) as { language: string; words: number; fineCount: number; coarseCount: number; tokens: number };
  const body = gunzipSync(bytes.subarray(eol + 1));
  const n = h.words;
  if (body.length !== n * 8 + h.fineCount * 2) throw new Error(`word-cluster file for ${h.language} has the wrong size`);
  // Copied out of the gunzip buffer: typed views need aligned offsets.
  const copy = (from: number, len: number): ArrayBuffer => body.buffer.slice(body.byteOffset + from, body.byteOffset + from + len) as ArrayBuffer;
  return {
    language: h.language,
    keys: new Uint32Array(copy(0, n * 4)),
    fine: new Uint16Array(copy(n * 4, n * 2)),
    capGrade: new Uint8Array(copy(n * 6, n)),
    frequency: new Uint8Array(copy(n * 7, n)),
    coarseOf: new Uint8Array(copy(n * 8, h.fineCount)),
    nameGrade: new Uint8Array(copy(n * 8 + h.fineCount, h.fineCount)),
    fineCount: h.fineCount,
    coarseCount: h.coarseCount,
    tokens: h.tokens,
  };
}
