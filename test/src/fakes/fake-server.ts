import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a fake saw of one request and how the exchange ended. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Path and query as received. */
  url: string;
  region: string | null;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The parsed body, or null when it was not JSON. */
  json: unknown;
  receivedAt: number;
  /** Status of the response once its headers went out; null before that or when none did. */
  status: number | null;
  /** The response ended cleanly. */
  completed: boolean;
  /** The client closed the connection before the response ended (not a drop or close() of the fake). */
  clientAborted: boolean;
}

/** One request in flight. `signal` aborts when the connection closes early, whoever closed it. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  signal: AbortSignal;
  /** Destroys the socket mid-response on purpose; the record will not count it as a client abort. */
  drop(): void;
  /** Attach the record once the request is parsed, so its outcome gets tracked. */
  track(record: RecordedRequest): void;
}

/** Keeps the records in arrival order and lets tests wait for a condition on them. */
export class RequestLog<R extends RecordedRequest> {
  readonly requests: R[] = [];
  private waiters: Array<() => void> = [];

  constructor(
    private readonly maxRecorded: number,
    private readonly onRequest: ((record: R) => void) | undefined,
  ) {}

  add(record: R): void {
    this.requests.push(record);
    if (this.requests.length > this.maxRecorded) this.requests.splice(0, this.requests.length - this.maxRecorded);
    this.onRequest?.(record);
    this.changed();
  }

  changed(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** Resolves once `predicate(requests)` holds; rejects after `timeoutMs`. */
  waitFor(predicate: (requests: readonly R[]) => boolean, timeoutMs = 5_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`fake: condition not met within ${timeoutMs} ms`)), timeoutMs);
      const check = (): void => {
        if (predicate(this.requests)) {
          clearTimeout(timer);
          resolve();
        } else {
          this.waiters.push(check);
        }
      };
      check();
    });
  }
}

export type ExchangeHandler = (exchange: Exchange) => Promise<void>;

/** A real HTTP server on `host:port` (port 0: any free one) that can be closed with requests still hanging. */
export class FakeServer {
  private closing = false;
  private readonly inflight = new Set<AbortController>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
    readonly host: string,
  ) {}

  static async start(handler: ExchangeHandler, port: number, host: string, onSettled: () => void): Promise<FakeServer> {
    const server = createServer();
    const fake = await new Promise<FakeServer>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve(new FakeServer(server, (server.address() as AddressInfo).port, host));
      });
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => fake.serve(req, res, handler, onSettled));
    return fake;
  }

  get url(): string {
    return `http://${this.host.includes(':') ? `[${this.host}]` : this.host}:${this.port}`;
  }

  /** Stops listening and cuts every open connection, hanging ones included. */
  async close(): Promise<void> {
    this.closing = true;
    for (const c of this.inflight) c.abort();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private serve(req: IncomingMessage, res: ServerResponse, handler: ExchangeHandler, onSettled: () => void): void {
    const controller = new AbortController();
    this.inflight.add(controller);
    let dropped = false;
    let record: RecordedRequest | null = null;
    res.once('finish', () => {
      if (record !== null) record.completed = true;
    });
    res.once('close', () => {
      this.inflight.delete(controller);
      if (record !== null && !res.writableFinished && !dropped && !this.closing) record.clientAborted = true;
      controller.abort();
      onSettled();
    });
    const exchange: Exchange = {
      req,
      res,
      signal: controller.signal,
      drop: () => {
        dropped = true;
        const socket = res.socket;
        if (socket === null) return;
        // What was written must reach the peer first (a reset discards unsent and unread bytes), then the
        // connection is reset as a crashed upstream's would be.
        socket.write(Buffer.alloc(0), () => setTimeout(() => socket.resetAndDestroy(), 50));
      },
      track: (r) => {
        record = r;
      },
    };
    const originalWriteHead = res.writeHead.bind(res);
    res.writeHead = ((...args: Parameters<ServerResponse['writeHead']>) => {
      if (record !== null) record.status = args[0];
      return originalWriteHead(...args);
    }) as ServerResponse['writeHead'];
    handler(exchange).catch((err: unknown) => {
      // A bug in the fake: answer 500 rather than hang the test that hit it.
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`fake upstream failed: ${err instanceof Error ? err.message : String(err)}`);
      } else {
        res.destroy();
      }
    });
  }
}

/** Reads the whole body; null when it passes `limit` bytes (the caller answers 413). */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

export function writeJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

/** Writes one chunk, waiting for drain when the socket buffer is full. */
export function writeChunk(res: ServerResponse, chunk: string | Uint8Array): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  if (res.write(chunk)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
