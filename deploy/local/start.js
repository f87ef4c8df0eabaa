#!/usr/bin/env node
// `npm start`: runs the policy service and the proxy as two supervised processes on embedded defaults (SQLite
// under GATEWAY_DATA_DIR, in-process counters unless REDIS_URL is set).
// - A process that dies is restarted with backoff (0.25 s doubling to 10 s; reset after a minute up). While the
//   policy service is down the proxy keeps answering (503, fail closed) and spools usage reports.
// - SIGTERM/SIGINT drain both (CONTRACT.md "Operating it") and the launcher exits when both have. A container
//   runtime signals the whole process group, so the children may get the signal twice (from it and from here);
//   they treat a repeated signal as a no-op.
// - Each child holds an IPC channel to this process and shuts down (freeing its ports at once) when the channel
//   closes, so a launcher that is killed outright never leaves an orphan serving.
import { fork } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BACKOFF_MS = { first: 250, max: 10_000, resetAfter: 60_000 };
const services = [
  { name: 'policy service', script: 'policy/dist/src/main.js' },
  { name: 'proxy', script: 'proxy/dist/src/main.js' },
];
let stopping = false;

function start(service) {
  const startedAt = Date.now();
  const child = fork(resolve(root, service.script), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: process.env });
  service.child = child;
  child.on('exit', (code, signal) => {
    service.child = undefined;
    if (stopping) {
      if (services.every((s) => s.child === undefined)) process.exit(0);
      return;
    }
    if (code === 2) {
      // Exit code 2 is a configuration error: restarting cannot fix it.
      process.stderr.write(`${service.name} refused its configuration; stopping the gateway\n`);
      stop();
      return;
    }
    if (Date.now() - startedAt > BACKOFF_MS.resetAfter) service.backoff = BACKOFF_MS.first;
    const delay = service.backoff ?? BACKOFF_MS.first;
    service.backoff = Math.min(delay * 2, BACKOFF_MS.max);
    process.stderr.write(`${service.name} exited (${signal ?? code}); restarting it in ${delay} ms\n`);
    setTimeout(() => {
      if (!stopping) start(service);
    }, delay);
  });
}

function stop() {
  if (stopping) return;
  stopping = true;
  const running = services.filter((s) => s.child !== undefined);
  if (running.length === 0) process.exit(0);
  for (const s of running) s.child.kill('SIGTERM');
}

process.on('SIGINT', stop);
process.on('SIGTERM', stop);

for (const s of services) start(s);
process.stdout.write(`Model gateway starting: http://localhost:${process.env.PORT ?? 8080}/v1 (Ctrl-C to stop)\n`);
