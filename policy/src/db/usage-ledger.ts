import type { Environment, UsageOutcome } from '@gateway/shared';
import type { Db } from './database.js';

export interface LedgerEntry {
  request_id: string;
  account_id: string;
  key_id: string;
  environment: Environment;
  model: string;
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  billable_units: number;
  cost_units: number;
  outcome: UsageOutcome;
  finished_at_ms: number;
}

export interface ModelTotals {
  model: string;
  requests: number;
  billable_units: number;
  cost_units: bigint;
}

/** The durable usage ledger: each request id is applied once, however often its report is retried. */
export class UsageLedger {
  private readonly insert;
  private readonly sumUsed;
  private readonly totals;

  constructor(db: Db, private readonly now: () => number = Date.now) {
    this.insert = db.prepare(
      `INSERT INTO usage_ledger (request_id, account_id, key_id, environment, model, input_tokens, output_tokens,
         cache_creation_input_tokens, cache_read_input_tokens, billable_units, cost_units, outcome, finished_at_ms,
         recorded_at_ms)
       VALUES (@request_id, @account_id, @key_id, @environment, @model, @input_tokens, @output_tokens,
         @cache_creation_input_tokens, @cache_read_input_tokens, @billable_units, @cost_units, @outcome,
         @finished_at_ms, @recorded_at_ms)
       ON CONFLICT (request_id) DO NOTHING`,
    );
    this.sumUsed = db.prepare(
      `SELECT COALESCE(SUM(billable_units), 0) AS used FROM usage_ledger
       WHERE account_id = ? AND environment = 'live' AND finished_at_ms >= ? AND finished_at_ms < ?`,
    );
    this.totals = db
      .prepare(
        `SELECT model, COUNT(*) AS requests, SUM(billable_units) AS billable_units, SUM(cost_units) AS cost_units
         FROM usage_ledger WHERE account_id = ? AND environment = ? AND finished_at_ms >= ? AND finished_at_ms < ?
         GROUP BY model ORDER BY model`,
      )
      .safeIntegers(true);
  }

  /** true when written now; false when this request id was already in the ledger. */
  record(entry: LedgerEntry): boolean {
    return this.insert.run({ ...entry, recorded_at_ms: this.now() }).changes === 1;
  }

  /** Billable units of live traffic in [startMs, endMs): the figure allowance counters are rebuilt from. */
  usedUnits(accountId: string, startMs: number, endMs: number): number {
    return (this.sumUsed.get(accountId, startMs, endMs) as { used: number }).used;
  }

  byModel(accountId: string, environment: Environment, startMs: number, endMs: number): ModelTotals[] {
    const rows = this.totals.all(accountId, environment, startMs, endMs) as Array<{
      model: string;
      requests: bigint;
      billable_units: bigint;
      cost_units: bigint;
    }>;
    return rows.map((r) => ({
      model: r.model,
      requests: Number(r.requests),
      billable_units: Number(r.billable_units),
      cost_units: r.cost_units,
    }));
  }
}
