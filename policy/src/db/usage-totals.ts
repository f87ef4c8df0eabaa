import type Database from 'better-sqlite3';
import { billingPeriod } from '../billing.js';

/** Adds one request to its period's totals. */
export const UPSERT_TOTALS = `
  INSERT INTO usage_totals (account_id, environment, period_start_ms, model, requests, billable_units, cost_units)
  VALUES (@account_id, @environment, @period_start_ms, @model, 1, @billable_units, @cost_units)
  ON CONFLICT (account_id, environment, period_start_ms, model) DO UPDATE SET
    requests = requests + 1,
    billable_units = billable_units + excluded.billable_units,
    cost_units = cost_units + excluded.cost_units`;

/** Refiles an account's totals from its ledger rows under the billing periods of `anchorDay`. */
export function rebuildAccountTotals(db: Database.Database, accountId: string, anchorDay: number | null): void {
  db.prepare('DELETE FROM usage_totals WHERE account_id = ?').run(accountId);
  const upsert = db.prepare(UPSERT_TOTALS);
  const rows = db
    .prepare('SELECT account_id, environment, model, billable_units, cost_units, finished_at_ms FROM usage_ledger WHERE account_id = ?')
    .all(accountId) as Array<{
    account_id: string;
    environment: string;
    model: string;
    billable_units: number;
    cost_units: number;
    finished_at_ms: number;
  }>;
  // Read first, then write: the connection cannot write while a statement is still iterating.
  for (const row of rows) upsert.run({ ...row, period_start_ms: billingPeriod(row.finished_at_ms, anchorDay).startMs });
}
