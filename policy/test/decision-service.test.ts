import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type UsageReport } from '@gateway/shared';
import { billingPeriod } from '../src/billing.js';
import { ModelCatalogue } from '../src/catalogue.js';
import type { CounterStore } from '../src/counters/counter-store.js';
import { MemoryCounterStore } from '../src/counters/memory-counter-store.js';
import { SqliteStore } from '../src/db/sqlite-store.js';
import { openDatabase, type Db } from '../src/db/database.js';
import { UsageLedger } from '../src/db/usage-ledger.js';
import { DecisionService } from '../src/decision-service.js';
import { KeyCache } from '../src/key-cache.js';
import { LastUsedTracker } from '../src/last-used.js';

const log = createLogger('test', 'silent');

/** The in-process store, with addUsed failing while `failing` is set (Redis down between ledger and counter). */
class FlakyCounters extends MemoryCounterStore {
  failing = false;
  override async addUsed(...args: Parameters<CounterStore['addUsed']>): Promise<void> {
    if (this.failing) throw new Error('counter store unreachable');
    return super.addUsed(...args);
  }
}

/** The in-process store, whose addUsed waits while `gate` is set (a slow Redis, or a report being retried). */
class GatedCounters extends MemoryCounterStore {
  gate: Promise<void> | undefined;
  open: () => void = () => undefined;
  private arrived: () => void = () => undefined;
  /** Resolves when an addUsed is waiting at the gate. */
  readonly blocked = new Promise<void>((resolve) => (this.arrived = resolve));
  override async addUsed(...args: Parameters<CounterStore['addUsed']>): Promise<void> {
    if (this.gate !== undefined) {
      this.arrived();
      await this.gate;
    }
    return super.addUsed(...args);
  }
}

