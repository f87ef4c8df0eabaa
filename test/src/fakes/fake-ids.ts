import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A vendor-looking id: `prefix` + base62 characters, e.g. `msg_01…`, `req_…`, `toolu_01…`. */
export function fakeId(prefix: string, length = 24): string {
  let out = prefix;
  for (const b of randomBytes(length)) out += ALPHABET[b % ALPHABET.length];
  return out;
}
