import type pg from 'pg';
import type { Logger } from '@gateway/shared';
import type { LedgerSeed } from '../../counters/counter-store.js';
import { awaitsCounting, LEDGER_ROW_COLUMNS, type LedgerWrite, type LedgerWriteResult, type RowState } from '../ledger-statements.js';
import { LEDGER_WINDOW, type LedgerWriter } from '../ledger-writer.js';
import type { LedgerEntry } from '../usage-ledger.js';
import { WriteBatcher, type BatchWindow } from '../write-batcher.js';
import { inTransaction } from './pg-pool.js';

const INSERT_ROW = `INSERT INTO usage_ledger (${LEDGER_ROW_COLUMNS.join(', ')})
  VALUES (${LEDGER_ROW_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})
  ON CONFLICT (request_id) DO NOTHING`;

const UPSERT_TOTALS = `INSERT INTO usage_totals (account_id, environment, period_start_ms, model, requests, billable_units, cost_units)
  VALUES ($1, $2, $3, $4, 1, $5, $6)
  ON CONFLICT (account_id, environment, period_start_ms, model) DO UPDATE SET
    requests = usage_totals.requests + 1,
    billable_units = usage_totals.billable_units + EXCLUDED.billable_units,
    cost_units = usage_totals.cost_units + EXCLUDED.cost_units`;

/** SQLSTATEs of a transaction PostgreSQL gave up on for its own reasons (a deadlock, a serialization failure). */
const RETRYABLE = new Set(['40P01', '40001']);

/**
 * The usage ledger's writes on PostgreSQL, shared by every policy replica: the writes of one window go in one
 * transaction on the pool (the event loop only waits for the answers), each request id applied once whichever
 * replica a report reaches (the primary key, and totals moved only by the insert that wrote the row). A window
 * takes its accounts' advisory locks first, in one order, so two replicas' windows never deadlock on the totals
 * they both move; a transaction PostgreSQL aborts anyway is tried once more. Windows commit one at a time.
 */
export class PgLedgerWriter implements LedgerWriter {
  private readonly batch: WriteBatcher<LedgerWrite, LedgerWriteResult>;

  constructor(
    private readonly pool: pg.Pool,
    private readonly log: Logger,
    /** Hears the duration (seconds) of each committed window. */
    private readonly onWritten: (seconds: number) => void = () => undefined,
    window: BatchWindow = LEDGER_WINDOW,
    private readonly now: () => number = Date.now,
  ) {
    this.batch = new WriteBatcher((writes) => this.commit(writes), window);
  }

  record(entry: LedgerEntry): Promise<RowState> {
    return this.batch.add({ kind: 'record', entry }) as Promise<RowState>;
  }

  markCounted(requestId: string, by: number): Promise<number> {
    return this.batch.add({ kind: 'mark', requestId, by }) as Promise<number>;
  }

  async touchKeys(lastUsed: ReadonlyMap<string, number>): Promise<void> {
    if (lastUsed.size > 0) await this.batch.add({ kind: 'touch', lastUsed: [...lastUsed] });
  }

