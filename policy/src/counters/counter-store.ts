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
  /** the request's worst case, reserved until its real usage is counted (overage plans); 0 otherwise */
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

/**
 * What a finished request really used, handed to release(): its overage reservation becomes this figure (a
 * settled reservation) until addUsed() moves it into the period's used counter.
 */
export interface Settlement {
  /** the request's real billable units */
  units: number;
  /** the billing period the units are counted in (the period the request finished in) */
  periodId: string;
}

/**
 * The whole units a release settles a reservation to; 0 (the reservation is dropped) for none, for no units, and
 * for a figure that is not a finite number. The same rule in every store: a release is never refused over a bad
 * figure (the slot must be freed), and billable units are whole numbers anyway.
 */
export function settledUnits(settled: Settlement | undefined): number {
  return settled !== undefined && Number.isFinite(settled.units) && settled.units > 0 ? Math.ceil(settled.units) : 0;
}

/*
 * Settle, then count (overage plans). A request's units reach the used counter only after its ledger row is
 * committed, some milliseconds after its lease is released. So that no admission in that gap sees neither the
 * reservation nor the real usage (and lets spend pass the ceiling), release() does not drop the reservation: it
 * replaces the worst case with the real units, still counted by admit(), and addUsed() removes that settled
 * reservation in the same atomic step as it adds the units to `used`. Each unit is thus counted at least once
 * and, once addUsed has run, exactly once.
 */
export interface CounterStore {
  admit(request: AdmitRequest): Promise<AdmitResult>;
  /** The binding window's position without counting anything. */
  peekWindows(windows: WindowSpec[], nowMs: number): Promise<WindowPosition>;
  /** Extends live leases; resolves with the ids it no longer holds. */
  renew(leases: LeaseRef[], ttlMs: number, nowMs: number): Promise<string[]>;
  /**
   * Frees a lease's concurrency slot at once. Its reservation, if it holds one, is settled to `settled.units`
   * (kept, counted by admit, with the lease's expiry) when those are above 0, and dropped otherwise (no
   * settlement, or 0 units). Idempotent: only a reservation still held is converted; a lease that holds none
   * (already released, test traffic, a plan without overage) gets none.
   */
  release(lease: LeaseRef, nowMs: number, settled?: Settlement): Promise<void>;
  /**
   * Adds settled usage to a period's counter, only if the counter is present (a missing one is rebuilt from the
   * ledger, which already holds the row). With a request id it is idempotent: the same request adds once.
   * With a lease id, the settled reservation release() left for that lease is removed in the same atomic step,
   * whether or not anything is added (when the counter is missing, the ledger rebuild counts the row; when the
   * request was added before, its units are in the counter already).
   */
  addUsed(
    spec: Pick<AllowanceSpec, 'accountId' | 'periodId' | 'periodStartMs' | 'periodEndMs'>,
    units: number,
    requestId?: string,
    leaseId?: string,
  ): Promise<void>;
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
