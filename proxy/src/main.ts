#!/usr/bin/env node
import { ConfigError, batchedStdout, createLineLog, createLogger, loadConfig, stopOnSignals } from '@gateway/shared';
import { NameModelError } from '@gateway/privacy';
import { runProxy } from './run.js';

/** Entry point: only wiring. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    process.stderr.write(`${err instanceof ConfigError ? err.message : String(err)}\n`);
    process.exit(2);
  }
  const log = createLogger('proxy', config.logLevel);
  // Access lines in batches; every other line (warnings and errors above all) goes out as it is written.
  const running = await runProxy(config, log, createLineLog('proxy', config.logLevel, batchedStdout()));
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
