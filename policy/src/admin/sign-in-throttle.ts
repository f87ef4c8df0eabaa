import { RateLimitError } from '@gateway/shared';

const FREE_FAILURES = 3;
const MAX_LOCK_MS = 5 * 60_000;
const FORGET_AFTER_MS = 30 * 60_000;
const MAX_ENTRIES = 50_000;

interface Entry {
  failures: number;
  lockedUntilMs: number;
  lastMs: number;
}

/**
 * Slows repeated failed sign-ins, per email and per source address: three failures are free, then each further
 * failure locks that email (and address) for 1 s, 2 s, 4 s … up to 5 minutes. While locked every attempt is
 * refused with 429 and retry-after before the password is checked. A success clears the count.
 */
export class SignInThrottle {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number) {}

  check(keys: readonly string[]): void {
    const now = this.now();
    let until = 0;
    for (const k of keys) {
      const e = this.entries.get(k);
      if (e !== undefined && e.lockedUntilMs > now) until = Math.max(until, e.lockedUntilMs);
    }
    if (until > 0) {
      throw new RateLimitError('Too many failed sign-ins; wait before trying again.', Math.max(1, Math.ceil((until - now) / 1000)));
    }
  }

  fail(keys: readonly string[]): void {
    const now = this.now();
    for (const k of keys) {
      const prev = this.entries.get(k);
      const e = prev !== undefined && now - prev.lastMs < FORGET_AFTER_MS ? prev : { failures: 0, lockedUntilMs: 0, lastMs: now };
      e.failures += 1;
      e.lastMs = now;
      if (e.failures >= FREE_FAILURES) e.lockedUntilMs = now + Math.min(MAX_LOCK_MS, 1000 * 2 ** (e.failures - FREE_FAILURES));
      this.entries.delete(k);
      this.entries.set(k, e);
    }
    // Bounded: the oldest entries go first (a Map iterates in insertion order, and fail() re-inserts).
    while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
  }

  succeed(keys: readonly string[]): void {
    for (const k of keys) this.entries.delete(k);
  }
}