  /**
   * Committed rows and this replica's rows still waiting (or being committed), read in one snapshot: a row that
   * commits meanwhile is counted either as committed or as waiting, never both and never neither.
   */
  async seed(accountId: string, startMs: number, endMs: number): Promise<LedgerSeed> {
    const waiting = this.batch.waiting().flatMap((w): LedgerEntry[] =>
      w.kind === 'record' && w.entry.account_id === accountId && w.entry.period_start_ms === startMs && awaitsCounting(w.entry)
        ? [w.entry]
        : [],
    );
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const used = await client.query<{ used: string }>(
        `SELECT COALESCE(SUM(billable_units), 0)::text AS used FROM usage_totals
         WHERE account_id = $1 AND environment = 'live' AND period_start_ms = $2`,
        [accountId, startMs],
      );
      const uncounted = await client.query<{ request_id: string }>(
        `SELECT request_id FROM usage_ledger
         WHERE account_id = $1 AND counted = 0 AND finished_at_ms >= $2 AND finished_at_ms < $3`,
        [accountId, startMs, endMs],
      );
      const committed = waiting.length === 0
        ? new Set<string>()
        : new Set(
            (await client.query<{ request_id: string }>('SELECT request_id FROM usage_ledger WHERE request_id = ANY($1::text[])', [
              waiting.map((e) => e.request_id),
            ])).rows.map((r) => r.request_id),
          );
      await client.query('COMMIT');
      let units = Number(used.rows[0]?.used ?? 0);
      const seen = new Set<string>();
      for (const e of waiting) {
        if (committed.has(e.request_id) || seen.has(e.request_id)) continue;
        seen.add(e.request_id);
        units += e.billable_units;
      }
      return { units, uncounted: uncounted.rows.map((r) => r.request_id), waiting: [...seen] };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async flush(): Promise<void> {
    await this.batch.flush();
  }

  /** Commits what waits; the pool is the store's, which closes it. */
  close(): Promise<void> {
    return this.flush();
  }

  private async commit(writes: LedgerWrite[]): Promise<LedgerWriteResult[]> {
    const started = performance.now();
    try {
      let results: LedgerWriteResult[];
      try {
        results = await this.apply(writes);
      } catch (err) {
        if (!RETRYABLE.has((err as { code?: string }).code ?? '')) throw err;
        this.log.warn({ code: (err as { code?: string }).code }, 'ledger window aborted by PostgreSQL; trying it once more');
        results = await this.apply(writes);
      }
      this.onWritten((performance.now() - started) / 1000);
      return results;
    } catch (err) {
      throw new Error(`ledger write failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
  }

  private apply(writes: LedgerWrite[]): Promise<LedgerWriteResult[]> {
    // The writes keep their order (a replay after its row's mark sees the mark, as on SQLite). So that two replicas'
    // windows cannot deadlock on the totals rows they both move, each first takes its accounts' advisory locks, in
    // one order: windows touching an account's totals take turns.
    const accounts = [...new Set(writes.flatMap((w) => (w.kind === 'record' ? [w.entry.account_id] : [])))].sort();
    return inTransaction(this.pool, async (c) => {
      if (accounts.length > 0) {
        await c.query("SELECT pg_advisory_xact_lock(hashtextextended('usage_totals:' || a, 0)) FROM unnest($1::text[]) AS a ORDER BY a", [accounts]);
      }
      const results: LedgerWriteResult[] = [];
      for (const w of writes) results.push(await this.applyOne(c, w));
      return results;
    });
  }

  private async applyOne(c: pg.PoolClient, w: LedgerWrite): Promise<LedgerWriteResult> {
    switch (w.kind) {
      case 'record': {
        const e = w.entry;
        const counted = awaitsCounting(e) ? 0 : 1;
        const row: Record<string, unknown> = { ...e, recorded_at_ms: this.now(), counted };
        const inserted = (await c.query(INSERT_ROW, LEDGER_ROW_COLUMNS.map((col) => row[col] ?? null))).rowCount === 1;
        if (inserted) {
          await c.query(UPSERT_TOTALS, [e.account_id, e.environment, e.period_start_ms, e.model, e.billable_units, e.cost_units]);
          return { inserted: true, counted };
        }
        const found = await c.query<{ counted: number }>('SELECT counted FROM usage_ledger WHERE request_id = $1', [e.request_id]);
        return { inserted: false, counted: found.rows[0]?.counted ?? 1 };
      }
      case 'mark': {
        // After the update (which waits for a concurrent mark of the row), the committed holder: the first mark wins.
        await c.query('UPDATE usage_ledger SET counted = $1 WHERE request_id = $2 AND counted = 0', [w.by, w.requestId]);
        const held = await c.query<{ counted: number }>('SELECT counted FROM usage_ledger WHERE request_id = $1', [w.requestId]);
        return held.rows[0]?.counted ?? 0;
      }
      case 'touch':
        for (const [id, ms] of [...w.lastUsed].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
          await c.query('UPDATE api_keys SET last_used_at = $1 WHERE id = $2', [new Date(ms).toISOString(), id]);
        }
        return null;
    }
  }
}
