import { existsSync } from 'node:fs';
import { InvalidRequestError } from '@gateway/shared';
import { openDatabase, type Db } from './database.js';
import { PostgresStore } from './postgres/postgres-store.js';
import { inTransaction } from './postgres/pg-pool.js';

/**
 * Every table of a deployment, in an order that satisfies the foreign keys. Both engines hold the same columns
 * (migrations.ts), so rows are copied column for column; `seq` columns keep their numbers (the audit trail and
 * the change log are numbered histories) and PostgreSQL's identities are moved past them afterwards.
 */
const TABLES = [
  { name: 'plans', key: 'name' },
  { name: 'accounts', key: 'id' },
  { name: 'api_keys', key: 'created_at, id' },
  { name: 'administrators', key: 'id' },
  { name: 'admin_tokens', key: 'id' },
  { name: 'admin_sessions', key: 'id_hash' },
  { name: 'admin_identities', key: 'admin_id' },
  { name: 'provider_sessions', key: 'id_hash' },
  { name: 'admin_token_lifetimes', key: 'token_id' },
  { name: 'audit_log', key: 'seq', identity: 'seq' },
  { name: 'change_log', key: 'seq', identity: 'seq' },
  { name: 'usage_ledger', key: 'request_id' },
  { name: 'usage_totals', key: 'account_id, environment, period_start_ms, model' },
] as const;

const BATCH = 500;

/** What both databases hold after a copy: rows per table and the ledger's totals per environment. */
export interface CopyFigures {
  tables: Record<string, number>;
  /** per environment: requests, billable units and cost (1e-8 GBP, exact, as a decimal string) from the ledger rows */
  ledger: Record<string, { requests: number; billable_units: string; cost_units: string }>;
  /** the same from the per-period totals the usage report reads */
  totals: Record<string, { requests: number; billable_units: string; cost_units: string }>;
}

export interface CopyResult {
  sqlite: CopyFigures;
  postgres: CopyFigures;
  identical: boolean;
}

/**
 * Copies a SQLite deployment (its database file) into an empty PostgreSQL database, in one PostgreSQL
 * transaction (a failed copy leaves the target empty) from one SQLite read snapshot, then counts both sides.
 * The gateway should be stopped (or drained) first: what it writes after the snapshot is not copied.
 */
