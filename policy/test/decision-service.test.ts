import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type UsageReport } from '@gateway/shared';
import { billingPeriod } from '../src/billing.js';
import { DEFAULT_CATALOGUE_FILE, ModelCatalogue, type CatalogueRoute } from '../src/catalogue.js';
import type { RouteCheck } from '../src/residency/route-evidence.js';
import type { CounterStore, UsageSource } from '../src/counters/counter-store.js';
import { MemoryCounterStore } from '../src/counters/memory-counter-store.js';
import { SqliteStore } from '../src/db/sqlite-store.js';
import { openDatabase, type Db } from '../src/db/database.js';
import { usageSourceOf } from '../src/db/ledger-writer.js';
import { SqliteLedgerWriter } from '../src/db/sqlite-ledger-writer.js';
import { UsageLedger } from '../src/db/usage-ledger.js';
import { DecisionService } from '../src/decision-service.js';
import { PgLedgerWriter } from '../src/db/postgres/pg-ledger-writer.js';
import { PostgresStore } from '../src/db/postgres/postgres-store.js';
import { testDatabaseUrl } from './support/postgres-harness.js';
import { KeyCache } from '../src/key-cache.js';
import { LastUsedTracker } from '../src/last-used.js';

const log = createLogger('test', 'silent');

/** The in-process store, with settle failing while `failing` is set (Redis down when a report arrives). */
class FlakyCounters extends MemoryCounterStore {
  failing = false;
  override async settle(...args: Parameters<CounterStore['settle']>): ReturnType<CounterStore['settle']> {
    if (this.failing) throw new Error('counter store unreachable');
    return super.settle(...args);
  }
}

/**
 * The in-process store as Redis shared by replicas: `flush()` loses every counter and marker (FLUSHALL), and a hook
 * runs once before the next `used`/`confirm` (what other replicas do while a report waits for its row's commit).
 */
class FlushableCounters implements CounterStore {
  private inner: MemoryCounterStore;
  beforeUsed: (() => Promise<void>) | undefined;
  beforeConfirm: (() => Promise<void>) | undefined;
  constructor(private readonly source: UsageSource) {
    this.inner = new MemoryCounterStore(source);
  }
  /** Everything is lost; `rebuiltFrom` is the ledger of the replica that rebuilds next (another replica's). */
  flush(rebuiltFrom = this.source): void {
    this.inner = new MemoryCounterStore(rebuiltFrom);
  }
  admit(...a: Parameters<CounterStore['admit']>) { return this.inner.admit(...a); }
  peekWindows(...a: Parameters<CounterStore['peekWindows']>) { return this.inner.peekWindows(...a); }
  renew(...a: Parameters<CounterStore['renew']>) { return this.inner.renew(...a); }
  settle(...a: Parameters<CounterStore['settle']>) { return this.inner.settle(...a); }
  uncount(...a: Parameters<CounterStore['uncount']>) { return this.inner.uncount(...a); }
  inFlight(...a: Parameters<CounterStore['inFlight']>) { return this.inner.inFlight(...a); }
  ping() { return this.inner.ping(); }
  close() { return this.inner.close(); }
  async confirm(...a: Parameters<CounterStore['confirm']>): ReturnType<CounterStore['confirm']> {
    const hook = this.beforeConfirm;
    this.beforeConfirm = undefined;
    await hook?.();
    return this.inner.confirm(...a);
  }
  async used(...a: Parameters<CounterStore['used']>): ReturnType<CounterStore['used']> {
    const hook = this.beforeUsed;
    this.beforeUsed = undefined;
    await hook?.();
    return this.inner.used(...a);
  }
}

