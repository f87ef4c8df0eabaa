import type { LedgerWrite, LedgerWriteResult } from './ledger-statements.js';

/** What the ledger writer's thread is started with. */
export interface LedgerWorkerData {
  file: string;
}

/**
 * Messages to the thread, handled in arrival order; each is answered once under its id. The writes of a window
 * (LEDGER_WINDOW, gathered on the sending side) come in one message and are committed in one transaction.
 */
export type LedgerWorkerRequest = { id: number } & (
  | { op: 'commit'; writes: LedgerWrite[] }
  | { op: 'seed'; accountId: string; startMs: number; endMs: number }
  | { op: 'close' }
);

/** Answers by id; a commit's says how long the transaction took (seconds). */
export type LedgerWorkerReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: true; value: LedgerWriteResult[]; seconds: number }
  | { id: number; ok: false; message: string };
