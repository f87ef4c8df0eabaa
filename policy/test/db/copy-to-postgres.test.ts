import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashApiKey } from '@gateway/shared';
import { billingPeriod } from '../../src/billing.js';
import { copySqliteToPostgres } from '../../src/db/copy-to-postgres.js';
import { openDatabase } from '../../src/db/database.js';
import { PostgresStore } from '../../src/db/postgres/postgres-store.js';
import { SqliteStore } from '../../src/db/sqlite-store.js';
import { ROUTE_NOT_RECORDED, UsageLedger } from '../../src/db/usage-ledger.js';
import { testDatabaseUrl } from '../support/postgres-harness.js';

describe('copying a SQLite deployment into PostgreSQL', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'gw-copy-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('copies more rows than a batch, keys rotated within one millisecond after the key they replace, totals exact', async function () {
    const file = join(dir, 'gateway.sqlite');
    const db = openDatabase(file);
    // Every key made in the same millisecond: their order is their random ids', so many replacements sort (and
    // would be inserted) before the key they name in rotated_from, some in an earlier batch of 500.
    const at = Date.UTC(2026, 10, 20, 12);
    const sqlite = new SqliteStore(db, () => at);
    await sqlite.createPlan({ name: 'p', residency: 'eu', requests_per_minute: 60, concurrency: 2, allowance: 1e9, overage_allowed: false, overage_ceiling: 0, models: null });
    const account = await sqlite.createAccount('A', 'p');
    const keys = [];
    for (let i = 0; i < 700; i += 1) keys.push(await sqlite.createKey({ account_id: account.id, name: `k${i}`, environment: 'live', residency: 'eu', privacy_mode: 'off' }));
    const replacements = [];
    for (const k of keys) replacements.push(await sqlite.rotateKey(k.record.id));
    const ledger = new UsageLedger(db, () => at);
    for (let i = 0; i < 1_200; i += 1) {
      ledger.record({
        request_id: `req_${i}`, account_id: account.id, key_id: keys[i % 700]!.record.id, environment: i % 5 === 0 ? 'test' : 'live',
        model: 'alpha-sonnet-4-6', input_tokens: 100 + i, output_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 0,
        billable_units: 107 + i, cost_units: i % 5 === 0 ? 0 : 3_000_000_001 * (i + 1), outcome: 'ok', finished_at_ms: at - i * 1000,
        period_start_ms: billingPeriod(at - i * 1000).startMs,
        // Every third row with a verified route and its evidence; the others as an older proxy reported them.
        ...(i % 3 === 0
          ? { residency: 'eu', call_region: 'eu-central-1', processing_regions: '["eu-central-1","eu-west-1"]', regions_basis: 'verified',
              evidence_sha256: 'ab'.repeat(32), evidence_at_ms: at - 3_600_000 - i, platform: 'bedrock' }
          : ROUTE_NOT_RECORDED),
      });
    }
    db.close();

    const url = await testDatabaseUrl('copy');
    const result = await copySqliteToPostgres(file, url);
    expect(result.identical).to.equal(true);
    expect(result.postgres.tables).to.include({ api_keys: 1_400, usage_ledger: 1_200, change_log: 1 + 1 + 1_400 });
    expect(result.postgres.ledger['live']?.requests).to.equal(960);

    const pg = await PostgresStore.open(url);
    try {
      // The residency columns arrive as they were (the report reads them; 1_200 rows in one day or two).
      const report = await pg.residencyReport(account.id, at - 2 * 86_400_000, at + 1);
      const verified = report.filter((r) => r.regions_basis === 'verified');
      expect(verified.reduce((n, r) => n + r.requests, 0)).to.equal(320); // i % 3 === 0 and live (i % 5 !== 0)
      expect(verified[0]).to.include({ tier: 'eu', call_region: 'eu-central-1' });
      expect(verified[0]?.processing_regions).to.deep.equal(['eu-central-1', 'eu-west-1']);
      expect(report.filter((r) => r.regions_basis === null).reduce((n, r) => n + r.requests, 0)).to.equal(640);
      const row = await pg.pool.query('SELECT evidence_sha256, evidence_at_ms FROM usage_ledger WHERE request_id = $1', ['req_3']);
      expect(row.rows[0]).to.deep.equal({ evidence_sha256: 'ab'.repeat(32), evidence_at_ms: at - 3_600_000 - 3 });
      const sample = replacements[123]!;
      expect((await pg.findKeyByHash(hashApiKey(sample.key)))?.rotated_from).to.equal(keys[123]!.record.id);
      // The numbered histories continue after the copied numbers.
      const before = await pg.lastChangeSeq();
      await pg.revokeKey(keys[0]!.record.id);
      expect(await pg.lastChangeSeq()).to.equal(before + 1);
    } finally {
      await pg.close();
    }
  });
});
