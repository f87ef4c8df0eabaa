import { randomFillSync, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * CSPRNG bytes drawn 4 KiB at a time and each used once: ids are made on every request, and one call into the
 * CSPRNG per id (with its Buffer) cost more than the id itself (the uuid package pools the same way).
 */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

function randomByte(): number {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  return pool[poolAt++] as number;
}

/** `length` base62 characters from the CSPRNG, without modulo bias. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    // 248 = 4 × 62: bytes at or above it would favour the first characters.
    if (b < 248) out += BASE62[b % 62];
  }
  return out;
}

/** `req_` + 24 base62, on every response. */
export function newRequestId(): string {
  return `req_${randomBase62(24)}`;
}

export function newMessageId(): string {
  return `msg_${randomBase62(24)}`;
}

export function newDecisionId(): string {
  return `dec_${randomBase62(20)}`;
}

export function newLeaseId(): string {
  return `lse_${randomBase62(20)}`;
}

/** A decision attempt's id: minted by the proxy, sent again with the decision's one retry on another replica. */
export function newAttemptId(): string {
  return `att_${randomBase62(20)}`;
}

const ATTEMPT_ID_RE = /^att_[A-Za-z0-9]{20}$/;

/**
 * The lease a decision attempt takes: the same for the attempt's retry, so the admission is idempotent on it (the
 * retry finds the lease the first attempt took). A fresh one when there is no (well-formed) attempt id.
 */
export function leaseIdFor(attemptId: string): string {
  return ATTEMPT_ID_RE.test(attemptId) ? `lse_${attemptId.slice(4)}` : newLeaseId();
}

export function newRecordId(prefix: string): string {
  return `${prefix}_${randomBase62(16)}`;
}

export { randomInt };
