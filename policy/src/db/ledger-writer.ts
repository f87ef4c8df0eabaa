import type { Logger } from '@gateway/shared';
import { REBUILD_HOLDER, type LedgerSeed, type UsageSource } from '../counters/counter-store.js';
import type { RowState } from './ledger-statements.js';
import type { LedgerEntry } from './usage-ledger.js';
import type { BatchWindow } from './write-batcher.js';

/**
 * How long ledger writes wait for company before they are committed together. Each commit costs its storage a
 * write and its locks whatever it carries. The commits run where they cannot hold up a decision (SQLite: the
 * writer's own thread), so the window delays only the acknowledgement of a report (the proxy holds the report
 * until then), never the counting of its units, which happens at release.
 */
export const LEDGER_WINDOW: BatchWindow = { windowMs: 20, maxItems: 64 };

/**
 * The usage ledger's write side, one engine each (SQLite on a thread of its own, PostgreSQL on its pool): rows of
 * finished requests, once per request id; who counted each row; last-used times; and the figure a lost counter is
 * rebuilt from. Every promise settles once its write is committed.
 */
export interface LedgerWriter {
  /** Writes a report's row once per request id; resolves, once committed, with the row as the report found it. */
  record(entry: LedgerEntry): Promise<RowState>;
  /**
   * Marks a row counted by `by` (an attempt id, or 1 for a rebuild) unless it is counted already; resolves with who
   * counts it once the mark is committed (`by`, or the earlier holder).
   */
  markCounted(requestId: string, by: number): Promise<number>;
  /** Last-used times of keys (written at most once a minute per key). */
  touchKeys(lastUsed: ReadonlyMap<string, number>): Promise<void>;
  /** The figure a lost used counter is rebuilt from: committed rows, and this writer's rows still in its window. */
  seed(accountId: string, startMs: number, endMs: number): Promise<LedgerSeed>;
  /** Commits what waits for its window now. */
  flush(): Promise<void>;
  /** Commits what waits, then lets go of the database. */
  close(): Promise<void>;
}

/** The ledger as the counter stores rebuild from it: its figures, and marks for the uncounted rows a rebuild took. */
export function usageSourceOf(writer: LedgerWriter, log: Logger): UsageSource {
  return {
    load: (accountId, startMs, endMs) => writer.seed(accountId, startMs, endMs),
    included: (requestIds) => {
      for (const id of requestIds) {
        // A mark that fails leaves the row uncounted; its marker (set with the rebuild) still stops a second add.
        writer.markCounted(id, REBUILD_HOLDER).catch((err: unknown) => log.warn({ err }, 'marking rebuilt ledger rows counted failed'));
      }
    },
  };
}
