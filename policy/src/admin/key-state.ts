import type { KeyRecord } from '../db/records.js';

export type KeyState = 'active' | 'revoked' | 'expired';

export function keyState(k: KeyRecord, nowMs: number): KeyState {
  if (k.revoked_at !== null) return 'revoked';
  if (k.expires_at !== null && Date.parse(k.expires_at) <= nowMs) return 'expired';
  return 'active';
}

/** A key not used for this long is idle: safe to revoke after a rotation. */
export const ROTATION_IDLE_MS = 15 * 60_000;
/** Hygiene: a live key unused for this long is flagged. */
export const HYGIENE_IDLE_MS = 30 * 24 * 3600_000;
