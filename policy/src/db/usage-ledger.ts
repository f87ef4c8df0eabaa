import type { Environment, Residency, UsageOutcome } from '@gateway/shared';
import type { Db } from './database.js';
import { LedgerStatements } from './ledger-statements.js';
import { UsageQueries } from './usage-queries.js';

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
  /** start of the billing period the request belongs to */
  period_start_ms: number;
  /**
   * Where the request was processed, as its decision's Grant said (the attestation's fields). All null for a
   * report from a proxy that predates them, and for rows recorded before the columns existed.
   */
  residency: Residency | null;
  call_region: string | null;
  /** The processing regions as the column holds them: a JSON array of region ids, in the route's order. */
  processing_regions: string | null;
  regions_basis: RegionsBasis | null;
  /** Hex SHA-256 of the control plane's answer a verified route relied on; null when declared. */
  evidence_sha256: string | null;
  /** When that answer was received (ms since the epoch); null when declared. */
  evidence_at_ms: number | null;
  /** The serving route's platform (bedrock, vertex, messages); null from a proxy that predates routes. */
  platform: string | null;
}

export type RegionsBasis = 'verified' | 'declared';

/** A ledger row's residency columns. */
export type LedgerRoute = Pick<LedgerEntry, 'residency' | 'call_region' | 'processing_regions' | 'regions_basis' | 'evidence_sha256' | 'evidence_at_ms' | 'platform'>;

/** The residency columns of a row whose report carried no route (a proxy that predates the fields). */
export const ROUTE_NOT_RECORDED: Readonly<LedgerRoute> = Object.freeze({
  residency: null, call_region: null, processing_regions: null, regions_basis: null, evidence_sha256: null, evidence_at_ms: null,
  platform: null,
});

export interface ModelTotals {
  model: string;
  requests: number;
  billable_units: number;
  cost_units: bigint;
}

/**
 * The durable usage ledger, read side: per-period totals kept with each insert, so reports and counter rebuilds
 * never scan a period's rows. The policy service writes through LedgerWriter (its own thread and connection);
 * record() here writes on the caller's connection (tools, and tests that set a ledger up).
 */
export class UsageLedger {
  private readonly statements: LedgerStatements;
  /** The period totals' reads, the store's own (one set of statements for both). */
  private readonly reads: UsageQueries;

  constructor(db: Db, now: () => number = Date.now) {
    this.statements = new LedgerStatements(db, now);
    this.reads = new UsageQueries(db);
  }

  /** true when written now; false when this request id was already in the ledger. */
  record(entry: LedgerEntry): boolean {
    const [row] = this.statements.applyAll.immediate([{ kind: 'record', entry }]);
    return typeof row === 'object' && row?.inserted === true;
  }

  /** Billable units of live traffic in the period starting at `startMs` (committed rows). */
  usedUnits(accountId: string, startMs: number): number {
    return this.reads.usedUnits(accountId, startMs);
  }

  byModel(accountId: string, environment: Environment, startMs: number): ModelTotals[] {
    return this.reads.byModel(accountId, environment, startMs);
  }
}
