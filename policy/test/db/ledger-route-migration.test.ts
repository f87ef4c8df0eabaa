import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { migrate } from '../../src/db/database.js';
import { MIGRATIONS, render } from '../../src/db/migrations.js';
import { PostgresStore } from '../../src/db/postgres/postgres-store.js';
import { SqliteStore } from '../../src/db/sqlite-store.js';
import type { GatewayStore } from '../../src/db/gateway-store.js';
import { testDatabaseUrl } from '../support/postgres-harness.js';

// A ledger row as a release before migration 4 wrote it (its columns only).
const OLD_ROW = `INSERT INTO usage_ledger (request_id, account_id, key_id, environment, model, input_tokens, output_tokens,
  cache_creation_input_tokens, cache_read_input_tokens, billable_units, cost_units, outcome, finished_at_ms, recorded_at_ms, counted)
  VALUES ('req_old', 'acct_1', 'key_1', 'live', 'alpha-sonnet-4-6', 10, 5, 0, 0, 15, 0, 'ok', ${Date.UTC(2026, 10, 2, 12)}, 0, 1)`;
const BEFORE = MIGRATIONS.filter((m) => m.version < 4);

/** A database at the schema before the residency columns, holding one ledger row; the store opened on it upgrades it. */
async function upgradedReport(store: GatewayStore) {
  return store.residencyReport('acct_1', Date.UTC(2026, 10, 2), Date.UTC(2026, 10, 3));
}

describe('the ledger\'s residency columns on a database that already holds rows', function () {
  this.timeout(30_000);

  it('SQLite: added as nulls, the old row reported as a route not recorded', async function () {
    const dir = mkdtempSync(join(tmpdir(), 'gw-mig-'));
    const db = new Database(join(dir, 'gateway.sqlite'));
    try {
      db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
      for (const m of BEFORE) {
        db.exec(render(m, 'sqlite'));
        db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, 'then');
      }
      db.exec(OLD_ROW);
      migrate(db);
      expect(await upgradedReport(new SqliteStore(db))).to.deep.equal([
        { date: '2026-11-02', tier: null, call_region: null, processing_regions: null, regions_basis: null, requests: 1, billable_units: 15, platform: null },
      ]);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('PostgreSQL: added as nulls, the old row reported as a route not recorded', async function () {
    const url = await testDatabaseUrl('mig');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
      for (const m of BEFORE) {
        await client.query(render(m, 'postgres'));
        await client.query('INSERT INTO schema_migrations VALUES ($1, $2, $3)', [m.version, m.name, 'then']);
      }
      await client.query(OLD_ROW);
    } finally {
      await client.end();
    }
    const store = await PostgresStore.open(url);
    try {
      expect(await upgradedReport(store)).to.deep.equal([
        { date: '2026-11-02', tier: null, call_region: null, processing_regions: null, regions_basis: null, requests: 1, billable_units: 15, platform: null },
      ]);
    } finally {
      await store.close();
    }
  });
});
