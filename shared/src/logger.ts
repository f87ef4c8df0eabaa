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
  return destination === undefined ? pino(options) : pino(options, destination);
}
