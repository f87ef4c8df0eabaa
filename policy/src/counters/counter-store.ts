/**
 * Counters behind the limits: per-minute windows, concurrency leases and the allowance of a billing period.
 * Two implementations pass one shared test suite: in-process (single node) and Redis (shared by replicas).
 * admit() is all or nothing: a request refused by any limit changes no counter.
 */
export interface WindowPosition {
  limit: number;
  remaining: number;
  /** unix seconds when the window rolls over */
  resetUnix: number;
}

/*
 * Scopes: every counter scope starts with `<accountId>:` (e.g. `acct_x:live:rpm`, `acct_x:live:key:key_y:rpm`,
 * lease scope `acct_x:live`), so a store can keep all of one account's counters in one Redis Cluster hash slot
 * and check them in one atomic script.
 */
export interface WindowSpec {
  /** counter scope, e.g. `acct_x:live:rpm` */
  scope: string;
  limit: number;
}

export interface AllowanceSpec {
  accountId: string;
  periodId: string;
  periodStartMs: number;
  periodEndMs: number;
  allowance: number;
  overageAllowed: boolean;
  /** billable units allowed past the allowance when overage is on */
  ceiling: number;
  /** the request's worst case, reserved until it settles (overage plans); 0 otherwise */
  reserveUnits: number;
}

export interface AdmitRequest {
  nowMs: number;
  /** the account's window and, when the key has a lower cap, the key's */
  windows: WindowSpec[];
  /** absent for operations that hold no slot */
  concurrency?: { scope: string; limit: number; leaseId: string; ttlMs: number };
  /** absent for test traffic, which never touches the allowance */
  allowance?: AllowanceSpec;
}

export type AdmitResult =
  | { ok: true; window: WindowPosition; leaseExpiresMs: number }
  | { ok: false; reason: 'rpm' | 'concurrency' | 'allowance'; window: WindowPosition; retryAfterSeconds: number };

export interface LeaseRef {
  scope: string;
  leaseId: string;
}

export interface CounterStore {
  admit(request: AdmitRequest): Promise<AdmitResult>;
  /** The binding window's position without counting anything. */
  peekWindows(windows: WindowSpec[], nowMs: number): Promise<WindowPosition>;
  /** Extends live leases; resolves with the ids it no longer holds. */
  renew(leases: LeaseRef[], ttlMs: number, nowMs: number): Promise<string[]>;
  /** Frees a lease and its reservation. Idempotent. */
  release(lease: LeaseRef, nowMs: number): Promise<void>;
  /**
   * Adds settled usage to a period's counter, only if the counter is present (a missing one is rebuilt from the
   * ledger, which already holds the row). With a request id it is idempotent: the same request adds once.
   */
  addUsed(spec: Pick<AllowanceSpec, 'accountId' | 'periodId' | 'periodStartMs' | 'periodEndMs'>, units: number, requestId?: string): Promise<void>;
  /** Units used this period, as the counters hold them (rebuilt from the ledger when missing). */
  used(spec: Pick<AllowanceSpec, 'accountId' | 'periodId' | 'periodStartMs' | 'periodEndMs'>): Promise<number>;
  /** Leases held now in a scope. */
  inFlight(scope: string, nowMs: number): Promise<number>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** Where counters come from when the store has lost them: the durable ledger. */
export type UsedUnitsLoader = (accountId: string, periodStartMs: number, periodEndMs: number) => number;

/** Fixed windows aligned to the UTC minute. */
export function windowOf(nowMs: number): { index: number; resetUnix: number } {
  const index = Math.floor(nowMs / 60_000);
  return { index, resetUnix: (index + 1) * 60 };
}

/** Whole seconds until the window rolls over, at least 1. */
export function retryAfterSeconds(nowMs: number): number {
  const { resetUnix } = windowOf(nowMs);
  return Math.max(1, Math.ceil(resetUnix - nowMs / 1000));
}

/** Whether a request with this reservation fits the allowance, given what is used and reserved already. */
export function allowanceAdmits(spec: AllowanceSpec, used: number, reservedInFlight: number): boolean {
  if (!spec.overageAllowed) return used < spec.allowance;
  return used + reservedInFlight + spec.reserveUnits <= spec.allowance + spec.ceiling;
}
