import Database from 'better-sqlite3';
import pg from 'pg';
import { join } from 'node:path';

export interface LedgerRow {
  request_id: string;
  account_id: string;
  key_id: string;
  environment: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  billable_units: number;
  cost_units: number;
  outcome: string;
  counted: number;
  /** the route the request ran on; null from a proxy that predates these columns */
  residency: string | null;
  call_region: string | null;
  processing_regions: string | null;
  regions_basis: string | null;
  evidence_sha256: string | null;
  evidence_at_ms: number | null;
  /** the serving route's platform; null from a proxy that predates routes */
  platform: string | null;
}

/** Where a gateway keeps its ledger: the SQLite file under its data directory, or its PostgreSQL database. */
export interface LedgerSource {
  dataDir: string;
  databaseUrl?: string | undefined;
}

const INTEGER_COLUMNS = [
  'input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens', 'billable_units', 'cost_units',
  'counted', 'finished_at_ms', 'recorded_at_ms', 'evidence_at_ms',
];

/**
 * The usage ledger as the policy service wrote it, read straight from its database (read-only); `where` is SQL
 * with `?` placeholders, on either engine.
 */
export async function readLedger(source: LedgerSource, where = '1 = 1', ...params: unknown[]): Promise<LedgerRow[]> {
  const sql = `SELECT * FROM usage_ledger WHERE ${where} ORDER BY recorded_at_ms, request_id`;
  if (source.databaseUrl === undefined) {
    const db = new Database(join(source.dataDir, 'gateway.sqlite'), { readonly: true, fileMustExist: true });
    try {
      return db.prepare(sql).all(...params) as LedgerRow[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: source.databaseUrl });
  await client.connect();
  try {
    let n = 0;
    const rows = (await client.query<Record<string, unknown>>(sql.replace(/\?/g, () => `$${(n += 1)}`), params)).rows;
    // BIGINT columns arrive as text: the rows read as the SQLite file's do.
    for (const row of rows) for (const c of INTEGER_COLUMNS) if (row[c] !== null && row[c] !== undefined) row[c] = Number(row[c]);
    return rows as unknown as LedgerRow[];
  } finally {
    await client.end();
  }
}

/** Polls the ledger until `test` holds (reports are asynchronous). */
export async function waitForLedger(source: LedgerSource, test: (rows: LedgerRow[]) => boolean, timeoutMs = 10_000): Promise<LedgerRow[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await readLedger(source);
    if (test(rows)) return rows;
    if (Date.now() > deadline) throw new Error(`ledger condition not met; rows: ${JSON.stringify(rows, null, 1)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
