import {
  allowanceAdmits,
  retryAfterSeconds,
  windowOf,
  type AdmitRequest,
  type AdmitResult,
  type AllowanceSpec,
  type CounterStore,
  type LeaseRef,
  type Settlement,
  type UsedUnitsLoader,
  type WindowPosition,
  type WindowSpec,
  settledUnits,
} from './counter-store.js';

interface Lease {
  scope: string;
  expiresMs: number;
  accountId: string | null;
  periodId: string | null;
  reservedUnits: number;
}

/** A released lease's reservation, settled to the real units, waiting for addUsed (see CounterStore). */
interface SettledReservation {
  accountId: string;
  periodId: string;
  units: number;
  /** the lease's expiry: dropped by admit after it, should addUsed never come */
  expiresMs: number;
}

type PeriodSpec = Pick<AllowanceSpec, 'accountId' | 'periodId' | 'periodStartMs' | 'periodEndMs'>;

/** In-process counters: the embedded default for a single node. Synchronous inside, so admit() is atomic. */
export class MemoryCounterStore implements CounterStore {
  private readonly windows = new Map<string, { index: number; count: number }>();
  private readonly leases = new Map<string, Lease>();
  /** By lease id: reservations of released leases whose units are not in `usedByPeriod` yet. */
  private readonly settled = new Map<string, SettledReservation>();
  private readonly usedByPeriod = new Map<string, number>();
  /** Requests whose units were added (for an hour), so a repeated addUsed adds nothing. */
  private readonly applied = new Map<string, number>();

  constructor(private readonly loadUsed: UsedUnitsLoader) {}

  async admit(r: AdmitRequest): Promise<AdmitResult> {
    const position = this.position(r.windows, r.nowMs);
    if (position.remaining <= 0) {
      return { ok: false, reason: 'rpm', window: position, retryAfterSeconds: retryAfterSeconds(r.nowMs) };
    }
    if (r.concurrency !== undefined && this.countLeases(r.concurrency.scope, r.nowMs) >= r.concurrency.limit) {
      return { ok: false, reason: 'concurrency', window: position, retryAfterSeconds: 1 };
    }
    if (r.allowance !== undefined) {
      const a = r.allowance;
      const used = this.usedSync(a);
      if (!allowanceAdmits(a, used, this.reserved(a.accountId, a.periodId, r.nowMs))) {
        return { ok: false, reason: 'allowance', window: position, retryAfterSeconds: 0 };
      }
    }
    // Every check passed: count and take the slot together.
    const { index } = windowOf(r.nowMs);
    for (const w of r.windows) {
      const cur = this.windows.get(w.scope);
      this.windows.set(w.scope, { index, count: cur !== undefined && cur.index === index ? cur.count + 1 : 1 });
    }
    let leaseExpiresMs = 0;
    if (r.concurrency !== undefined) {
      leaseExpiresMs = r.nowMs + r.concurrency.ttlMs;
      this.leases.set(r.concurrency.leaseId, {
        scope: r.concurrency.scope,
        expiresMs: leaseExpiresMs,
        accountId: r.allowance?.accountId ?? null,
        periodId: r.allowance?.periodId ?? null,
        reservedUnits: r.allowance?.reserveUnits ?? 0,
      });
    }
    return { ok: true, window: { ...position, remaining: position.remaining - 1 }, leaseExpiresMs };
  }

  async peekWindows(windows: WindowSpec[], nowMs: number): Promise<WindowPosition> {
    return this.position(windows, nowMs);
  }

  async renew(leases: LeaseRef[], ttlMs: number, nowMs: number): Promise<string[]> {
    const unknown: string[] = [];
    for (const ref of leases) {
      const lease = this.leases.get(ref.leaseId);
      if (lease === undefined || lease.expiresMs <= nowMs) {
        this.leases.delete(ref.leaseId);
        unknown.push(ref.leaseId);
      } else {
        lease.expiresMs = nowMs + ttlMs;
      }
    }
    return unknown;
  }

