import pg from 'pg';

/** PostgreSQL's type oid of BIGINT (int8): every integer column of the schema ({int} in migrations.ts). */
const INT8 = 20;

/**
 * A connection pool for DATABASE_URL. BIGINT columns are read as numbers (the schema's integers are counts,
 * limits and millisecond times, all far below 2^53); exact sums of money are read as text by the queries that
 * need them. A pooled connection that dies while idle (a failover, a restart) is dropped and replaced on next
 * use; the error is reported, never thrown out of the event loop.
 */
export function createPool(url: string, onIdleError: (err: Error) => void, max = 10): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // A statement held up longer than this is failing, not slow: the caller gets an error instead of a hang.
    statement_timeout: 15_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  pool.on('error', onIdleError);
  return pool;
}

/** Runs `fn` in one transaction on one pooled connection; rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err: unknown) {
    await client.query('ROLLBACK').catch((e: Error) => (broken = e));
    throw err;
  } finally {
    // A connection whose rollback failed is in an unknown state: it is closed, not returned to the pool.
    client.release(broken);
  }
}

/** SQLSTATE of a unique constraint violation. */
export const UNIQUE_VIOLATION = '23505';

export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === UNIQUE_VIOLATION;
}

/** Where a query may run: the pool, or one connection inside a transaction. */
export type Queryable = pg.Pool | pg.PoolClient;
