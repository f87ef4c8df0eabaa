import type Database from 'better-sqlite3';
import type { Db } from './database.js';
import { UPSERT_TOTALS } from './usage-totals.js';
import type { LedgerEntry } from './usage-ledger.js';

/**
 * The columns a report's row is written with, in both engines: a LedgerEntry's fields, plus when it was recorded
 * and whether it is counted. A new ledger column is added here, to LedgerEntry and to the migrations.
 */
export const LEDGER_ROW_COLUMNS = [
  'request_id', 'account_id', 'key_id', 'environment', 'model', 'input_tokens', 'output_tokens',
  'cache_creation_input_tokens', 'cache_read_input_tokens', 'billable_units', 'cost_units', 'outcome', 'finished_at_ms',
  'recorded_at_ms', 'counted',
  'residency', 'call_region', 'processing_regions', 'regions_basis', 'evidence_sha256', 'evidence_at_ms', 'platform',
] as const;

/** Whether a recorded row waits to be counted into the allowance counter (live, billable usage does). */
export function awaitsCounting(entry: Pick<LedgerEntry, 'environment' | 'billable_units'>): boolean {
  return entry.environment === 'live' && entry.billable_units > 0;
}

/**
 * A row as a report finds it: written by this report (`inserted`), or already there; `counted` is 0 while its
 * units wait to be counted, else the attempt that counted them (1: a counter rebuild, or not known).
 */
export interface RowState {
  inserted: boolean;
  counted: number;
}

/** The writes the ledger gathers into one transaction per window. */
export type LedgerWrite =
  | { kind: 'record'; entry: LedgerEntry }
  | { kind: 'mark'; requestId: string; by: number }
  | { kind: 'touch'; lastUsed: ReadonlyArray<readonly [keyId: string, ms: number]> };

/** A record's row state; a mark's holder (who counts the row after it: the first mark wins); nothing for a touch. */
export type LedgerWriteResult = RowState | number | null;

/** The ledger's SQL on one connection: writes in one transaction, and the figure a counter is rebuilt from. */
export class LedgerStatements {
  private readonly insert;
  private readonly upsertTotals;
  private readonly rowState;
  private readonly markOne;
  private readonly touchKey;
  private readonly sumUsed;
  private readonly uncounted;
  /** Every write of a window in one transaction; `.immediate()` takes the write lock at once. */
  readonly applyAll: Database.Transaction<(writes: LedgerWrite[]) => LedgerWriteResult[]>;

  constructor(db: Db, private readonly now: () => number = Date.now) {
    this.insert = db.prepare(
      `INSERT INTO usage_ledger (${LEDGER_ROW_COLUMNS.join(', ')})
       VALUES (${LEDGER_ROW_COLUMNS.map((c) => `@${c}`).join(', ')})
       ON CONFLICT (request_id) DO NOTHING`,
    );
    this.upsertTotals = db.prepare(UPSERT_TOTALS);
    this.rowState = db.prepare('SELECT counted FROM usage_ledger WHERE request_id = ?');
    // The first count wins: a row counted by a rebuild keeps that, whichever attempt reports after it.
    this.markOne = db.prepare('UPDATE usage_ledger SET counted = ? WHERE request_id = ? AND counted = 0');
    this.touchKey = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
    this.sumUsed = db.prepare(
      `SELECT COALESCE(SUM(billable_units), 0) AS used FROM usage_totals
       WHERE account_id = ? AND environment = 'live' AND period_start_ms = ?`,
    );
    this.uncounted = db.prepare(
      `SELECT request_id FROM usage_ledger
       WHERE account_id = ? AND counted = 0 AND finished_at_ms >= ? AND finished_at_ms < ?`,
    );
    // One commit per window for every kind of write: a report's row, the counted mark of an earlier one and
    // last-used times touch few pages, and each commit costs a WAL write per page plus its locks.
    this.applyAll = db.transaction((writes: LedgerWrite[]): LedgerWriteResult[] => writes.map((w) => this.apply(w)));
  }

  /** Writes one report's row (once per request id) and its period totals; the row's state as the report finds it. */
  record(entry: LedgerEntry): RowState {
    // Live usage waits to be counted into the allowance counter; test traffic never touches it.
    const counted = awaitsCounting(entry) ? 0 : 1;
    if (this.insert.run({ ...entry, recorded_at_ms: this.now(), counted }).changes === 1) {
      this.upsertTotals.run(entry);
      return { inserted: true, counted };
    }
    const row = this.rowState.get(entry.request_id) as { counted: number };
    return { inserted: false, counted: row.counted };
  }

  /**
   * The figure a period's used counter is rebuilt from: committed live rows (from the period totals), and the ids
   * among them not marked counted. (The writer commits what waits in its window before it asks.)
   */
  seed(accountId: string, startMs: number, endMs: number): { units: number; uncounted: string[]; waiting: string[] } {
    const units = (this.sumUsed.get(accountId, startMs) as { used: number }).used;
    const uncounted = (this.uncounted.all(accountId, startMs, endMs) as Array<{ request_id: string }>).map((r) => r.request_id);
    return { units, uncounted, waiting: [] };
  }

  private apply(w: LedgerWrite): LedgerWriteResult {
    switch (w.kind) {
      case 'record':
        return this.record(w.entry);
      case 'mark':
        // Changed: the row is counted by `by` now (no read needed); else it was counted already, or is not there.
        if (this.markOne.run(w.by, w.requestId).changes === 1) return w.by;
        return (this.rowState.get(w.requestId) as { counted: number } | undefined)?.counted ?? 0;
      case 'touch':
        for (const [id, ms] of w.lastUsed) this.touchKey.run(new Date(ms).toISOString(), id);
        return null;
    }
  }
}
