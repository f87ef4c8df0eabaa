#!/usr/bin/env node
import { ConfigError, createLogger, loadConfig, stopOnSignals } from '@gateway/shared';
import { runPolicy } from './run.js';

/** Entry point: only wiring. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env, undefined, { service: 'policy' });
  } catch (err) {
    process.stderr.write(`${err instanceof ConfigError ? err.message : String(err)}\n`);
    process.exit(2);
  }
  const log = createLogger('policy', config.logLevel);
  const running = await runPolicy(config, log, (line) => process.stdout.write(`${line}\n`));
  stopOnSignals(log, config.drain.timeoutMs, (options) => running.stop(options));
}

main().catch((err: unknown) => {
  process.stderr.write(`policy service failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
