import type pg from 'pg';
import { MIGRATIONS, render } from '../migrations.js';

/** The advisory lock key migrations hold (any constant; "gwmigr" in ASCII). */
const MIGRATION_LOCK = 0x67776d69677200n;

/**
 * Brings a PostgreSQL database's schema up to date. Several replicas may start at once: each takes a session
 * advisory lock first, so one applies the migrations and the others wait, then find nothing left to do. Each
 * migration and its schema_migrations row commit in one transaction (PostgreSQL's DDL is transactional).
 */
export async function migratePostgres(pool: pg.Pool): Promise<number[]> {
  const client = await pool.connect();
  const applied: number[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK.toString()]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
      const done = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => Number(r.version)));
      for (const m of MIGRATIONS) {
        if (done.has(m.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(render(m, 'postgres'));
          await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, new Date().toISOString()]);
          await client.query('COMMIT');
        } catch (err: unknown) {
          await client.query('ROLLBACK');
          throw new Error(`PostgreSQL migration ${m.version} (${m.name}) failed`, { cause: err });
        }
        applied.push(m.version);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK.toString()]);
    }
  } finally {
    client.release();
  }
  return applied;
}
