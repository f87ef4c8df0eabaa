import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/database.js';
import { LEDGER_ROW_COLUMNS } from '../../src/db/ledger-statements.js';
import { PostgresStore } from '../../src/db/postgres/postgres-store.js';
import { SqliteStore } from '../../src/db/sqlite-store.js';
import { UsageLedger, type LedgerEntry } from '../../src/db/usage-ledger.js';
import { testDatabaseUrl } from '../support/postgres-harness.js';
import { describeGatewayStore } from './gateway-store-suite.js';

type LedgerColumn = (typeof LEDGER_ROW_COLUMNS)[number];

const errorOf = async (f: () => unknown): Promise<unknown> => {
  try {
    await f();
    return undefined;
  } catch (err: unknown) {
    return err;
  }
};

describeGatewayStore('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-store-'));
  const db = openDatabase(join(dir, 'gateway.sqlite'));
  const ledger = new UsageLedger(db);
  return {
    store: new SqliteStore(db),
    async seedUsage(entries: LedgerEntry[]) {
      for (const e of entries) ledger.record(e);
    },
    async tamperAudit() {
      return {
        update: await errorOf(() => db.prepare("UPDATE audit_log SET actor = 'someone else'").run()),
        remove: await errorOf(() => db.prepare('DELETE FROM audit_log').run()),
      };
    },
    async dispose() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describeGatewayStore('PostgreSQL', async () => {
  const store = await PostgresStore.open(await testDatabaseUrl('store'));
  return {
    store,
    async seedUsage(entries: LedgerEntry[]) {
      // What a PostgreSQL ledger will write: the row, and its period's totals in the same transaction.
      for (const e of entries) {
        const row: Record<LedgerColumn, unknown> = { ...e, recorded_at_ms: e.finished_at_ms, counted: 1 };
        await store.pool.query(
          `INSERT INTO usage_ledger (${LEDGER_ROW_COLUMNS.join(', ')}) VALUES (${LEDGER_ROW_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`,
          LEDGER_ROW_COLUMNS.map((c) => row[c]),
        );
        await store.pool.query(
          `INSERT INTO usage_totals (account_id, environment, period_start_ms, model, requests, billable_units, cost_units)
           VALUES ($1, $2, $3, $4, 1, $5, $6)
           ON CONFLICT (account_id, environment, period_start_ms, model) DO UPDATE SET requests = usage_totals.requests + 1,
             billable_units = usage_totals.billable_units + excluded.billable_units, cost_units = usage_totals.cost_units + excluded.cost_units`,
          [e.account_id, e.environment, e.period_start_ms, e.model, e.billable_units, e.cost_units],
        );
      }
    },
    async tamperAudit() {
      return {
        update: await errorOf(() => store.pool.query("UPDATE audit_log SET actor = 'someone else'")),
        remove: await errorOf(() => store.pool.query('DELETE FROM audit_log')),
      };
    },
    dispose: () => store.close(),
  };
});
