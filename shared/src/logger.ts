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

/** Writes to a pipe up to this size are atomic (POSIX PIPE_BUF; Linux's value). */
const PIPE_BUF = 4096;

/**
 * Standard output in batches (the proxy's access log: one line per request). Lines gather to 4 KiB, or for at most
 * 100 ms, and go out in one synchronous write: a write(2) per line was over half of the access log's cost in the
 * proxy's profile under load (bench:floor --cpu-prof, docs/benchmarks.md). What is gathered is written when the
 * process exits (an uncaught exception included); a process killed with SIGKILL loses at most the last 100 ms.
 * On a broken pipe pino stops writing, as with stdout().
 */
export function batchedStdout(options: { sharedWithOtherProcesses?: boolean } = {}): DestinationStream {
  // Cluster workers write to the primary's stdout pipe: each write(2) is kept to whole lines within PIPE_BUF
  // (4096 bytes on Linux, which the kernel never interleaves with another writer's), so no line is split by
  // another worker's batch.
  const destination = options.sharedWithOtherProcesses === true
    ? pino.destination({ dest: 1, sync: true, minLength: 3072, maxWrite: PIPE_BUF, periodicFlush: 100 })
    : pino.destination({ dest: 1, sync: true, minLength: 4096, periodicFlush: 100 });
  process.once('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // nowhere left to write to
    }
  });
  return destination;
}

/** Info lines in the loggers' format for one hot line of known fields (the proxy's access log). */
export interface LineLog {
  info(fields: Record<string, unknown>, msg: string): void;
}

/**
 * Lines exactly as createLogger's `info` writes them (level, time, svc, name, the fields, msg), serialised with
 * one JSON.stringify where pino walks and redacts field by field: 8.5–11.1 µs a line written against 12.7–13.3 µs
 * (the access line, batched, 50,000 into a pipe). For fields that are ids and figures only: nothing here redacts.
 */
export function createLineLog(name: string, level: string, destination: DestinationStream, bindings: Record<string, string | number> = {}): LineLog {
  const enabled = (pino.levels.values[level] ?? 30) <= 30;
  const head = `{"level":30,"time":"`;
  // Bindings (a cluster worker's id) serialised once, as a pino child logger would put them: after svc and name.
  const bound = JSON.stringify(bindings);
  const tail = `","svc":${JSON.stringify(name)},"name":${JSON.stringify(name)}${bound.length > 2 ? `,${bound.slice(1, -1)}` : ''}`;
  return {
    info(fields, msg) {
      if (!enabled) return;
      const body = JSON.stringify(fields);
      const inner = body.length > 2 ? `,${body.slice(1, -1)}` : '';
      destination.write(`${head}${new Date().toISOString()}${tail}${inner},"msg":${JSON.stringify(msg)}}\n`);
    },
  };
}