  async release(ref: LeaseRef, _nowMs: number, settled?: Settlement): Promise<void> {
    const lease = this.leases.get(ref.leaseId);
    this.leases.delete(ref.leaseId);
    // Only a reservation still held is settled; a lease holding none (already released, test traffic, no
    // overage) gets none, and 0 real units drop it.
    if (lease === undefined || lease.accountId === null || lease.reservedUnits <= 0) return;
    const units = settledUnits(settled);
    if (settled === undefined || units === 0) return;
    this.settled.set(ref.leaseId, {
      accountId: lease.accountId,
      periodId: settled.periodId,
      units,
      expiresMs: lease.expiresMs,
    });
  }

  /**
   * Adds only to a counter already held. A missing one is loaded from the ledger when next read, and the ledger
   * already holds this usage (it is written before addUsed): loading then adding would count it twice.
   * The lease's settled reservation goes in the same step, whether or not anything is added.
   */
  async addUsed(spec: PeriodSpec, units: number, requestId?: string, leaseId?: string): Promise<void> {
    if (leaseId !== undefined) this.settled.delete(leaseId);
    const k = usedKey(spec);
    const held = this.usedByPeriod.get(k);
    if (held === undefined) return;
    if (requestId !== undefined) {
      const now = Date.now();
      if ((this.applied.get(requestId) ?? 0) > now) return;
      this.applied.set(requestId, now + 3_600_000);
      if (this.applied.size > 10_000) for (const [id, until] of this.applied) if (until <= now) this.applied.delete(id);
    }
    this.usedByPeriod.set(k, held + units);
  }

  async used(spec: PeriodSpec): Promise<number> {
    return this.usedSync(spec);
  }

  async inFlight(scope: string, nowMs: number): Promise<number> {
    return this.countLeases(scope, nowMs);
  }

  async ping(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    this.leases.clear();
    this.settled.clear();
  }

  /** The binding window: the one with the fewest requests left. */
  private position(windows: WindowSpec[], nowMs: number): WindowPosition {
    const { index, resetUnix } = windowOf(nowMs);
    let best: WindowPosition | undefined;
    for (const w of windows) {
      const cur = this.windows.get(w.scope);
      const count = cur !== undefined && cur.index === index ? cur.count : 0;
      const p = { limit: w.limit, remaining: Math.max(0, w.limit - count), resetUnix };
      if (best === undefined || p.remaining < best.remaining) best = p;
    }
    return best ?? { limit: 0, remaining: 0, resetUnix };
  }

  private usedSync(spec: PeriodSpec): number {
    const k = usedKey(spec);
    let v = this.usedByPeriod.get(k);
    if (v === undefined) {
      v = this.loadUsed(spec.accountId, spec.periodStartMs, spec.periodEndMs);
      this.usedByPeriod.set(k, v);
    }
    return v;
  }

  private countLeases(scope: string, nowMs: number): number {
    let n = 0;
    for (const [id, lease] of this.leases) {
      if (lease.expiresMs <= nowMs) this.leases.delete(id);
      else if (lease.scope === scope) n += 1;
    }
    return n;
  }

  /** Worst cases of the requests in flight plus the settled units of those released but not yet counted. */
  private reserved(accountId: string, periodId: string, nowMs: number): number {
    let n = 0;
    for (const lease of this.leases.values()) {
      if (lease.expiresMs > nowMs && lease.accountId === accountId && lease.periodId === periodId) n += lease.reservedUnits;
    }
    for (const [id, s] of this.settled) {
      if (s.expiresMs <= nowMs) this.settled.delete(id);
      else if (s.accountId === accountId && s.periodId === periodId) n += s.units;
    }
    return n;
  }
}

function usedKey(spec: PeriodSpec): string {
  return `${spec.accountId}|${spec.periodId}`;
}
