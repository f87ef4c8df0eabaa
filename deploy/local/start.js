#!/usr/bin/env node
// `npm start`: runs the policy service and the proxy as two processes on embedded defaults (SQLite under
// GATEWAY_DATA_DIR, in-process counters unless REDIS_URL is set). If either exits, the other is stopped.
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const children = [];
let stopping = false;

function start(name, script) {
  const child = spawn(process.execPath, [resolve(root, script)], { stdio: 'inherit', env: process.env });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      process.stderr.write(`${name} exited (${signal ?? code}); stopping the gateway\n`);
      stop(code ?? 1);
    }
  });
  children.push(child);
  return child;
}

function stop(code) {
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 3000).unref();
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null))).then(() => process.exit(code));
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

start('policy service', 'policy/dist/src/main.js');
start('proxy', 'proxy/dist/src/main.js');
process.stdout.write(`Model gateway starting: http://localhost:${process.env.PORT ?? 8080}/v1 (Ctrl-C to stop)\n`);
