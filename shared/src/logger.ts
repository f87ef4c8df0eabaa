import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger };

/** Paths whose values never reach a log line: credentials in headers and anything that might carry a key. */
const REDACT_PATHS = [
  'headers.authorization',
  'headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'apiKey',
  'api_key',
  'key',
];

/** The one structured JSON logger of a process; per-request loggers are children carrying request and decision ids. */
export function createLogger(
  name: string,
  level: string,
  destination?: DestinationStream,
): Logger {
  const options = {
    name,
    level,
    base: { svc: name },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return pino(options, destination ?? stdout());
}

let standardOutput: DestinationStream | undefined;

/**
 * Standard output, written synchronously (one for the process). pino's default writes through libuv's thread
 * pool and flushes what is left when the process exits, and that flush retries a broken pipe forever: with its
 * reader gone (a supervisor or log shipper that died), a process that logged twice before `process.exit` never
 * ended, whatever signal came next but SIGKILL. A synchronous write has nothing left to flush, and on a broken
 * pipe pino stops writing instead.
 */
function stdout(): DestinationStream {
  standardOutput ??= pino.destination({ dest: 1, sync: true });
  return standardOutput;
}

/**
 * Standard output in batches (the proxy's access log: one line per request). Lines gather to 4 KiB, or for at most
 * 100 ms, and go out in one synchronous write: a write(2) per line was over half of the access log's cost in the
 * proxy's profile under load (bench:floor --cpu-prof, docs/benchmarks.md). What is gathered is written when the
 * process exits (an uncaught exception included); a process killed with SIGKILL loses at most the last 100 ms.
 * On a broken pipe pino stops writing, as with stdout().
 */
export function batchedStdout(): DestinationStream {
  const destination = pino.destination({ dest: 1, sync: true, minLength: 4096, periodicFlush: 100 });
  process.once('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // nowhere left to write to
    }
  });
  return destination;
}
