#!/usr/bin/env node
import { ConfigError, createLogger, loadConfig } from '@gateway/shared';
import { runPolicy } from './run.js';

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
  const shutdown = (signal: string): void => {
    log.info({ signal }, 'shutting down');
    running.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`policy service failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
