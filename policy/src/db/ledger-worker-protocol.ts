import type { BatchWindow } from './write-batcher.js';
import type { LedgerWrite } from './ledger-statements.js';

/** What the ledger writer's thread is started with. */
export interface LedgerWorkerData {
  file: string;
  window: BatchWindow;
}

/** Messages to the thread; each is answered once under its id. */
export type LedgerWorkerRequest = { id: number } & (
  | { op: 'write'; write: LedgerWrite }
  | { op: 'seed'; accountId: string; startMs: number; endMs: number }
  | { op: 'flush' }
  | { op: 'close' }
);

/** Answers (by id), and, under id 0, how long each committed window took (seconds). */
export type LedgerWorkerReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; message: string }
  | { id: 0; written: number };
