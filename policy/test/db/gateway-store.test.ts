import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/database.js';
import { createLogger } from '@gateway/shared';
import { PgLedgerWriter } from '../../src/db/postgres/pg-ledger-writer.js';
import { PostgresStore } from '../../src/db/postgres/postgres-store.js';
import { SqliteStore } from '../../src/db/sqlite-store.js';
import { UsageLedger, type LedgerEntry } from '../../src/db/usage-ledger.js';
import { testDatabaseUrl } from '../support/postgres-harness.js';
import { describeGatewayStore } from './gateway-store-suite.js';


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
      // Through the PostgreSQL ledger writer: each row with its period's totals, in one transaction.
      const writer = new PgLedgerWriter(store.pool, createLogger('test', 'silent'), () => undefined, { windowMs: 0, maxItems: 1 });
      for (const e of entries) await writer.record(e);
      await writer.close();
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