describe('decision service: count at release, and the ledger and the allowance counter agree', function () {
  let dir: string;
  let db: Db;
  let ledger: UsageLedger;
  let writer: SqliteLedgerWriter;
  let source: UsageSource;
  let keys: KeyCache;
  let admin: SqliteStore;
  let accountId: string;
  let keyId: string;

  beforeEach(async function () {
    dir = mkdtempSync(join(tmpdir(), 'gw-ds-'));
    const file = join(dir, 'g.sqlite');
    db = openDatabase(file);
    admin = new SqliteStore(db);
    await admin.createPlan({ name: 'p', residency: 'eu', requests_per_minute: 1000, concurrency: 10, allowance: 1_000_000, overage_allowed: false, overage_ceiling: 0, models: null });
    accountId = (await admin.createAccount('a', 'p')).id;
    keyId = (await admin.createKey({ account_id: accountId, name: 'k', environment: 'live', residency: 'eu', privacy_mode: 'off' })).record.id;
    ledger = new UsageLedger(db);
    writer = new SqliteLedgerWriter(file, log, () => undefined, { windowMs: 5, maxItems: 64 });
    source = usageSourceOf(writer, log);
    keys = new KeyCache(admin, log);
    await keys.start(10_000);
  });
  afterEach(async function () {
    keys.stop();
    await writer.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const service = (counters: CounterStore) =>
    new DecisionService({ keys, catalogue: ModelCatalogue.load(), counters, ledger: writer, lastUsed: new LastUsedTracker(async () => undefined), leaseTtlMs: 30_000, log });
  const report = (id: string, input: number, output: number, over: Partial<UsageReport> = {}): UsageReport => ({
    request_id: id, decision_id: 'd', key_id: keyId, account_id: accountId, environment: 'live', model: 'alpha-sonnet-5',
    usage: { input_tokens: input, output_tokens: output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    lease_id: '', reserved_units: 0, outcome: 'ok', finished_unix_ms: Date.now(),
    // As a proxy that predates the route fields sends it (gRPC's defaults); tests of the route set them.
    residency: '', call_region: '', processing_regions: [], evidence: null, platform: '', ...over,
  });
  const periodOf = (account = accountId) => {
    const p = billingPeriod(Date.now());
    return { accountId: account, periodId: p.id, periodStartMs: p.startMs, periodEndMs: p.endMs };
  };
  /** The row's counted column once the writer's waiting marks are committed (a report is acknowledged before its mark). */
  const countedColumn = async (id: string) => {
    await writer.flush();
    return (db.prepare('SELECT counted FROM usage_ledger WHERE request_id = ?').get(id) as { counted: number }).counted;
  };
  /** A key on a plan of its own: `allowance` units, overage as given. */
  const planKey = async (allowance: number, overage = false, ceiling = 0) => {
    await admin.createPlan({ name: 'o', residency: 'eu', requests_per_minute: 1000, concurrency: 10, allowance, overage_allowed: overage, overage_ceiling: ceiling, models: null });
    const account = (await admin.createAccount('o', 'o')).id;
    const { key, record } = await admin.createKey({ account_id: account, name: 'k', environment: 'live', residency: 'eu', privacy_mode: 'off' });
    return { account, key, keyId: record.id };
  };

  it('counts a finished request before the next decision without overage: no acknowledgement, no wait', async function () {
    const o = await planKey(300);
    const ds = service(new MemoryCounterStore(source));
    const decide = () => ds.decide({
      caller: { api_key: o.key, source_ip: '203.0.113.9', request_id: 'r' },
      operation: 'CREATE_MESSAGE', model: 'alpha-sonnet-5', stream: false, max_tokens: 100, input_tokens_estimate: 100, attempt_id: '',
    });
    const acks: Array<Promise<unknown>> = [];
    const outcomes: Array<number | string> = [];
    for (let i = 0; i < 4; i += 1) {
      const d = await decide();
      outcomes.push(d.outcome === 'allow' ? 'allow' : (d.deny?.http_status ?? 0));
      if (d.outcome !== 'allow') continue;
      // The report goes out and the next decision follows in the same turn, as on a proxy's ordered stream.
      acks.push(ds.report(report(`seq${i}`, 100, 50, { account_id: o.account, key_id: o.keyId, lease_id: d.allow!.lease_id })));
    }
    await Promise.all(acks);
    expect(outcomes).to.deep.equal(['allow', 'allow', 402, 402]);
    expect(ledger.usedUnits(o.account, periodOf().periodStartMs)).to.equal(300);
  });

  it('with overage: the next decision sees the real units at once, never the worst case and never nothing', async function () {
    // allowance 1000 + ceiling 100: a request is admitted while used + reserved + its worst case ≤ 1100.
    const o = await planKey(1000, true, 100);
    const ds = service(new MemoryCounterStore(source));
    const decide = (maxTokens: number) => ds.decide({
      caller: { api_key: o.key, source_ip: '203.0.113.9', request_id: 'r' },
      operation: 'CREATE_MESSAGE', model: 'alpha-sonnet-5', stream: false, max_tokens: maxTokens, input_tokens_estimate: 100, attempt_id: '',
    });
    const first = await decide(500); // reserves 100 + 500 = 600
    expect(first.outcome).to.equal('allow');
    const reported = ds.report(report('r1', 300, 200, { account_id: o.account, key_id: o.keyId, lease_id: first.allow!.lease_id, reserved_units: 600 }));
    // 500 used: a worst case of 601 would pass the ceiling; one of 600 fits exactly (the 600 reservation is gone).
    const [over, fitting] = [decide(501), decide(500)];
    expect((await over).deny?.http_status).to.equal(402);
    expect((await fitting).outcome).to.equal('allow');
    await reported;
  });

  it('names the key on a refusal after authentication (the IP check included), never on a 401, and the catalogue it used', async function () {
    const ds = service(new MemoryCounterStore(source));
    const fenced = await admin.createKey({ account_id: accountId, name: 'f', environment: 'test', residency: 'eu', privacy_mode: 'redact', allowed_ips: ['10.0.0.0/8'] });
    const open = await admin.createKey({ account_id: accountId, name: 'o', environment: 'live', residency: 'eu', privacy_mode: 'off' });
    await keys.poll();
    const decide = (apiKey: string, source_ip: string, model: string) => ds.decide({
      caller: { api_key: apiKey, source_ip, request_id: 'req_x' }, operation: 'CREATE_MESSAGE', model, stream: false, max_tokens: 10, input_tokens_estimate: 10, attempt_id: '',
    });
    const catalogue = ModelCatalogue.load();
    expect(catalogue.sha256).to.equal(createHash('sha256').update(readFileSync(DEFAULT_CATALOGUE_FILE)).digest('hex'));

    const ip = await decide(fenced.key, '192.0.2.1', 'alpha-sonnet-5');
    expect(ip.deny?.http_status).to.equal(403);
    expect(ip.deny?.key).to.deep.equal({ key_id: fenced.record.id, account_id: accountId, environment: 'test', residency: 'eu', privacy_mode: 'redact' });
    expect(ip.catalogue_sha256).to.equal(catalogue.sha256);
    const unknownModel = await decide(open.key, '10.1.1.1', 'alpha-fable-5');
    expect(unknownModel.deny?.http_status).to.equal(404);
    expect(unknownModel.deny?.key?.key_id).to.equal(open.record.id);
    const unknownKey = await decide(`gw_live_${'z'.repeat(32)}`, '10.1.1.1', 'alpha-sonnet-5');
    expect(unknownKey.deny?.http_status).to.equal(401);
    expect(unknownKey.deny?.key).to.equal(null);
    const allowed = await decide(open.key, '10.1.1.1', 'alpha-sonnet-5');
    expect(allowed.allow?.key.key_id).to.equal(open.record.id);
    expect(allowed.allow?.evidence).to.equal(null);
    expect(allowed.catalogue_sha256).to.equal(catalogue.sha256);
    const auth = await ds.authenticate(fenced.key, '192.0.2.1');
    expect(auth.deny?.key?.key_id).to.equal(fenced.record.id);
    expect(auth.catalogue_sha256).to.equal(catalogue.sha256);
  });

  it('carries the tier\'s routes in order, the first also as route/evidence for an older proxy; a route without evidence is skipped', async function () {
    const EU = ['eu-central-1', 'eu-west-1', 'eu-west-3', 'eu-north-1', 'eu-south-1', 'eu-south-2', 'eu-central-2'];
    const verified = { regions_basis: 'verified' as const, evidence_unix_ms: 5, evidence_sha256: 'ab'.repeat(32) };
    let refuse = new Set<number>([0]);
    const residency = {
      check: (_m: string, _t: 'uk' | 'eu', i: number, route: CatalogueRoute): RouteCheck =>
        refuse.has(i) ? { ok: false, reason: `route ${i} unverified` } : { ok: true, route, evidence: verified },
    };
    const ds = new DecisionService({ keys, catalogue: ModelCatalogue.load(), counters: new MemoryCounterStore(source), ledger: writer, lastUsed: new LastUsedTracker(async () => undefined), leaseTtlMs: 30_000, log, residency });
    const k = await admin.createKey({ account_id: accountId, name: 'r', environment: 'live', residency: 'eu', privacy_mode: 'off' });
    await keys.poll();
    const decide = () => ds.decide({ caller: { api_key: k.key, source_ip: '10.1.1.1', request_id: 'req_r' }, operation: 'COUNT_TOKENS', model: 'alpha-sonnet-5', stream: false, max_tokens: 0, input_tokens_estimate: 1, attempt_id: '' });
    const d = await decide();
    expect(d.allow?.routes.map((r) => r.call_region)).to.deep.equal(['eu-west-1', 'eu-west-3']);
    expect(d.allow?.routes[0]).to.deep.equal({ upstream: 'default', upstream_model: 'eu.anthropic.alpha-sonnet-5-v1:0', call_region: 'eu-west-1', processing_regions: EU, evidence: verified });
    expect(d.allow?.route).to.deep.equal(d.allow?.routes[0]);
    expect(d.allow?.evidence).to.deep.equal(verified);
    refuse = new Set([0, 1, 2]);
    const none = await decide();
    expect(none.deny).to.include({ http_status: 403, error_type: 'residency_unavailable' });
    expect(none.deny?.message).to.equal('route 0 unverified');
  });

  it('counts a report whose counter step failed when it is retried, and only once', async function () {
    const counters = new FlakyCounters(source);
    const ds = service(counters);
    expect(await counters.used(periodOf())).to.equal(0); // the counter is loaded (from an empty ledger)
    await ds.report(report('r1', 100, 50));
    expect(await counters.used(periodOf())).to.equal(150);
    counters.failing = true;
    let failed = false;
    await ds.report(report('r2', 1000, 500)).catch(() => (failed = true));
    expect(failed).to.equal(true);
    expect(ledger.usedUnits(accountId, periodOf().periodStartMs), 'the row is in the ledger').to.equal(1650);
    expect(await countedColumn('r2'), 'but not counted').to.equal(0);
    expect(await counters.used(periodOf())).to.equal(150);
    counters.failing = false;
    const retry = await ds.report(report('r2', 1000, 500));
    expect(retry.recorded).to.equal(false);
    expect(await counters.used(periodOf())).to.equal(1650);
    expect(await countedColumn('r2')).to.be.above(1);
    await ds.report(report('r2', 1000, 500));
    await ds.report(report('r1', 100, 50));
    expect(await counters.used(periodOf())).to.equal(1650);
  });

  it('does not add an uncounted row again once a rebuild from the ledger included it', async function () {
    const flaky = new FlakyCounters(source);
    await service(flaky).report(report('r1', 10, 10));
    flaky.failing = true;
    await service(flaky).report(report('r2', 40, 60)).catch(() => undefined);
    // the counters are lost (a Redis flush); a fresh store rebuilds from the ledger, r2 included and marked
    const fresh = new MemoryCounterStore(source);
    expect(await fresh.used(periodOf())).to.equal(120);
    await service(fresh).report(report('r2', 40, 60));
    expect(await fresh.used(periodOf())).to.equal(120);
    expect(await countedColumn('r2'), 'counted by the rebuild').to.equal(1);
  });

  it('counts a report that finds its counter missing once, after rebuilding it from the ledger that holds the row', async function () {
    const ds = service(new MemoryCounterStore(source));
    await ds.report(report('r1', 10, 20)); // no counter yet: rebuilt from the ledger with r1 in its window
    const counters = new MemoryCounterStore(source);
    const ds2 = service(counters);
    await ds2.report(report('r2', 5, 5));
    expect(await counters.used(periodOf())).to.equal(40);
    expect(await countedColumn('r1')).to.not.equal(0);
    expect(await countedColumn('r2')).to.not.equal(0);
  });

  it('takes back the add of a duplicate report whose marker was lost: the units stay counted once', async function () {
    const first = new MemoryCounterStore(source);
    await first.used(periodOf());
    await service(first).report(report('r1', 100, 100));
    // The counter is rebuilt from the ledger (r1 is in it, counted) by a store that never saw r1's marker.
    const counters = new MemoryCounterStore(source);
    expect(await counters.used(periodOf())).to.equal(200);
    const ack = await service(counters).report(report('r1', 100, 100));
    expect(ack.recorded).to.equal(false);
    expect(await counters.used(periodOf())).to.equal(200);
  });

  /*
   * Seen on PostgreSQL under three replicas and two flushes 400 ms apart (policy-replicas, one request over): a
   * report's settle finds the counter flushed; a rebuild includes its row (uncounted, marker 1) and marks the row
   * counted; the counters are flushed again, so that marker is gone; the rebuild the report's reconcile then makes
   * includes the row's units (counted: no marker), and the reconcile's settle, finding no marker, added them again.
   */
  it('a report counted late (its counter flushed) adds nothing to a counter rebuilt after a rebuild marked its row', async function () {
    const counters = new FlushableCounters(source);
    await counters.used(periodOf());
    counters.flush();
    counters.beforeUsed = async () => {
      // Between the row's commit and this rebuild: another replica's rebuild counts the row, then Redis is flushed.
      await new MemoryCounterStore(source).used(periodOf());
      await writer.flush();
      expect(await countedColumn('late'), 'counted by that rebuild').to.equal(1);
      counters.flush();
    };
    await service(counters).report(report('late', 100, 50));
    expect(await counters.used(periodOf())).to.equal(150);
  });

  it('a report whose add was flushed before its confirmation adds nothing to a counter rebuilt with its row counted', async function () {
    const counters = new FlushableCounters(source);
    await counters.used(periodOf());
    counters.beforeConfirm = async () => {
      // The add is lost with the counter; a rebuild counts the committed row and marks it; a second flush loses that.
      counters.flush();
      await new MemoryCounterStore(source).used(periodOf());
      await writer.flush();
      expect(await countedColumn('lost'), 'counted by that rebuild').to.equal(1);
      counters.flush();
      expect(await counters.used(periodOf()), 'rebuilt with the row').to.equal(150);
    };
    await service(counters).report(report('lost', 100, 50));
    expect(await counters.used(periodOf())).to.equal(150);
  });

  it("keeps per-period totals equal to the ledger's rows", async function () {
    const ds = service(new MemoryCounterStore(source));
    for (let i = 0; i < 5; i += 1) await ds.report(report(`t${i}`, 10 * i, 5));
    await ds.report(report('t1', 999, 999)); // a replay changes nothing
    const rows = db.prepare('SELECT SUM(billable_units) AS u, COUNT(*) AS n FROM usage_ledger').get() as { u: number; n: number };
    const totals = ledger.byModel(accountId, 'live', periodOf().periodStartMs);
    expect(totals).to.have.length(1);
    expect(totals[0]).to.deep.include({ model: 'alpha-sonnet-5', requests: rows.n, billable_units: rows.u });
    expect(rows.u).to.equal(0 + 10 + 20 + 30 + 40 + 25);
  });

  it('keeps the route each report names on its row, evidence only when verified, and nulls from an older proxy', async function () {
    const ds = service(new MemoryCounterStore(source));
    const EU = ['eu-central-1', 'eu-west-1', 'eu-west-3', 'eu-north-1', 'eu-south-1', 'eu-south-2', 'eu-central-2'];
    await ds.report(report('v1', 10, 5, {
      residency: 'eu', call_region: 'eu-central-1', processing_regions: EU,
      evidence: { regions_basis: 'verified', evidence_unix_ms: 1_764_000_000_000, evidence_sha256: 'ab'.repeat(32) },
    }));
    // A declared route's report carries no evidence that could be mistaken for the platform's word.
    await ds.report(report('d1', 10, 5, {
      residency: 'uk', call_region: 'eu-west-2', processing_regions: ['eu-west-2'],
      evidence: { regions_basis: 'declared', evidence_unix_ms: 0, evidence_sha256: '' },
    }));
    await ds.report(report('old1', 10, 5)); // as a proxy that predates the fields sends it
    await writer.flush();
    const row = (id: string) => db.prepare(
      'SELECT residency, call_region, processing_regions, regions_basis, evidence_sha256, evidence_at_ms FROM usage_ledger WHERE request_id = ?',
    ).get(id);
    expect(row('v1')).to.deep.equal({
      residency: 'eu', call_region: 'eu-central-1', processing_regions: JSON.stringify(EU), regions_basis: 'verified',
      evidence_sha256: 'ab'.repeat(32), evidence_at_ms: 1_764_000_000_000,
    });
    expect(row('d1')).to.deep.equal({
      residency: 'uk', call_region: 'eu-west-2', processing_regions: '["eu-west-2"]', regions_basis: 'declared', evidence_sha256: null, evidence_at_ms: null,
    });
    expect(row('old1')).to.deep.equal({
      residency: null, call_region: null, processing_regions: null, regions_basis: null, evidence_sha256: null, evidence_at_ms: null,
    });
    // Recorded and counted like any other report.
    expect(ledger.usedUnits(accountId, periodOf().periodStartMs)).to.equal(45);
  });
});

/*
 * On PostgreSQL a rebuild includes the rows still waiting in its replica's write window (their units, and markers).
 * Seen in policy-replicas (one request over): a report's settle finds the counter flushed; a rebuild on its replica
 * includes its waiting row; the counters are flushed again; the row commits; the rebuild its reconcile makes must
 * still find the row uncounted, and mark it, or the reconcile's settle adds the units a second time.
 */
describe('decision service on PostgreSQL: a row counted by a rebuild while it waited in the write window', function () {
  this.timeout(30_000);
  let store: PostgresStore;
  let writer: PgLedgerWriter;
  let source: UsageSource;
  let keys: KeyCache;
  let accountId: string;
  let keyId: string;

  beforeEach(async function () {
    store = await PostgresStore.open(await testDatabaseUrl('ds'));
    await store.createPlan({ name: 'p', residency: 'eu', requests_per_minute: 1000, concurrency: 10, allowance: 1_000_000, overage_allowed: false, overage_ceiling: 0, models: null });
    accountId = (await store.createAccount('a', 'p')).id;
    keyId = (await store.createKey({ account_id: accountId, name: 'k', environment: 'live', residency: 'eu', privacy_mode: 'off' })).record.id;
    // Commits only when flushed: the test decides what happens while a row waits.
    writer = new PgLedgerWriter(store.pool, log, () => undefined, { windowMs: 60_000, maxItems: 64 });
    source = usageSourceOf(writer, log);
    keys = new KeyCache(store, log);
    await keys.start(10_000);
  });
  afterEach(async function () {
    keys.stop();
    await writer.close();
    await store.close();
  });

  const periodOf = () => {
    const p = billingPeriod(Date.now());
    return { accountId, periodId: p.id, periodStartMs: p.startMs, periodEndMs: p.endMs };
  };
  const counted = async (id: string) => {
    await writer.flush();
    return Number((await store.pool.query<{ counted: string }>('SELECT counted FROM usage_ledger WHERE request_id = $1', [id])).rows[0]?.counted);
  };
  /** Commits the window until the report is acknowledged (a count made after the row's commit awaits its mark). */
  const commitUntil = async (acked: Promise<unknown>) => {
    let done = false;
    const ack = acked.finally(() => (done = true));
    while (!done) {
      await writer.flush();
      await new Promise((r) => setTimeout(r, 5));
    }
    await ack;
  };
  /** A report whose settle finds the counter flushed, and a rebuild on its replica that includes its waiting row. */
  const reportIncludedWhileWaiting = async (counters: FlushableCounters, id: string): Promise<{ acked: Promise<unknown> }> => {
    await counters.used(periodOf());
    counters.flush();
    const ds = new DecisionService({ keys, catalogue: ModelCatalogue.load(), counters, ledger: writer, lastUsed: new LastUsedTracker(async () => undefined), leaseTtlMs: 30_000, log });
    const acked = ds.report({
      request_id: id, decision_id: 'd', key_id: keyId, account_id: accountId, environment: 'live', model: 'alpha-sonnet-5',
      usage: { input_tokens: 100, output_tokens: 50, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      lease_id: '', reserved_units: 0, outcome: 'ok', finished_unix_ms: Date.now(),
      residency: '', call_region: '', processing_regions: [], evidence: null, platform: '',
    });
    expect(await counters.used(periodOf()), 'the waiting row is included').to.equal(150);
    // Wrapped: an async function returning the promise itself would wait for it.
    return { acked };
  };

  it('the row commits after a second flush: the reconcile\'s rebuild finds it uncounted, and it is counted once', async function () {
    const counters = new FlushableCounters(source);
    const { acked } = await reportIncludedWhileWaiting(counters, 'w1');
    counters.flush();
    await commitUntil(acked);
    expect(await counters.used(periodOf())).to.equal(150);
    expect(await counted('w1')).to.equal(1);
  });

  it('another replica rebuilt the counter before the row committed: the report counts it, once', async function () {
    const counters = new FlushableCounters(source);
    const { acked } = await reportIncludedWhileWaiting(counters, 'w2');
    // Flushed again; another replica rebuilds from a ledger without the row (committed: no; in its window: no).
    const other = new PgLedgerWriter(store.pool, log, () => undefined, { windowMs: 60_000, maxItems: 64 });
    counters.flush(usageSourceOf(other, log));
    expect(await counters.used(periodOf())).to.equal(0);
    await commitUntil(acked);
    expect(await counters.used(periodOf())).to.equal(150);
    expect(await counted('w2')).to.be.above(1);
    await other.close();
  });
});
