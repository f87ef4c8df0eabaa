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
