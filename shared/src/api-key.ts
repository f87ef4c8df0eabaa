import { createHash } from 'node:crypto';
import { AuthenticationError } from './errors.js';
import { randomBase62 } from './ids.js';
import type { Environment } from './policy-wire.js';

/** `gw_(live|test)_` + 32 base62 characters: anything else is refused without a store lookup. */
export const API_KEY_PATTERN = /^gw_(live|test)_[A-Za-z0-9]{32}$/;

export function isWellFormedApiKey(key: string): boolean {
  return API_KEY_PATTERN.test(key);
}

export function generateApiKey(environment: Environment): string {
  return `gw_${environment}_${randomBase62(32)}`;
}

/** Keys are stored only as the SHA-256 of the whole key string. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** How listings show a key: prefix, first 4 and last 4 of the random part (`gw_live_AbCd…wxyz`). */
export function displayApiKey(key: string): string {
  const random = key.slice(8);
  return `${key.slice(0, 8)}${random.slice(0, 4)}…${random.slice(-4)}`;
}

/** The first check of every request: a key is present and well-formed (no store lookup needed to refuse). */
export function keyFormatError(apiKey: string): AuthenticationError | undefined {
  if (apiKey === '') return new AuthenticationError('Missing API key: send it as x-api-key or authorization: Bearer.');
  if (!isWellFormedApiKey(apiKey)) return new AuthenticationError('Invalid API key.');
  return undefined;
}
