import type { AllowanceSpec } from './counter-store.js';

/**
 * Key names of the Redis counter store. Every key of one account carries the hash tag `{<accountId>}`, so all
 * of an account's counters live in one Redis Cluster hash slot and one Lua script can check and count them
 * atomically. The account is the scope's prefix before the first ':' (the scope rule of counter-store.ts).
 */
export class RedisKeys {
  /** @param prefix put before every key (e.g. `gw:`), so test runs and deployments can share a Redis */
  constructor(private readonly prefix: string) {
    if (prefix.includes('{') || prefix.includes('}')) throw new Error('a Redis key prefix must not contain { or }');
  }

  /** Per-minute window counter of a scope; the window index is part of the name. */
  window(scope: string, index: number): string {
    return this.scoped('win', scope, `:${index}`);
  }

  /** ZSET of the leases held in a scope: member leaseId, score expiry (ms). */
  leases(scope: string): string {
    return this.scoped('lease', scope, '');
  }

  /** Units used in one billing period of an account (loaded from the ledger when missing). */
  used(spec: Pick<AllowanceSpec, 'accountId' | 'periodId'>): string {
    return `${this.prefix}used:${tag(spec.accountId)}:${spec.periodId}`;
  }

  /**
   * SET of the rebuilds of one period's used counter under way (a token each), emptied when one is stored: a rebuild
   * whose token is gone when it stores lost the race to another, or its ledger read spans a loss of Redis's data.
   */
  rebuilding(spec: Pick<AllowanceSpec, 'accountId' | 'periodId'>): string {
    return `${this.prefix}rebuilding:${tag(spec.accountId)}:${spec.periodId}`;
  }

  /** Marks that one request's units were added to the used counter (same slot as the counter). */
  applied(accountId: string, requestId: string): string {
    return `${this.prefix}applied:${tag(accountId)}:${requestId}`;
  }

  /**
   * ZSET of an account's reservations: member leaseId while the request runs, then its settledReservation()
   * until addUsed counts it; score the lease's expiry (ms).
   */
  reservations(accountId: string): string {
    return `${this.prefix}resv:${tag(accountId)}`;
  }

  /** HASH of an account's reservations: member (as in `reservations`) → `<units>:<periodId>`. */
  reservedUnits(accountId: string): string {
    return `${this.prefix}resvu:${tag(accountId)}`;
  }

  /**
   * The member (in `reservations` and `reservedUnits`) under which a released lease's reservation waits, settled
   * to the real units, for addUsed. Apart from the lease's own member, so renew, which drops the reservation of
   * a lease it no longer finds, never touches it.
   */
  settledReservation(leaseId: string): string {
    return `settled:${leaseId}`;
  }

  private scoped(kind: string, scope: string, suffix: string): string {
    const accountId = accountOf(scope);
    return `${this.prefix}${kind}:${tag(accountId)}${scope.slice(accountId.length)}${suffix}`;
  }
}

/** The account a scope belongs to: everything before the first ':'. */
export function accountOf(scope: string): string {
  const colon = scope.indexOf(':');
  if (colon <= 0) throw new Error(`counter scope "${scope}" does not start with "<accountId>:"`);
  return scope.slice(0, colon);
}

function tag(accountId: string): string {
  if (accountId === '') throw new Error('an account id must not be empty');
  return `{${accountId}}`;
}
