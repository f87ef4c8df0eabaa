import Database from 'better-sqlite3';
import { join } from 'node:path';
import { PostgresStore } from '@gateway/policy';
import type { TestGateway } from './gateway.js';

/**
 * The gateway's own database, whichever engine it runs on, for fixtures no tool would write (a corrupt row, a
 * month of ledger in one go). Statements use `?` placeholders; on PostgreSQL they become $1, $2, ….
 */
export interface GatewayDatabase {
  run(sql: string, ...params: unknown[]): Promise<void>;
  /** Runs `fill` inside one transaction (fast bulk fixtures). */
  transaction(fill: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

export async function openGatewayDatabase(gw: TestGateway): Promise<GatewayDatabase> {
  if (gw.databaseUrl === undefined) {
    const db = new Database(join(gw.dataDir, 'gateway.sqlite'));
    db.pragma('busy_timeout = 5000');
    return {
      run: async (sql, ...params) => void db.prepare(sql).run(...params),
      transaction: async (fill) => {
        db.exec('BEGIN');
        await fill();
        db.exec('COMMIT');
      },
      close: async () => {
        db.close();
      },
    };
  }
  const store = await PostgresStore.open(gw.databaseUrl);
  const client = await store.pool.connect();
  const numbered = (sql: string): string => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${(n += 1)}`);
  };
  return {
    run: async (sql, ...params) => void (await client.query(numbered(sql), params)),
    transaction: async (fill) => {
      await client.query('BEGIN');
      await fill();
      await client.query('COMMIT');
    },
    close: async () => {
      client.release();
      await store.close();
    },
  };
}
