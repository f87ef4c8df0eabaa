import { parentPort, workerData } from 'node:worker_threads';
import { detectAll, loadNameModel, useNameModel, type NameModel } from '@gateway/privacy';

// The person-name model the main thread loaded and checked at start, its weights in shared memory (no copy per
// thread); a pool made without one loads the shipped model, checked the same way.
const shared = (workerData as { nameModel?: NameModel } | null)?.nameModel;
useNameModel(shared ?? loadNameModel());

/** A detector thread: texts in, findings out. Runs only the pure detector; nothing here logs a value. */
parentPort?.on('message', (msg: { id: number; texts: string[] }) => {
  parentPort?.postMessage({ id: msg.id, findings: detectAll(msg.texts) });
});
