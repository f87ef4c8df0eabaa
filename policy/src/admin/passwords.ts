import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Memory-hard password hashes with node's built-in scrypt (no native dependency; see docs/decisions.md).
 * N = 2^15, r = 8 needs 32 MiB per hash, which makes guessing on GPUs expensive; about 100 ms here.
 * Stored as `scrypt$N$r$p$salt$hash` (base64), so the cost can be raised later without breaking old hashes.
 */
const PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 128 * params.N * params.r * 2 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) => (err === null ? resolve(key) : reject(err)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const expected = Buffer.from(parts[5] as string, 'base64');
  const actual = await derive(password, Buffer.from(parts[4] as string, 'base64'), { N, r, p });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of nothing, checked when the email is unknown so both answers take the same time. */
export const dummyHash: () => Promise<string> = (() => {
  let cached: Promise<string> | undefined;
  return () => (cached ??= hashPassword(randomBytes(16).toString('hex')));
})();
