import type { Environment, Residency } from '@gateway/shared';
import type { Db } from './database.js';
import type { RegionsBasis } from './usage-ledger.js';

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

/**
 * One row of the residency report: live requests of one UTC day that ran on the same route. The route fields are
 * null for rows recorded without them (before the ledger had the columns, or from a proxy that predates them).
 */
export interface ResidencyReportRow {
  date: string;
  tier: Residency | null;
  call_region: string | null;
  processing_regions: string[] | null;
  regions_basis: RegionsBasis | null;
  requests: number;
  billable_units: number;
  /** the serving route's platform; null when not recorded */
  platform: string | null;
}

/** A residency row as both engines' queries return it (regions as the column's JSON text, sums as text or bigint). */
export interface RawResidencyRow {
  date: string;
  residency: Residency | null;
  call_region: string | null;
  processing_regions: string | null;
  regions_basis: RegionsBasis | null;
  platform: string | null;
  requests: number | bigint | string;
  billable_units: number | bigint | string;
}

export const residencyRow = (r: RawResidencyRow): ResidencyReportRow => ({
  date: r.date,
  tier: r.residency,
  call_region: r.call_region,
  processing_regions: r.processing_regions === null ? null : (JSON.parse(r.processing_regions) as string[]),
  regions_basis: r.regions_basis,
  requests: Number(r.requests),
  billable_units: Number(r.billable_units),
  platform: r.platform,
});

/** The residency report's grouping, the same on both engines (what differs is the day's expression and collation). */
export const RESIDENCY_GROUPS = ['residency', 'call_region', 'processing_regions', 'regions_basis', 'platform'] as const;

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
  private readonly residencyAll;
  private readonly residencyOf;

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
    // Live traffic only; one account's rows through usage_ledger_account_time, every account's by a range scan.
    const residency = (oneAccount: boolean) =>
      db.prepare(
        `SELECT ${DAY} AS date, ${RESIDENCY_GROUPS.join(', ')}, COUNT(*) AS requests, SUM(billable_units) AS billable_units
         FROM usage_ledger
         WHERE ${oneAccount ? 'account_id = @account AND ' : ''}environment = 'live' AND finished_at_ms >= @from AND finished_at_ms < @to
         GROUP BY date, ${RESIDENCY_GROUPS.join(', ')}
         ORDER BY date, ${RESIDENCY_GROUPS.map((c) => `${c} NULLS FIRST`).join(', ')}`,
      ).safeIntegers(true);
    this.residencyAll = residency(false);
    this.residencyOf = residency(true);
  }

  /** Live requests per UTC day and route in [fromMs, toMs): one account's, or every account's when undefined. */
  residencyReport(accountId: string | undefined, fromMs: number, toMs: number): ResidencyReportRow[] {
    const rows = accountId === undefined
      ? this.residencyAll.all({ from: fromMs, to: toMs })
      : this.residencyOf.all({ account: accountId, from: fromMs, to: toMs });
    return (rows as RawResidencyRow[]).map(residencyRow);
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
