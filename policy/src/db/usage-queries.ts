import type { Environment } from '@gateway/shared';
import type { Db } from './database.js';

export interface DailyUsageRow {
  date: string;
  environment: Environment;
  model: string;
  requests: number;
  billable_units: number;
  /** 1e-8 GBP, exact */
  cost_units: bigint;
}

export interface ModelTotals {
  model: string;
  requests: number;
  billable_units: number;
  /** 1e-8 GBP, exact */
  cost_units: bigint;
}

export interface KeyTotals {
  requests: number;
  billable_units: number;
}

const DAY = `strftime('%Y-%m-%d', finished_at_ms / 1000, 'unixepoch')`;

/** Read-only ledger queries for the dashboard and the admin API (the ledger itself is in usage-ledger.ts). */
export class UsageQueries {
  private readonly daily;
  private readonly keyDaily;
  private readonly perKey;
  private readonly sumUsed;
  private readonly totals;

  constructor(db: Db) {
    // By account and by key: the same grouping, filtered on one column or the other.
    const daily = (column: 'account_id' | 'key_id') =>
      db
        .prepare(
          `SELECT ${DAY} AS date, environment, model, COUNT(*) AS requests, SUM(billable_units) AS billable_units,
             SUM(cost_units) AS cost_units
           FROM usage_ledger WHERE ${column} = ? AND finished_at_ms >= ? AND finished_at_ms < ?
           GROUP BY date, environment, model ORDER BY date, environment, model`,
        )
        .safeIntegers(true);
    this.daily = daily('account_id');
    this.keyDaily = daily('key_id');
    this.perKey = db.prepare(
      `SELECT key_id, COUNT(*) AS requests, SUM(billable_units) AS billable_units
       FROM usage_ledger WHERE account_id = ? AND finished_at_ms >= ? GROUP BY key_id`,
    );
    this.sumUsed = db.prepare(
      `SELECT COALESCE(SUM(billable_units), 0) AS used FROM usage_totals
       WHERE account_id = ? AND environment = 'live' AND period_start_ms = ?`,
    );
    this.totals = db
      .prepare(
        `SELECT model, requests, billable_units, cost_units FROM usage_totals
         WHERE account_id = ? AND environment = ? AND period_start_ms = ? ORDER BY model`,
      )
      .safeIntegers(true);
  }

  /** One row per UTC day, environment and model in [fromMs, toMs). */
  dailyByModel(accountId: string, fromMs: number, toMs: number): DailyUsageRow[] {
    return (this.daily.all(accountId, fromMs, toMs) as RawDaily[]).map(fromRaw);
  }

  keyDailyByModel(keyId: string, fromMs: number, toMs: number): DailyUsageRow[] {
    return (this.keyDaily.all(keyId, fromMs, toMs) as RawDaily[]).map(fromRaw);
  }

  /** Requests and billable units of each of an account's keys since `fromMs` (one grouped scan). */
  perKeySince(accountId: string, fromMs: number): Map<string, KeyTotals> {
    const rows = this.perKey.all(accountId, fromMs) as Array<{ key_id: string; requests: number; billable_units: number }>;
    return new Map(rows.map((r) => [r.key_id, { requests: r.requests, billable_units: r.billable_units }]));
  }

  /** Billable units of live traffic in the period starting at `startMs` (from the period totals). */
  usedUnits(accountId: string, startMs: number): number {
    return (this.sumUsed.get(accountId, startMs) as { used: number }).used;
  }

  /** The period's totals per model for one environment. */
  byModel(accountId: string, environment: Environment, startMs: number): ModelTotals[] {
    const rows = this.totals.all(accountId, environment, startMs) as Array<{ model: string; requests: bigint; billable_units: bigint; cost_units: bigint }>;
    return rows.map((r) => ({ model: r.model, requests: Number(r.requests), billable_units: Number(r.billable_units), cost_units: r.cost_units }));
  }
}

interface RawDaily {
  date: string;
  environment: Environment;
  model: string;
  requests: bigint;
  billable_units: bigint;
  cost_units: bigint;
}

const fromRaw = (r: RawDaily): DailyUsageRow => ({
  date: r.date,
  environment: r.environment,
  model: r.model,
  requests: Number(r.requests),
  billable_units: Number(r.billable_units),
  cost_units: r.cost_units,
});
