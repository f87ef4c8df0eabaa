#!/usr/bin/env node
import { ConfigError, createLogger, loadConfig } from '@gateway/shared';
import { runPolicy } from './run.js';

/** Beyond the drain timeout, how long shutting down may take before the process exits anyway. */
const EXIT_MARGIN_MS = 10_000;

/** Entry point: only wiring. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    process.stderr.write(`${err instanceof ConfigError ? err.message : String(err)}\n`);
    process.exit(2);
  }
  const log = createLogger('policy', config.logLevel);
  const running = await runPolicy(config, log, (line) => process.stdout.write(`${line}\n`));
  // A container runtime signals the whole process group, and a supervisor may forward the same signal: the
  // first starts the drain, later ones are noted and change nothing (a second SIGTERM must not cut streams).
  let stopping = false;
  const shutdown = (reason: string, options?: { graceMs: number }): void => {
    if (stopping) {
      log.info({ reason }, 'already draining');
      return;
    }
    stopping = true;
    log.info({ reason }, 'shutting down');
    // Should the drain itself hang, the process still ends.
    setTimeout(() => process.exit(1), config.drain.timeoutMs + EXIT_MARGIN_MS).unref();
    running.stop(options).then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  // Started by a supervisor over an IPC channel (npm start): when the supervisor is gone, so is this process,
  // and it stops listening at once so that a new supervisor can take the ports.
  if (process.send !== undefined) process.on('disconnect', () => shutdown('supervisor gone', { graceMs: 0 }));
}

main().catch((err: unknown) => {
  process.stderr.write(`policy service failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
