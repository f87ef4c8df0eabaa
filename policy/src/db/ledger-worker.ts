/*
 * The ledger writer's thread: its own SQLite connection and every commit (ledger rows, counted marks, last-used
 * times, and the WAL checkpoints commits run), so none of them runs on the event loop that makes decisions. The
 * writes arrive a window at a time (the window is kept on the sending side: one message per window each way) and
 * are committed at once. Messages are handled in arrival order, so a rebuild figure asked for after a write was
 * sent sees it committed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openConnection } from './database.js';
import { LedgerStatements } from './ledger-statements.js';
import { fromWire, type LedgerWorkerData, type LedgerWorkerReply, type LedgerWorkerRequest } from './ledger-worker-protocol.js';

if (parentPort === null) throw new Error('ledger-worker runs as a worker thread');
const port = parentPort;
const { file } = workerData as LedgerWorkerData;
const db = openConnection(file);
const statements = new LedgerStatements(db);

function answer(req: LedgerWorkerRequest): LedgerWorkerReply {
  switch (req.op) {
    case 'commit': {
      const started = performance.now();
      const value = statements.applyAll.immediate(req.writes.map(fromWire));
      return { id: req.id, ok: true, value, seconds: (performance.now() - started) / 1000 };
    }
    case 'seed':
      return { id: req.id, ok: true, value: statements.seed(req.accountId, req.startMs, req.endMs) };
    case 'close':
      db.close();
      return { id: req.id, ok: true, value: null };
  }
}

port.on('message', (req: LedgerWorkerRequest) => {
  let reply: LedgerWorkerReply;
  try {
    reply = answer(req);
  } catch (err) {
    reply = { id: req.id, ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(reply);
  if (req.op === 'close') port.close();
});
