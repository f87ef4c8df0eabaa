import type { AdmitRequest, AdmitResult, CounterStore, CountOutcome, LeaseRef, PeriodSpec, UsageCount, WindowPosition, WindowSpec } from './counter-store.js';
import type { PolicyMetrics } from '../policy-metrics.js';

/**
 * A counter store that times its calls and counts their failures (metrics), and keeps the leases it granted,
 * with their expiry, so the service can say how many it holds whichever store is underneath.
 */
export class InstrumentedCounterStore implements CounterStore {
  private readonly leases = new Map<string, number>();

  constructor(
    private readonly inner: CounterStore,
    private readonly metrics: PolicyMetrics,
  ) {}

  /** Leases granted here and neither released nor past their expiry. */
  leasesHeld(nowMs = Date.now()): number {
    for (const [id, expires] of this.leases) if (expires <= nowMs) this.leases.delete(id);
    return this.leases.size;
  }

  async admit(r: AdmitRequest): Promise<AdmitResult> {
    const result = await this.timed('admit', this.inner.admit(r));
    if (result.ok && r.concurrency !== undefined) this.leases.set(r.concurrency.leaseId, result.leaseExpiresMs);
    return result;
  }

  peekWindows(windows: WindowSpec[], nowMs: number): Promise<WindowPosition> {
    return this.timed('peek', this.inner.peekWindows(windows, nowMs));
  }

  async renew(leases: LeaseRef[], ttlMs: number, nowMs: number): Promise<string[]> {
    const gone = await this.timed('renew', this.inner.renew(leases, ttlMs, nowMs));
    for (const l of leases) if (this.leases.has(l.leaseId)) this.leases.set(l.leaseId, nowMs + ttlMs);
    for (const id of gone) this.leases.delete(id);
    return gone;
  }

  settle(lease: LeaseRef | undefined, usage: UsageCount | undefined, nowMs: number): Promise<CountOutcome> {
    // Sent before anything is awaited: a release must reach the store in the order the caller issued it.
    const done = this.timed('settle', this.inner.settle(lease, usage, nowMs));
    if (lease !== undefined) this.leases.delete(lease.leaseId);
    return done;
  }

  confirm(usage: UsageCount): Promise<CountOutcome> {
    return this.timed('confirm', this.inner.confirm(usage));
  }

  uncount(usage: UsageCount): Promise<boolean> {
    return this.timed('uncount', this.inner.uncount(usage));
  }

  used(spec: PeriodSpec): Promise<number> {
    return this.timed('used', this.inner.used(spec));
  }

  inFlight(scope: string, nowMs: number): Promise<number> {
    return this.timed('in_flight', this.inner.inFlight(scope, nowMs));
  }

  ping(): Promise<boolean> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private async timed<T>(op: string, call: Promise<T>): Promise<T> {
    const stop = this.metrics.counterStoreSeconds.startTimer({ op });
    try {
      return await call;
    } catch (err) {
      this.metrics.counterStoreErrors.inc({ op });
      throw err;
    } finally {
      stop();
    }
  }
}
