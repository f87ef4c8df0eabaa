import { parentPort } from 'node:worker_threads';
import { detect } from './detect.js';

/** A detector thread: texts in, findings out. Runs only the pure detector; nothing here logs a value. */
parentPort?.on('message', (msg: { id: number; texts: string[] }) => {
  parentPort?.postMessage({ id: msg.id, findings: msg.texts.map((t) => detect(t)) });
});
