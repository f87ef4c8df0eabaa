/*
 * The ledger writer's thread: its own SQLite connection, the write window and every commit (ledger rows, counted
 * marks, last-used times, and the WAL checkpoints commits run), so none of them runs on the event loop that makes
 * decisions. Messages are handled in arrival order, so a rebuild figure asked for after a write was sent sees it
 * (committed, or waiting in the window).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openConnection } from './database.js';
import { LedgerStatements, type LedgerWrite, type LedgerWriteResult } from './ledger-statements.js';
import type { LedgerWorkerData, LedgerWorkerReply, LedgerWorkerRequest } from './ledger-worker-protocol.js';
import { WriteBatcher } from './write-batcher.js';
import type { LedgerEntry } from './usage-ledger.js';

const port = parentPort;
if (port === null) throw new Error('ledger-worker runs as a worker thread');
const { file, window } = workerData as LedgerWorkerData;
const db = openConnection(file);
const statements = new LedgerStatements(db);
const batch = new WriteBatcher<LedgerWrite, LedgerWriteResult>(
  (writes) => statements.applyAll.immediate(writes),
  window,
  (seconds) => post({ id: 0, written: seconds }),
);

function post(reply: LedgerWorkerReply): void {
  port?.postMessage(reply);
}

function fail(id: number, err: unknown): void {
  post({ id, ok: false, message: err instanceof Error ? err.message : String(err) });
}

port.on('message', (req: LedgerWorkerRequest) => {
  try {
    switch (req.op) {
      case 'write':
        batch.add(req.write).then(
          (value) => post({ id: req.id, ok: true, value }),
          (err: unknown) => fail(req.id, err),
        );
        return;
      case 'seed': {
        const pending = batch.queued().flatMap((w): LedgerEntry[] => (w.kind === 'record' ? [w.entry] : []));
        post({ id: req.id, ok: true, value: statements.seed(req.accountId, req.startMs, req.endMs, pending) });
        return;
      }
      case 'flush':
        batch.flush();
        post({ id: req.id, ok: true, value: null });
        return;
      case 'close':
        batch.flush();
        db.close();
        post({ id: req.id, ok: true, value: null });
        port.close();
        return;
    }
  } catch (err) {
    fail(req.id, err);
  }
});
