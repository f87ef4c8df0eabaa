import Database from 'better-sqlite3';
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
  /** the route the request ran on; null from a proxy that predates these columns */
  residency: string | null;
  call_region: string | null;
  processing_regions: string | null;
  regions_basis: string | null;
  evidence_sha256: string | null;
  evidence_at_ms: number | null;
}

/** The usage ledger as the policy service wrote it (read-only, straight from the SQLite file). */
export function readLedger(dataDir: string, where = '1 = 1', ...params: unknown[]): LedgerRow[] {
  const db = new Database(join(dataDir, 'gateway.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(`SELECT * FROM usage_ledger WHERE ${where} ORDER BY recorded_at_ms`).all(...params) as LedgerRow[];
  } finally {
    db.close();
  }
}

/** Polls the ledger until `test` holds (reports are asynchronous). */
export async function waitForLedger(dataDir: string, test: (rows: LedgerRow[]) => boolean, timeoutMs = 10_000): Promise<LedgerRow[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = readLedger(dataDir);
    if (test(rows)) return rows;
    if (Date.now() > deadline) throw new Error(`ledger condition not met; rows: ${JSON.stringify(rows, null, 1)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
