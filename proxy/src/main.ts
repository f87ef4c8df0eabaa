#!/usr/bin/env node
import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { ConfigError, batchedStdout, createLineLog, createLogger, loadConfig, stopOnSignals } from '@gateway/shared';
import { NameModelError } from '@gateway/privacy';
import { workerCount } from './cluster/cpu-quota.js';
import { runPrimary } from './cluster/primary.js';

/** Beyond the workers' own exit deadline (drain timeout + 10 s), how long the primary waits before it gives up. */
const PRIMARY_EXIT_MARGIN_MS = 5_000;

/** Entry point: only wiring. PROXY_WORKERS 1 is one process; more, a cluster primary and its workers. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    process.stderr.write(`${err instanceof ConfigError ? err.message : String(err)}\n`);
    process.exit(2);
  }
  const workers = workerCount(config.proxyWorkers, availableParallelism());
  if (workers > 1 && cluster.isPrimary) {
    const log = createLogger('proxy', config.logLevel).child({ role: 'primary' });
    const primary = await runPrimary(config, log, workers);
    stopOnSignals(log, config.drain.timeoutMs + 10_000 + PRIMARY_EXIT_MARGIN_MS, () => primary.stop());
    return;
  }
  // A worker's lines carry its cluster id (and pid: its spool file is named after it).
  const bindings: Record<string, number> = cluster.isWorker && cluster.worker !== undefined ? { worker: cluster.worker.id, pid: process.pid } : {};
  const base = createLogger('proxy', config.logLevel);
  const log = cluster.isWorker ? base.child(bindings) : base;
  // Access lines in batches; every other line (warnings and errors above all) goes out as it is written.
  const accessLog = createLineLog('proxy', config.logLevel, batchedStdout({ sharedWithOtherProcesses: cluster.isWorker }), bindings);
  // Imported here, not at the top: a cluster primary never loads the request path (86 MB RSS without, 98 MB with).
  const { runProxy } = await import('./run.js');
  const running = await runProxy(config, log, accessLog, cluster.isWorker ? { workers } : undefined);
  stopOnSignals(log, config.drain.timeoutMs, (options) => running.stop(options));
}

main().catch((err: unknown) => {
  if (err instanceof NameModelError) {
    process.stderr.write(`proxy cannot start: ${err.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`proxy failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
