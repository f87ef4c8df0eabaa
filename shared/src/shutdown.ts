import type { Logger } from './logger.js';

/** Beyond the drain timeout, how long shutting down may take before the process exits anyway. */
const EXIT_MARGIN_MS = 10_000;

/**
 * How a process of the gateway stops (CONTRACT.md "Operating it"). SIGTERM or SIGINT starts the drain once: a
 * container runtime signals the whole process group and a supervisor may forward the same signal, so later
 * signals are noted and change nothing (a second SIGTERM must not cut streams). Started by a supervisor over an
 * IPC channel (`npm start`), the process also stops when that channel closes, with no grace, so a new
 * supervisor can take the ports at once. Should the drain itself hang, the process still ends.
 */
export function stopOnSignals(log: Logger, drainTimeoutMs: number, stop: (options?: { graceMs: number }) => Promise<void>): void {
  let stopping = false;
  const shutdown = (reason: string, options?: { graceMs: number }): void => {
    if (stopping) {
      log.info({ reason }, 'already draining');
      return;
    }
    stopping = true;
    log.info({ reason }, 'shutting down');
    setTimeout(() => process.exit(1), drainTimeoutMs + EXIT_MARGIN_MS).unref();
    stop(options).then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  if (process.send !== undefined) process.on('disconnect', () => shutdown('supervisor gone', { graceMs: 0 }));
}