export async function copySqliteToPostgres(sqliteFile: string, url: string): Promise<CopyResult> {
  if (!existsSync(sqliteFile)) throw new InvalidRequestError(`no SQLite database at ${sqliteFile} (set GATEWAY_DATA_DIR, or --from FILE)`);
  const db = openDatabase(sqliteFile);
  const target = await PostgresStore.open(url);
  try {
    const notEmpty = await nonEmptyTables(target);
    if (notEmpty.length > 0) throw new InvalidRequestError(`the PostgreSQL database is not empty (rows in ${notEmpty.join(', ')}); copy into an empty database`);
    db.exec('BEGIN');
    try {
      await inTransaction(target.pool, async (c) => {
        for (const t of TABLES) {
          const select = db.prepare(`SELECT * FROM ${t.name} ORDER BY ${t.key}`).safeIntegers(true);
          // Keys are few and need reordering; every other table is streamed in batches (a ledger may be large).
          const rows: Iterable<Record<string, unknown>> = t.name === 'api_keys'
            ? replacedFirst(select.all() as Array<Record<string, unknown>>)
            : (select.iterate() as IterableIterator<Record<string, unknown>>);
          let batch: Array<Record<string, unknown>> = [];
          const insert = async (): Promise<void> => {
            if (batch.length === 0) return;
            const columns = Object.keys(batch[0] as object);
            const values: unknown[] = [];
            const tuples = batch.map((row) => `(${columns.map((col) => `$${values.push(param(row[col]))}`).join(', ')})`);
            await c.query(`INSERT INTO ${t.name} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, values);
            batch = [];
          };
          for (const row of rows) {
            batch.push(row);
            if (batch.length === BATCH) await insert();
          }
          await insert();
          if ('identity' in t) {
            await c.query(`SELECT setval(pg_get_serial_sequence('${t.name}', '${t.identity}'), GREATEST((SELECT MAX(${t.identity}) FROM ${t.name}), 1), (SELECT COUNT(*) > 0 FROM ${t.name}))`);
          }
        }
      });
    } finally {
      db.exec('COMMIT');
    }
    const sqlite = sqliteFigures(db);
    const postgres = await postgresFigures(target);
    return { sqlite, postgres, identical: JSON.stringify(sqlite) === JSON.stringify(postgres) };
  } finally {
    db.close();
    await target.close();
  }
}

/**
 * Keys with every key before its replacement (`rotated_from` is a foreign key, checked at the end of each insert
 * statement; a rotation made within the same millisecond could otherwise land in a later batch than its key).
 */
function replacedFirst(rows: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  const byId = new Map(rows.map((r) => [r['id'], r]));
  const done = new Set<unknown>();
  const out: Array<Record<string, unknown>> = [];
  const emit = (r: Record<string, unknown>): void => {
    if (done.has(r['id'])) return;
    done.add(r['id']);
    const previous = byId.get(r['rotated_from']);
    if (previous !== undefined) emit(previous);
    out.push(r);
  };
  for (const r of rows) emit(r);
  return out;
}

/** SQLite's 64-bit integers arrive as bigint (exact); pg takes them as decimal strings. */
const param = (v: unknown): unknown => (typeof v === 'bigint' ? v.toString() : v);

async function nonEmptyTables(target: PostgresStore): Promise<string[]> {
  const found: string[] = [];
  for (const t of TABLES) {
    if ((await target.pool.query(`SELECT 1 FROM ${t.name} LIMIT 1`)).rowCount !== 0) found.push(t.name);
  }
  return found;
}

const LEDGER_SUMS = `SELECT environment, COUNT(*) AS requests, CAST(SUM(billable_units) AS TEXT) AS billable_units,
  CAST(SUM(cost_units) AS TEXT) AS cost_units FROM usage_ledger GROUP BY environment ORDER BY environment`;
const TOTALS_SUMS = `SELECT environment, SUM(requests) AS requests, CAST(SUM(billable_units) AS TEXT) AS billable_units,
  CAST(SUM(cost_units) AS TEXT) AS cost_units FROM usage_totals GROUP BY environment ORDER BY environment`;

type SumRow = { environment: string; requests: number | string; billable_units: string; cost_units: string };

function byEnvironment(rows: SumRow[]): CopyFigures['ledger'] {
  return Object.fromEntries(rows.map((r) => [r.environment, { requests: Number(r.requests), billable_units: r.billable_units, cost_units: r.cost_units }]));
}

function sqliteFigures(db: Db): CopyFigures {
  const tables = Object.fromEntries(TABLES.map((t) => [t.name, (db.prepare(`SELECT COUNT(*) AS n FROM ${t.name}`).get() as { n: number }).n]));
  return { tables, ledger: byEnvironment(db.prepare(LEDGER_SUMS).all() as SumRow[]), totals: byEnvironment(db.prepare(TOTALS_SUMS).all() as SumRow[]) };
}

async function postgresFigures(target: PostgresStore): Promise<CopyFigures> {
  const tables: Record<string, number> = {};
  for (const t of TABLES) tables[t.name] = Number((await target.pool.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t.name}`)).rows[0]?.n);
  const collate = (sql: string) => sql.replace('ORDER BY environment', 'ORDER BY environment COLLATE "C"');
  return {
    tables,
    ledger: byEnvironment((await target.pool.query<SumRow>(collate(LEDGER_SUMS))).rows),
    totals: byEnvironment((await target.pool.query<SumRow>(collate(TOTALS_SUMS))).rows),
  };
}
