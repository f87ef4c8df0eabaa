import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@gateway/shared';
import { openDatabase } from '../../src/db/database.js';
import { PgLedgerWriter } from '../../src/db/postgres/pg-ledger-writer.js';
import { PostgresStore } from '../../src/db/postgres/postgres-store.js';
import { SqliteLedgerWriter } from '../../src/db/sqlite-ledger-writer.js';
import { SqliteStore } from '../../src/db/sqlite-store.js';
import type { GatewayStore } from '../../src/db/gateway-store.js';
import { testDatabaseUrl } from '../support/postgres-harness.js';
import { describeLedgerWriter } from './ledger-writer-suite.js';

const log = createLogger('test', 'silent');

/** An account with a live key, created through the store as gatewayctl would. */
async function accountWithKey(store: GatewayStore): Promise<{ accountId: string; keyId: string }> {
  await store.createPlan({ name: 'p', residency: 'eu', requests_per_minute: 1000, concurrency: 10, allowance: 1_000_000, overage_allowed: false, overage_ceiling: 0, models: null });
  const accountId = (await store.createAccount('a', 'p')).id;
  const keyId = (await store.createKey({ account_id: accountId, name: 'k', environment: 'live', residency: 'eu', privacy_mode: 'off' })).record.id;
  return { accountId, keyId };
}

describeLedgerWriter('SQLite, on its own thread', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-ledger-'));
  const file = join(dir, 'g.sqlite');
  const db = openDatabase(file);
  const ids = await accountWithKey(new SqliteStore(db));
  // A second connection sees only what has been committed.
  const reader = new Database(file, { readonly: true });
  return {
    ...ids,
    writer: (onWritten, window) => new SqliteLedgerWriter(file, log, onWritten, window),
    committed: async () => reader.prepare('SELECT request_id, counted FROM usage_ledger ORDER BY request_id').all() as Array<{ request_id: string; counted: number }>,
    liveTotals: async () => reader.prepare('SELECT SUM(requests) AS requests, SUM(billable_units) AS billable_units FROM usage_totals WHERE environment = ?').get('live') as { requests: number; billable_units: number },
    lastUsed: async (keyId) => (reader.prepare('SELECT last_used_at FROM api_keys WHERE id = ?').get(keyId) as { last_used_at: string | null }).last_used_at,
    async dispose() {
      reader.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describeLedgerWriter('PostgreSQL, on the pool', async () => {
  const store = await PostgresStore.open(await testDatabaseUrl('ledger'));
  const ids = await accountWithKey(store);
  return {
    ...ids,
    writer: (onWritten, window) => new PgLedgerWriter(store.pool, log, onWritten, window),
    committed: async () => (await store.pool.query<{ request_id: string; counted: number }>('SELECT request_id, counted FROM usage_ledger ORDER BY request_id')).rows,
    liveTotals: async () => {
      const row = (await store.pool.query<{ requests: string; billable_units: string }>("SELECT SUM(requests)::text AS requests, SUM(billable_units)::text AS billable_units FROM usage_totals WHERE environment = 'live'")).rows[0];
      return { requests: Number(row?.requests), billable_units: Number(row?.billable_units) };
    },
    lastUsed: async (keyId) => (await store.pool.query<{ last_used_at: string | null }>('SELECT last_used_at FROM api_keys WHERE id = $1', [keyId])).rows[0]?.last_used_at ?? null,
    dispose: () => store.close(),
  };
});
