import type { Logger } from '@gateway/shared';
import type { GatewayStore } from './gateway-store.js';
import type { LedgerWriter } from './ledger-writer.js';
import type { PostgresStore } from './postgres/postgres-store.js';
import { SqliteLedgerWriter } from './sqlite-ledger-writer.js';
import { SqliteStore } from './sqlite-store.js';
import type { BatchWindow } from './write-batcher.js';

/**
 * The usage ledger's writer for the store's engine: on SQLite a thread of its own with its own connection to the
 * store's file (started now), on PostgreSQL the store's pool, shared by every replica.
 */
export async function openLedgerWriter(store: GatewayStore, log: Logger, onWritten: (seconds: number) => void, window: BatchWindow): Promise<LedgerWriter> {
  if (store.engine === 'postgres') {
    const { PgLedgerWriter } = await import('./postgres/pg-ledger-writer.js');
    return new PgLedgerWriter((store as PostgresStore).pool, log, onWritten, window);
  }
  if (store instanceof SqliteStore) {
    const writer = new SqliteLedgerWriter(store.db.name, log, onWritten, window);
    writer.start();
    return writer;
  }
  throw new Error(`no usage-ledger writer for a ${store.engine} store`);
}
