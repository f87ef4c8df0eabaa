import { expect } from 'chai';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@gateway/shared';
import { AdminStore } from '../../src/db/admin-store.js';
import { openDatabase, type Db } from '../../src/db/database.js';
import { SqliteLedgerWriter } from '../../src/db/sqlite-ledger-writer.js';
import { ROUTE_NOT_RECORDED, type LedgerEntry } from '../../src/db/usage-ledger.js';

describe('SqliteLedgerWriter: ledger writes on their own thread, answered once committed', function () {
  let dir: string;
  let file: string;
  let db: Db;
  let reader: Database.Database;
  let accountId: string;
  let keyId: string;
  let writer: SqliteLedgerWriter | undefined;
  const log = createLogger('test', 'silent');

  beforeEach(function () {
    dir = mkdtempSync(join(tmpdir(), 'gw-ledger-'));
    file = join(dir, 'g.sqlite');
    db = openDatabase(file);
    const admin = new AdminStore(db);
    admin.createPlan({ name: 'p', residency: 'eu', requests_per_minute: 1000, concurrency: 10, allowance: 1_000_000, overage_allowed: false, overage_ceiling: 0, models: null });
    accountId = admin.createAccount('a', 'p').id;
    keyId = admin.createKey({ account_id: accountId, name: 'k', environment: 'live', residency: 'eu', privacy_mode: 'off' }).record.id;
    // A second connection sees only what has been committed.
    reader = new Database(file, { readonly: true });
  });
  afterEach(async function () {
    await writer?.close();
    writer = undefined;
    reader.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const entry = (request_id: string, over: Partial<LedgerEntry> = {}): LedgerEntry => ({
    request_id, account_id: accountId, key_id: keyId, environment: 'live', model: 'alpha-sonnet-5',
    input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0,
    billable_units: 15, cost_units: 0, outcome: 'ok', finished_at_ms: 1_000, period_start_ms: 0, ...ROUTE_NOT_RECORDED, ...over,
  });
  const committed = (): Array<{ request_id: string; counted: number }> =>
    reader.prepare('SELECT request_id, counted FROM usage_ledger ORDER BY request_id').all() as Array<{ request_id: string; counted: number }>;

  it('commits a window of writes together; each answer comes once its write is visible to another connection', async function () {
    writer = new SqliteLedgerWriter(file, log, () => undefined, { windowMs: 50, maxItems: 64 });
    const first = writer.record(entry('r1'));
    const second = writer.record(entry('r2', { environment: 'test', billable_units: 15 }));
    expect(committed(), 'nothing committed while the window is open').to.deep.equal([]);
    // Live usage waits to be counted; test traffic never does.
    expect(await Promise.all([first, second])).to.deep.equal([{ inserted: true, counted: 0 }, { inserted: true, counted: 1 }]);
    expect(committed()).to.deep.equal([{ request_id: 'r1', counted: 0 }, { request_id: 'r2', counted: 1 }]);

    const mark = writer.markCounted('r1', 77);
    const replay = writer.record(entry('r1'));
    const later = writer.markCounted('r1', 1);
    await mark;
    expect(await replay, 'a replayed request id is not written twice, and learns who counted it').to.deep.equal({ inserted: false, counted: 77 });
    await later;
    expect(committed(), 'the first count stands').to.deep.equal([{ request_id: 'r1', counted: 77 }, { request_id: 'r2', counted: 1 }]);
    const totals = reader.prepare('SELECT requests, billable_units FROM usage_totals WHERE environment = ?').get('live');
    expect(totals).to.deep.equal({ requests: 1, billable_units: 15 });
  });

  it('flush() commits what waits for its window at once', async function () {
    writer = new SqliteLedgerWriter(file, log, () => undefined, { windowMs: 60_000, maxItems: 64 });
    const written = writer.record(entry('r1'));
    await writer.flush();
    expect(committed()).to.have.length(1);
    expect(await written).to.deep.equal({ inserted: true, counted: 0 });
  });

  it('commits as soon as maxItems writes wait, and reports each commit\'s duration', async function () {
    const durations: number[] = [];
    writer = new SqliteLedgerWriter(file, log, (s) => durations.push(s), { windowMs: 60_000, maxItems: 3 });
    const rows = await Promise.all(['a', 'b', 'c'].map((id) => writer!.record(entry(id))));
    expect(rows.every((r) => r.inserted)).to.equal(true);
    expect(committed()).to.have.length(3);
    expect(durations).to.have.length(1);
    expect(durations[0]).to.be.a('number').and.to.be.at.least(0);
  });

  it('rebuild figures include rows still waiting in the window, once, and name the uncounted ones', async function () {
    writer = new SqliteLedgerWriter(file, log, () => undefined, { windowMs: 60_000, maxItems: 64 });
    const done = [writer.record(entry('c1')), writer.record(entry('c2'))];
    await writer.flush();
    await Promise.all(done);
    const marked = writer.markCounted('c1', 5);
    await writer.flush();
    await marked;
    // Waiting in the window: a new row, a replay of a committed one, a test row, another account's and another period's.
    const waiting = [
      writer.record(entry('w1', { billable_units: 100 })),
      writer.record(entry('c2')),
      writer.record(entry('w1')),
      writer.record(entry('t1', { environment: 'test' })),
      writer.record(entry('x1', { account_id: 'acct_other' })),
      writer.record(entry('p2', { period_start_ms: 5_000, finished_at_ms: 6_000 })),
    ];
    const seed = await writer.seed(accountId, 0, 5_000);
    expect(seed.units).to.equal(15 + 15 + 100);
    expect([...seed.uncounted].sort()).to.deep.equal(['c2', 'w1']);
    await writer.flush();
    await Promise.all(waiting);
  });

  it('writes last-used times', async function () {
    writer = new SqliteLedgerWriter(file, log, () => undefined, { windowMs: 5, maxItems: 64 });
    const at = Date.parse('2026-11-26T10:00:00Z');
    await writer.touchKeys(new Map([[keyId, at]]));
    const row = reader.prepare('SELECT last_used_at FROM api_keys WHERE id = ?').get(keyId) as { last_used_at: string };
    expect(row.last_used_at).to.equal('2026-11-26T10:00:00.000Z');
  });

  it('fails what it holds when its database cannot be written, and serves again after', async function () {
    writer = new SqliteLedgerWriter(file, log, () => undefined, { windowMs: 5, maxItems: 64 });
    // A row the schema refuses (model is NOT NULL): its window's transaction is rolled back and answered with the error.
    const bad = entry('bad', { model: null as unknown as string });
    let failure: unknown;
    try {
      await writer.record(bad);
    } catch (err) {
      failure = err;
    }
    expect(String(failure)).to.match(/ledger write failed/);
    expect(await writer.record(entry('good'))).to.deep.equal({ inserted: true, counted: 0 });
  });
});
