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
  /*
   * Idempotent on the lease: an admission whose lease is held already (the same decision attempt, retried on another
   * replica after its first replica was lost) is admitted again without counting anything twice.
   */
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

export type PeriodSpec = Pick<AllowanceSpec, 'accountId' | 'periodId' | 'periodStartMs' | 'periodEndMs'>;

/** A finished live request's billable units, to be counted into its period's used counter once per request id. */
export interface UsageCount {
  /** the billing period the units are counted in (the period the request finished in) */
  period: PeriodSpec;
  /** whole billable units, above 0 */
  units: number;
  requestId: string;
  /**
   * This attempt's id (a whole number ≥ 2), kept as the request's marker when it adds: a later attempt that finds
   * the marker learns who counted, and only the attempt named by the marker may take its add back (uncount).
   */
  attempt: number;
}

/**
 * What counting did: `added` (the units are in the counter now, by this attempt), `already` (an earlier attempt or
 * a rebuild counted them: `holder` names it, 1 when unknown), `missing` (the period's counter is not held: nothing
 * added; the rebuild from the ledger must include the row, see DecisionService.report), `none` (nothing to count).
 */
export type CountOutcome =
  | { kind: 'added' }
  | { kind: 'already'; holder: number }
  | { kind: 'missing' }
  | { kind: 'none' };

/*
 * Count at release. A finished request's units go into `used` in the same atomic step that frees its slot and drops
 * its overage reservation (settle), so the next decision on the same ordered stream sees them, with or without
 * overage. Each request adds once: a marker per request id (holding the attempt that added) refuses a second add.
 * Counters lost (a Redis flush, a restart of the in-process store) are rebuilt from the ledger, which includes the
 * rows still waiting in its write window; the rebuild marks the uncounted rows it included, so their later count
 * attempts find them counted. A duplicate report whose marker was lost adds again, then learns from the ledger that
 * another attempt had counted the row and takes its own add back (uncount): counted twice for a moment, which only
 * refuses early, never admits past a limit.
 */
export interface CounterStore {
  admit(request: AdmitRequest): Promise<AdmitResult>;
  /** The binding window's position without counting anything. */
  peekWindows(windows: WindowSpec[], nowMs: number): Promise<WindowPosition>;
  /** Extends live leases; resolves with the ids it no longer holds. */
  renew(leases: LeaseRef[], ttlMs: number, nowMs: number): Promise<string[]>;
  /**
   * One atomic step: frees the lease's slot (if any), drops its reservation (if any), and counts `usage` (if any)
   * into its period's used counter unless the request's marker says it is counted already. Idempotent.
   * Settled reservations left by an older release of the policy service (during a rolling upgrade) are still
   * counted by admit and removed by that release's own add.
   */
  settle(lease: LeaseRef | undefined, usage: UsageCount | undefined, nowMs: number): Promise<CountOutcome>;
  /**
   * After the request's ledger row is committed: are its units still counted? A counter rebuilt meanwhile by
   * another replica (whose rebuild could not see this row, still in this replica's write window) lost them; they
   * are counted again then (the request's marker is gone with that counter). `already` when they are counted.
   */
  confirm(usage: UsageCount): Promise<CountOutcome>;
  /**
   * Takes back the add of `usage.attempt`, only if the request's marker still names that attempt (the counter the
   * add went to is the one held): the units stay counted once, by whoever counted them first.
   */
  uncount(usage: UsageCount): Promise<boolean>;
  /** Units used this period, as the counters hold them (rebuilt from the ledger when missing). */
  used(spec: PeriodSpec): Promise<number>;
  /** Leases held now in a scope. */
  inFlight(scope: string, nowMs: number): Promise<number>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** What a period's used counter is rebuilt from: the ledger's figure and the rows in it not yet counted. */
export interface LedgerSeed {
  /** live billable units of the period: committed rows and rows still waiting in the ledger's write window */
  units: number;
  /** request ids in `units` whose committed rows are not marked counted: the rebuild marks them as its own */
  uncounted: readonly string[];
  /**
   * request ids in `units` whose rows still wait in this replica's write window: the rebuild sets their markers but
   * does not mark the rows, which their own reports mark once committed. A mark queued behind such a row would
   * commit with it, and a counter another replica rebuilt before that commit (without the row) would take the row
   * for counted: the report's own count, still to come, would then be taken back as a second one.
   */
  waiting: readonly string[];
}

/** Where counters come from when the store has lost them: the durable ledger. */
export interface UsageSource {
  load(accountId: string, periodStartMs: number, periodEndMs: number): Promise<LedgerSeed>;
  /** A rebuild that included these uncounted rows was stored: mark them counted (holder 1). */
  included(requestIds: readonly string[]): void;
}

/** The marker holder recorded for a rebuild's rows, and for counts whose attempt is not known. */
export const REBUILD_HOLDER = 1;

/** A holder read back from a marker: a whole number ≥ 1, or REBUILD_HOLDER for anything else (an older release's '1'). */
export function holderOf(value: unknown): number {
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 1 ? n : REBUILD_HOLDER;
}

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
