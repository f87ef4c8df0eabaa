import { randomUUID } from 'node:crypto';
import {
  holderOf,
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
import { accountOf, RedisKeys } from './redis-keys.js';
import type { RedisClient } from './redis-script.js';
import { admitScript, beginRebuildScript, rebuildUsedScript, renewScript, settleScript, uncountScript } from './redis-scripts.js';

type AdmitCode = 'ok' | 'held' | 'rpm' | 'concurrency' | 'allowance' | 'load';

export interface RedisCounterStoreOptions {
  /** put before every key; lets several deployments or test runs share one Redis */
  keyPrefix?: string;
}

/**
 * How long a request's "units added" marker lasts: retries of a report come within seconds to minutes. A later
 * duplicate finds the ledger row counted by another attempt and takes its own add back (CounterStore).
 */
const APPLIED_MARKER_TTL_MS = 3_600_000;
/** A window counter outlives its minute by a minute, then Redis drops it. */
const WINDOW_TTL_SECONDS = 120;
/** A lease set outlives its last lease by this much (housekeeping only: expiry is the members' scores). */
const LEASE_KEY_GRACE_MS = 60_000;
/** How long a rebuild's token waits for its ledger read; a read that takes longer reads again. */
const REBUILD_TOKEN_TTL_MS = 60_000;
/** Ledger reads one rebuild makes at most, each spanning a loss of Redis's data, before it gives up. */
const REBUILD_READS = 5;
/** A used counter lives for a period and a week; after that it is rebuilt from the ledger if still needed. */
const USED_KEY_GRACE_MS = 7 * 24 * 3_600_000;

/**
 * Counters in Redis (one server or a cluster), shared by every replica of the policy service. Each admit is one
 * Lua script, so it is atomic and all or nothing; every key of one call carries the account's hash tag.
 * The used units of a period are rebuilt from the ledger whenever Redis has lost them.
 */
export class RedisCounterStore implements CounterStore {
  private readonly keys: RedisKeys;

  constructor(
    private readonly client: RedisClient,
    private readonly source: UsageSource,
    options: RedisCounterStoreOptions = {},
  ) {
    this.keys = new RedisKeys(options.keyPrefix ?? 'gw:');
  }

  async admit(r: AdmitRequest): Promise<AdmitResult> {
    const { index, resetUnix } = windowOf(r.nowMs);
    // Same as the in-process store: with no window there is nothing to admit against.
    if (r.windows.length === 0) {
      return { ok: false, reason: 'rpm', window: { limit: 0, remaining: 0, resetUnix }, retryAfterSeconds: retryAfterSeconds(r.nowMs) };
    }
    sameAccount(r);
    let reply = await this.runAdmit(r, index);
    if (reply.code === 'load' && r.allowance !== undefined) {
      // The counter is missing: rebuild it from the ledger (only if still missing), then admit again.
      await this.rebuild(r.allowance);
      reply = await this.runAdmit(r, index);
    }
    const position = bindingWindow(r.windows, reply.counts, resetUnix);
    switch (reply.code) {
      case 'ok':
        return { ok: true, window: { ...position, remaining: position.remaining - 1 }, leaseExpiresMs: r.concurrency === undefined ? 0 : r.nowMs + r.concurrency.ttlMs };
      case 'held':
        // Counted by the first attempt: the window already holds it. The lease keeps its expiry until renewed.
        return { ok: true, window: position, leaseExpiresMs: r.nowMs + (r.concurrency?.ttlMs ?? 0) };
      case 'rpm':
        return { ok: false, reason: 'rpm', window: position, retryAfterSeconds: retryAfterSeconds(r.nowMs) };
      case 'concurrency':
        return { ok: false, reason: 'concurrency', window: position, retryAfterSeconds: 1 };
      case 'allowance':
        return { ok: false, reason: 'allowance', window: position, retryAfterSeconds: 0 };
      case 'load':
        throw new Error('counter store: the used counter is still missing after loading it');
    }
  }

  async peekWindows(windows: WindowSpec[], nowMs: number): Promise<WindowPosition> {
    const { index, resetUnix } = windowOf(nowMs);
    const counts = new Array<number>(windows.length).fill(0);
    // One MGET per account: keys of one account share a hash slot, keys of two may not.
    const byAccount = groupBy(windows.map((w, i) => ({ i, key: this.keys.window(w.scope, index), account: accountOf(w.scope) })), (x) => x.account);
    await Promise.all(
      [...byAccount.values()].map(async (group) => {
        const values = await this.client.mget(...group.map((g) => g.key));
        group.forEach((g, j) => (counts[g.i] = Number(values[j] ?? 0)));
      }),
    );
    return bindingWindow(windows, counts, resetUnix);
  }

  async renew(leases: LeaseRef[], ttlMs: number, nowMs: number): Promise<string[]> {
    const gone = new Set<string>();
    await Promise.all(
      [...groupBy(leases, (l) => l.scope)].map(async ([scope, refs]) => {
        const reply = await renewScript.run(this.client, this.leaseKeys(scope), [
          nowMs,
          nowMs + ttlMs,
          ttlMs + LEASE_KEY_GRACE_MS,
          ...refs.map((l) => l.leaseId),
        ]);
        for (const id of asArray(reply)) gone.add(String(id));
      }),
    );
    return leases.map((l) => l.leaseId).filter((id) => gone.has(id));
  }

  async settle(lease: LeaseRef | undefined, usage: UsageCount | undefined, _nowMs: number): Promise<CountOutcome> {
    const accountId = lease !== undefined ? accountOf(lease.scope) : usage?.period.accountId;
    if (accountId === undefined) return { kind: 'none' };
    // A lease and its usage belong to one account (one hash slot); live usage without a lease names the live scope.
    const scope = lease?.scope ?? `${accountId}:live`;
    const keys = [
      this.keys.leases(scope),
      this.keys.reservations(accountId),
      this.keys.reservedUnits(accountId),
      // Without usage, the script counts nothing: the used and marker keys are named only to stay in the slot.
      usage === undefined ? this.keys.used({ accountId, periodId: '-' }) : this.keys.used(usage.period),
      this.keys.applied(accountId, usage?.requestId ?? '-'),
    ];
    if (usage !== undefined && !(Number.isSafeInteger(usage.units) && usage.attempt >= 2)) {
      throw new Error(`usage to count must be whole units with an attempt id (got ${usage.units}, ${usage.attempt})`);
    }
    const reply = asArray(
      await settleScript.run(this.client, keys, [lease?.leaseId ?? '', usage?.units ?? 0, usage?.attempt ?? 0, APPLIED_MARKER_TTL_MS]),
    );
    switch (reply[0]) {
      case 'added':
        return { kind: 'added' };
      case 'already':
        return { kind: 'already', holder: holderOf(reply[1]) };
      case 'missing':
        return { kind: 'missing' };
      case 'none':
        return { kind: 'none' };
      default:
        throw new Error(`counter store: unexpected settle reply ${String(reply[0])}`);
    }
  }

  /**
   * The confirmations asked for in one turn (the reports of one ledger commit) are read with one MGET of their
   * markers per account; only a request whose marker is gone (its counter was flushed and rebuilt) is counted again.
   */
  confirm(usage: UsageCount): Promise<CountOutcome> {
    return new Promise((resolve, reject) => {
      this.confirming.push({ usage, resolve, reject });
      if (this.confirming.length === 1) setImmediate(() => void this.confirmBatch());
    });
  }

  private confirming: Array<{ usage: UsageCount; resolve: (o: CountOutcome) => void; reject: (err: unknown) => void }> = [];

  private async confirmBatch(): Promise<void> {
    const batch = this.confirming;
    this.confirming = [];
    await Promise.all(
      [...groupBy(batch, (b) => b.usage.period.accountId)].map(async ([accountId, group]) => {
        try {
          const markers = await this.client.mget(...group.map((b) => this.keys.applied(accountId, b.usage.requestId)));
          group.forEach((b, i) => {
            const held = markers[i];
            if (held !== null && held !== undefined) b.resolve({ kind: 'already', holder: holderOf(held) });
            else this.settle(undefined, b.usage, Date.now()).then(b.resolve, b.reject);
          });
        } catch (err) {
          for (const b of group) b.reject(err);
        }
      }),
    );
  }

  async uncount(usage: UsageCount): Promise<boolean> {
    const keys = [this.keys.used(usage.period), this.keys.applied(usage.period.accountId, usage.requestId)];
    return Number(await uncountScript.run(this.client, keys, [usage.attempt, usage.units])) === 1;
  }

  async used(spec: PeriodSpec): Promise<number> {
    const held = await this.client.get(this.keys.used(spec));
    if (held !== null) return Number(held);
    await this.rebuild(spec);
    const rebuilt = await this.client.get(this.keys.used(spec));
    if (rebuilt === null) throw new Error('counter store: the used counter is still missing after rebuilding it');
    return Number(rebuilt);
  }

  async inFlight(scope: string, nowMs: number): Promise<number> {
    return this.client.zcount(this.keys.leases(scope), `(${nowMs}`, '+inf');
  }

  async ping(): Promise<boolean> {
    try {
      return (await this.client.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }

  /**
   * Rebuilds a missing used counter from the ledger (its committed rows and those in its write window), only if
   * still missing; the uncounted rows the figure includes get markers in the same step (so no count attempt of theirs
   * adds them again), and those committed are then marked counted in the ledger (LedgerSeed).
   */
  private async rebuild(spec: PeriodSpec): Promise<void> {
    // The figure is read before it is stored. Were another rebuild stored meanwhile, counted into and then lost
    // (a flush), this figure would lack those counts: the token, registered before the read and dropped by every
    // store and by the flush, tells; the ledger is read again then.
    const rebuilding = this.keys.rebuilding(spec);
    for (let read = 1; ; read += 1) {
      const token = randomUUID();
      await beginRebuildScript.run(this.client, [rebuilding], [token, REBUILD_TOKEN_TTL_MS]);
      const seed = await this.source.load(spec.accountId, spec.periodStartMs, spec.periodEndMs);
      const markers = [...seed.uncounted, ...seed.waiting].map((id) => this.keys.applied(spec.accountId, id));
      const stored = Number(await rebuildUsedScript.run(this.client, [this.keys.used(spec), rebuilding, ...markers], [
        seed.units,
        usedTtlMs(spec),
        APPLIED_MARKER_TTL_MS,
        token,
      ]));
      if (stored === 1 && seed.uncounted.length > 0) this.source.included(seed.uncounted);
      if (stored !== -1) return;
      if (read === REBUILD_READS) throw new Error('counter store: Redis lost its data during every rebuild of a used counter');
    }
  }

  private async runAdmit(r: AdmitRequest, index: number): Promise<{ code: AdmitCode; counts: number[] }> {
    const keys = r.windows.map((w) => this.keys.window(w.scope, index));
    const c = r.concurrency;
    const a = r.allowance;
    if (c !== undefined) keys.push(this.keys.leases(c.scope));
    if (a !== undefined) keys.push(this.keys.used(a), this.keys.reservations(a.accountId), this.keys.reservedUnits(a.accountId));
    const args: (string | number)[] = [
      r.nowMs,
      r.windows.length,
      WINDOW_TTL_SECONDS,
      c === undefined ? 0 : 1,
      c?.limit ?? 0,
      c?.leaseId ?? '',
      c === undefined ? 0 : r.nowMs + c.ttlMs,
      c === undefined ? 0 : c.ttlMs + LEASE_KEY_GRACE_MS,
      a === undefined ? 0 : 1,
      a?.overageAllowed === true ? 1 : 0,
      a?.allowance ?? 0,
      a?.ceiling ?? 0,
      a?.reserveUnits ?? 0,
      a?.periodId ?? '',
      // No seed: a missing counter is answered `load` and rebuilt by rebuild() (the argument stays for older releases).
      '',
      a === undefined ? 0 : usedTtlMs(a),
      ...r.windows.map((w) => w.limit),
    ];
    const reply = asArray(await admitScript.run(this.client, keys, args));
    const code = reply[0];
    if (code !== 'ok' && code !== 'held' && code !== 'rpm' && code !== 'concurrency' && code !== 'allowance' && code !== 'load') {
      throw new Error(`counter store: unexpected admit reply ${String(code)}`);
    }
    return { code, counts: reply.slice(1).map(Number) };
  }

  private leaseKeys(scope: string): string[] {
    const accountId = accountOf(scope);
    return [this.keys.leases(scope), this.keys.reservations(accountId), this.keys.reservedUnits(accountId)];
  }
}

/** The binding window: the one with the fewest requests left (the first of equals). */
function bindingWindow(windows: WindowSpec[], counts: number[], resetUnix: number): WindowPosition {
  let best: WindowPosition | undefined;
  windows.forEach((w, i) => {
    const p = { limit: w.limit, remaining: Math.max(0, w.limit - (counts[i] ?? 0)), resetUnix };
    if (best === undefined || p.remaining < best.remaining) best = p;
  });
  return best ?? { limit: 0, remaining: 0, resetUnix };
}

/** One script touches one account's keys only (one hash slot on a cluster). */
function sameAccount(r: AdmitRequest): void {
  const accountId = accountOf(r.windows[0]?.scope ?? '');
  const others = [...r.windows.map((w) => w.scope), ...(r.concurrency === undefined ? [] : [r.concurrency.scope])].map(accountOf);
  if (r.allowance !== undefined) others.push(r.allowance.accountId);
  if (others.some((o) => o !== accountId)) throw new Error('counter store: one admit covers the counters of one account only');
}

function usedTtlMs(spec: PeriodSpec): number {
  return Math.max(0, spec.periodEndMs - spec.periodStartMs) + USED_KEY_GRACE_MS;
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = keyOf(item);
    const group = groups.get(k);
    if (group === undefined) groups.set(k, [item]);
    else group.push(item);
  }
  return groups;
}

function asArray(reply: unknown): unknown[] {
  if (!Array.isArray(reply)) throw new Error('counter store: unexpected script reply');
  return reply;
}