describe('decision service: the ledger and the allowance counter agree', function () {
  let dir: string;
  let db: Db;
  let ledger: UsageLedger;
  let keys: KeyCache;
  let admin: SqliteStore;
  let accountId: string;
  let keyId: string;

  beforeEach(async function () {
    dir = mkdtempSync(join(tmpdir(), 'gw-ds-'));
    db = openDatabase(join(dir, 'g.sqlite'));
    admin = new SqliteStore(db);
    await admin.createPlan({ name: 'p', residency: 'eu', requests_per_minute: 1000, concurrency: 10, allowance: 1_000_000, overage_allowed: false, overage_ceiling: 0, models: null });
    accountId = (await admin.createAccount('a', 'p')).id;
    keyId = (await admin.createKey({ account_id: accountId, name: 'k', environment: 'live', residency: 'eu', privacy_mode: 'off' })).record.id;
    ledger = new UsageLedger(db);
    keys = new KeyCache(admin, log);
    await keys.start(10_000);
  });
  afterEach(function () {
    keys.stop();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const service = (counters: CounterStore) =>
    new DecisionService({ keys, catalogue: ModelCatalogue.load(), counters, ledger, lastUsed: new LastUsedTracker(() => undefined), leaseTtlMs: 30_000, log });
  const report = (id: string, input: number, output: number): UsageReport => ({
    request_id: id, decision_id: 'd', key_id: keyId, account_id: accountId, environment: 'live', model: 'alpha-sonnet-5',
    usage: { input_tokens: input, output_tokens: output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    lease_id: '', reserved_units: 0, outcome: 'ok', finished_unix_ms: Date.now(),
  });
  const periodOf = () => {
    const p = billingPeriod(Date.now());
    return { accountId, periodId: p.id, periodStartMs: p.startMs, periodEndMs: p.endMs };
  };

  it('counts a report whose counter update failed when it is retried, and only once', async function () {
    const counters = new FlakyCounters((a, s, e) => ledger.seedUsedUnits(a, s, e));
    const ds = service(counters);
    expect(await counters.used(periodOf())).to.equal(0); // the counter is loaded (from an empty ledger)
    await ds.report(report('r1', 100, 50));
    expect(await counters.used(periodOf())).to.equal(150);
    counters.failing = true;
    let failed = false;
    await ds.report(report('r2', 1000, 500)).catch(() => (failed = true));
    expect(failed).to.equal(true);
    expect(ledger.usedUnits(accountId, periodOf().periodStartMs)).to.equal(1650);
    expect(await counters.used(periodOf())).to.equal(150);
    counters.failing = false;
    const retry = await ds.report(report('r2', 1000, 500));
    expect(retry.recorded).to.equal(false);
    expect(await counters.used(periodOf())).to.equal(1650);
    await ds.report(report('r2', 1000, 500));
    await ds.report(report('r1', 100, 50));
    expect(await counters.used(periodOf())).to.equal(1650);
  });

  it('does not add an uncounted row again once a rebuild from the ledger included it', async function () {
    const flaky = new FlakyCounters((a, s, e) => ledger.seedUsedUnits(a, s, e));
    await service(flaky).report(report('r1', 10, 10));
    flaky.failing = true;
    await service(flaky).report(report('r2', 40, 60)).catch(() => undefined);
    // the counters are lost (a Redis flush); a fresh store rebuilds from the ledger, r2 included
    const fresh = new MemoryCounterStore((a, s, e) => ledger.seedUsedUnits(a, s, e));
    expect(await fresh.used(periodOf())).to.equal(120);
    await service(fresh).report(report('r2', 40, 60));
    expect(await fresh.used(periodOf())).to.equal(120);
  });

  it('keeps the overage ceiling while a finished request waits for its units to be counted (settle, then count)', async function () {
    // allowance 1000 + ceiling 100: a request is admitted while used + reserved + its worst case ≤ 1100.
    await admin.createPlan({ name: 'o', residency: 'eu', requests_per_minute: 1000, concurrency: 10, allowance: 1000, overage_allowed: true, overage_ceiling: 100, models: null });
    const overAccount = (await admin.createAccount('o', 'o')).id;
    const { key } = await admin.createKey({ account_id: overAccount, name: 'k', environment: 'live', residency: 'eu', privacy_mode: 'off' });
    const counters = new GatedCounters((a, s, e) => ledger.seedUsedUnits(a, s, e));
    const ds = service(counters);
    const decide = (maxTokens: number) => ds.decide({
      caller: { api_key: key, source_ip: '203.0.113.9', request_id: 'r' },
      operation: 'CREATE_MESSAGE', model: 'alpha-sonnet-5', stream: false, max_tokens: maxTokens, input_tokens_estimate: 100,
    });

    const first = await decide(500); // reserves 100 + 500 = 600
    expect(first.outcome).to.equal('allow');
    counters.gate = new Promise((resolve) => (counters.open = resolve));
    const reported = ds.report({
      ...report('r1', 300, 200), account_id: overAccount, key_id: first.allow!.key.key_id, lease_id: first.allow!.lease_id, reserved_units: 600,
    });
    await counters.blocked; // the ledger row is committed; its units are not in the used counter yet
    // Settled to 500: a worst case of 601 would pass the ceiling (it was admitted when the release dropped the
    // reservation), one of 600 fits exactly (it was refused while the 600 reservation was still held).
    expect((await decide(501)).deny?.http_status).to.equal(402);
    const fitting = await decide(500);
    expect(fitting.outcome).to.equal('allow');
    await ds.report({ ...report('r2', 0, 0), account_id: overAccount, key_id: first.allow!.key.key_id, lease_id: fitting.allow!.lease_id });

    counters.open();
    await reported;
    const p = billingPeriod(Date.now());
    expect(await counters.used({ accountId: overAccount, periodId: p.id, periodStartMs: p.startMs, periodEndMs: p.endMs })).to.equal(500);
    // Counted once: 500 used and nothing reserved.
    expect((await decide(501)).deny?.http_status).to.equal(402);
    expect((await decide(500)).outcome).to.equal('allow');
  });

  it('keeps per-period totals equal to the ledger\'s rows', async function () {
    const ds = service(new MemoryCounterStore((a, s, e) => ledger.seedUsedUnits(a, s, e)));
    for (let i = 0; i < 5; i += 1) await ds.report(report(`t${i}`, 10 * i, 5));
    await ds.report(report('t1', 999, 999)); // a replay changes nothing
    const rows = db.prepare('SELECT SUM(billable_units) AS u, COUNT(*) AS n FROM usage_ledger').get() as { u: number; n: number };
    const totals = ledger.byModel(accountId, 'live', periodOf().periodStartMs);
    expect(totals).to.have.length(1);
    expect(totals[0]).to.deep.include({ model: 'alpha-sonnet-5', requests: rows.n, billable_units: rows.u });
    expect(rows.u).to.equal(0 + 10 + 20 + 30 + 40 + 25);
  });
});
