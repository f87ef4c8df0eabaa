import {
  allowanceAdmits,
  REBUILD_HOLDER,
  retryAfterSeconds,
  windowOf,
  type AdmitRequest,
  type AdmitResult,
  type CounterStore,
  type CountOutcome,
  type LeaseRef,
  type PeriodSpec,
  type UsageCount,
  type UsageSource,
  type WindowPosition,
  type WindowSpec,
} from './counter-store.js';

interface Lease {
  scope: string;
  expiresMs: number;
  accountId: string | null;
  periodId: string | null;
  reservedUnits: number;
}

/** A request's marker: which attempt counted it, and until when the marker is kept. */
interface Marker {
  holder: number;
  untilMs: number;
}

/** As long as the Redis store keeps its markers. */
const MARKER_TTL_MS = 3_600_000;

/** In-process counters: the embedded default for a single node. Synchronous inside, so admit() is atomic. */
export class MemoryCounterStore implements CounterStore {
  private readonly windows = new Map<string, { index: number; count: number }>();
  private readonly leases = new Map<string, Lease>();
  private readonly usedByPeriod = new Map<string, number>();
  /** By request id: who counted it, so a repeated count adds nothing. */
  private readonly markers = new Map<string, Marker>();

  constructor(private readonly source: UsageSource) {}

  async admit(r: AdmitRequest): Promise<AdmitResult> {
    // The only await: a missing counter is rebuilt first; everything after it runs in one turn, so admit is atomic.
    if (r.allowance !== undefined && !this.usedByPeriod.has(usedKey(r.allowance))) await this.rebuild(r.allowance);
    const position = this.position(r.windows, r.nowMs);
    const held = r.concurrency === undefined ? undefined : this.leases.get(r.concurrency.leaseId);
    // The same decision attempt again (retried): admitted and counted already.
    if (held !== undefined && held.expiresMs > r.nowMs) return { ok: true, window: position, leaseExpiresMs: held.expiresMs };
    if (position.remaining <= 0) {
      return { ok: false, reason: 'rpm', window: position, retryAfterSeconds: retryAfterSeconds(r.nowMs) };
    }
    if (r.concurrency !== undefined && this.countLeases(r.concurrency.scope, r.nowMs) >= r.concurrency.limit) {
      return { ok: false, reason: 'concurrency', window: position, retryAfterSeconds: 1 };
    }
    if (r.allowance !== undefined) {
      const a = r.allowance;
      const used = this.usedByPeriod.get(usedKey(a)) ?? 0;
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

  async settle(lease: LeaseRef | undefined, usage: UsageCount | undefined, nowMs: number): Promise<CountOutcome> {
    if (lease !== undefined) this.leases.delete(lease.leaseId);
    if (usage === undefined || usage.units <= 0) return { kind: 'none' };
    const k = usedKey(usage.period);
    const held = this.usedByPeriod.get(k);
    if (held === undefined) return { kind: 'missing' };
    const marker = this.markers.get(usage.requestId);
    if (marker !== undefined && marker.untilMs > nowMs) return { kind: 'already', holder: marker.holder };
    this.mark(usage.requestId, usage.attempt, nowMs);
    this.usedByPeriod.set(k, held + usage.units);
    return { kind: 'added' };
  }

  /** One process: no other replica rebuilds this store's counters, but the same rule holds (see CounterStore). */
  async confirm(usage: UsageCount): Promise<CountOutcome> {
    const marker = this.markers.get(usage.requestId);
    if (marker !== undefined) return { kind: 'already', holder: marker.holder };
    return this.settle(undefined, usage, Date.now());
  }

  async uncount(usage: UsageCount): Promise<boolean> {
    const marker = this.markers.get(usage.requestId);
    if (marker === undefined || marker.holder !== usage.attempt) return false;
    const k = usedKey(usage.period);
    const held = this.usedByPeriod.get(k);
    if (held !== undefined) this.usedByPeriod.set(k, held - usage.units);
    marker.holder = REBUILD_HOLDER;
    return true;
  }

  async used(spec: PeriodSpec): Promise<number> {
    if (!this.usedByPeriod.has(usedKey(spec))) await this.rebuild(spec);
    return this.usedByPeriod.get(usedKey(spec)) ?? 0;
  }

  async inFlight(scope: string, nowMs: number): Promise<number> {
    return this.countLeases(scope, nowMs);
  }

  async ping(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    this.leases.clear();
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

  /** Loads a missing counter from the ledger; if another load stored one meanwhile, that one stands. */
  private async rebuild(spec: PeriodSpec): Promise<void> {
    const seed = await this.source.load(spec.accountId, spec.periodStartMs, spec.periodEndMs);
    const k = usedKey(spec);
    if (this.usedByPeriod.has(k)) return;
    this.usedByPeriod.set(k, seed.units);
    const now = Date.now();
    for (const id of [...seed.uncounted, ...seed.waiting]) this.mark(id, REBUILD_HOLDER, now);
    if (seed.uncounted.length > 0) this.source.included(seed.uncounted);
  }

  private mark(requestId: string, holder: number, nowMs: number): void {
    this.markers.set(requestId, { holder, untilMs: nowMs + MARKER_TTL_MS });
    if (this.markers.size > 10_000) for (const [id, m] of this.markers) if (m.untilMs <= nowMs) this.markers.delete(id);
  }

  private countLeases(scope: string, nowMs: number): number {
    let n = 0;
    for (const [id, lease] of this.leases) {
      if (lease.expiresMs <= nowMs) this.leases.delete(id);
      else if (lease.scope === scope) n += 1;
    }
    return n;
  }

  /** Worst cases of the requests in flight in this period. */
  private reserved(accountId: string, periodId: string, nowMs: number): number {
    let n = 0;
    for (const lease of this.leases.values()) {
      if (lease.expiresMs > nowMs && lease.accountId === accountId && lease.periodId === periodId) n += lease.reservedUnits;
    }
    return n;
  }
}

function usedKey(spec: PeriodSpec): string {
  return `${spec.accountId}|${spec.periodId}`;
}
