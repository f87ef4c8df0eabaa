import { expect } from 'chai';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminStore } from '../../src/db/admin-store.js';
import { openDatabase, type Db } from '../../src/db/database.js';
import { UsageLedger, type LedgerEntry } from '../../src/db/usage-ledger.js';

describe('UsageLedger: a batched write is answered only once it is committed', function () {
  let dir: string;
  let file: string;
  let db: Db;
  let reader: Database.Database;
  let accountId: string;
  let keyId: string;

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
  afterEach(function () {
    reader.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const entry = (request_id: string): LedgerEntry => ({
    request_id, account_id: accountId, key_id: keyId, environment: 'live', model: 'alpha-sonnet-5',
    input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0,
    billable_units: 15, cost_units: 0, outcome: 'ok', finished_at_ms: Date.now(), period_start_ms: 0,
  });
  const committed = (): Array<{ request_id: string; counted: number }> =>
    reader.prepare('SELECT request_id, counted FROM usage_ledger ORDER BY request_id').all() as Array<{ request_id: string; counted: number }>;

  it('records and marks wait for their window and are visible to another connection once their promises settle', async function () {
    const ledger = new UsageLedger(db, Date.now, () => undefined, { windowMs: 20, maxItems: 64 });
    const first = ledger.recordSoon(entry('r1'));
    const second = ledger.recordSoon(entry('r2'));
    expect(committed(), 'nothing committed while the window is open').to.deep.equal([]);
    expect(await Promise.all([first, second])).to.deep.equal([true, true]);
    expect(committed()).to.deep.equal([{ request_id: 'r1', counted: 0 }, { request_id: 'r2', counted: 0 }]);
    const mark = ledger.markCountedSoon('r1');
    const replay = ledger.recordSoon(entry('r2'));
    expect(committed()[0]?.counted).to.equal(0);
    await mark;
    expect(await replay, 'a replayed request id is not written twice').to.equal(false);
    expect(committed()).to.deep.equal([{ request_id: 'r1', counted: 1 }, { request_id: 'r2', counted: 0 }]);
  });

  it('flush() commits what waits for its window at once', async function () {
    const ledger = new UsageLedger(db, Date.now, () => undefined, { windowMs: 60_000, maxItems: 64 });
    const written = ledger.recordSoon(entry('r1'));
    ledger.flush();
    expect(committed()).to.have.length(1);
    expect(await written).to.equal(true);
  });
});
