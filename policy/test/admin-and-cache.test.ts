import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@gateway/shared';
import { billingPeriod } from '../src/billing.js';
import { SqliteStore } from '../src/db/sqlite-store.js';
import { openDatabase, type Db } from '../src/db/database.js';
import { LedgerStatements } from '../src/db/ledger-statements.js';
import { ROUTE_NOT_RECORDED, UsageLedger } from '../src/db/usage-ledger.js';
import { authenticate } from '../src/decision-rules.js';
import { KeyCache } from '../src/key-cache.js';

const log = createLogger('test', 'silent');
const DAY = 86_400_000;

describe('admin store and key cache', function () {
  let dir: string;
  let db: Db;
  let admin: SqliteStore;
  beforeEach(async function () {
    dir = mkdtempSync(join(tmpdir(), 'gw-admin-'));
    db = openDatabase(join(dir, 'g.sqlite'));
    admin = new SqliteStore(db);
    await admin.createPlan({ name: 'eu', residency: 'eu', requests_per_minute: 10, concurrency: 2, allowance: 100, overage_allowed: false, overage_ceiling: 0, models: null });
    await admin.createPlan({ name: 'uk', residency: 'uk', requests_per_minute: 10, concurrency: 2, allowance: 100, overage_allowed: false, overage_ceiling: 0, models: null });
  });
  afterEach(function () {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refiles an account\'s usage totals when its anchor day changes, so nothing used is forgotten', async function () {
    const acct = await admin.createAccount('a', 'eu');
    const ledger = new UsageLedger(db);
    const now = Date.now();
    for (let i = 0; i < 6; i += 1) {
      const at = now - i * 4 * DAY;
      ledger.record({
        request_id: `r${i}`, account_id: acct.id, key_id: 'k', environment: 'live', model: 'alpha-sonnet-5', input_tokens: 10, output_tokens: 0,
        cache_creation_input_tokens: 0, cache_read_input_tokens: 0, billable_units: 10, cost_units: 0, outcome: 'ok', finished_at_ms: at,
        period_start_ms: billingPeriod(at).startMs, ...ROUTE_NOT_RECORDED,
      });
    }
    const anchor = Math.min(28, Math.max(1, new Date(now - 10 * DAY).getUTCDate()));
    await admin.updateAccount(acct.id, { anchor_day: anchor });
    const p = billingPeriod(now, anchor);
    const expected = [0, 1, 2, 3, 4, 5].filter((i) => now - i * 4 * DAY >= p.startMs).length * 10;
    expect(ledger.usedUnits(acct.id, p.startMs)).to.equal(expected);
    expect(new LedgerStatements(db).seed(acct.id, p.startMs, p.endMs).units).to.equal(expected);
  });

  it('takes an expiry that does not parse as already past', async function () {
    const acct = await admin.createAccount('a', 'eu');
    const { record, key } = await admin.createKey({ account_id: acct.id, name: 'k', environment: 'test', residency: 'eu', privacy_mode: 'off' });
    db.prepare('UPDATE api_keys SET expires_at = ? WHERE id = ?').run('2020-13-45T00:00:00Z', record.id);
    const cache = new KeyCache(admin, log);
    await cache.start(60_000);
    const entry = await cache.lookup(key);
    const r = authenticate(key, () => entry, Date.now());
    cache.stop();
    expect(r).to.be.instanceOf(Error);
    expect((r as Error).message).to.contain('expired');
  });

  it('rotates an eu key held to uk by its plan into a uk key', async function () {
    const acct = await admin.createAccount('a', 'eu');
    const old = await admin.createKey({ account_id: acct.id, name: 'k', environment: 'live', residency: 'eu', privacy_mode: 'off' });
    await admin.updateAccount(acct.id, { plan: 'uk' });
    const cache = new KeyCache(admin, log);
    await cache.start(60_000);
    expect((await cache.lookup(old.key))?.residency).to.equal('uk');
    cache.stop();
    const fresh = await admin.rotateKey(old.record.id);
    expect(fresh.record.residency).to.equal('uk');
  });
});
