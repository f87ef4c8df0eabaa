import { GatewayError, InternalError, vendorErrorBody, type Logger, type RateLimitPosition } from '@gateway/shared';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { accessRecord } from '../access-log.js';
import { setRateLimitHeaders } from './response-headers.js';

/** Any thrown value as a GatewayError; unknown faults become a 500 whose message stays in the log. */
export function asGatewayError(err: unknown): GatewayError {
  if (err instanceof GatewayError) return err;
  return new InternalError(err instanceof Error ? err.message : String(err), { cause: err });
}

/**
 * The one place the proxy turns an error into an HTTP response (before the first byte) or into an
 * `event: error` (after it, on a stream).
 */
export function sendError(
  res: ServerResponse,
  err: unknown,
  requestId: string,
  log: Logger,
  rateLimit: RateLimitPosition | null = null,
): void {
  const e = asGatewayError(err);
  const rec = accessRecord(res);
  rec.error_code = e.code;
  rec.error_type = e.type;
  // Faults are logged here with their cause; refusals are in the request's access-log line.
  if (e.status >= 500) log.error({ err: e.cause ?? e, code: e.code, status: e.status }, e.message);
  else log.debug({ code: e.code, status: e.status }, 'request refused');
  if (res.headersSent) {
    if (!res.writableEnded) {
      if (isEventStream(res)) writeErrorEvent(res, e, requestId);
      res.end();
    }
    return;
  }
  const body = JSON.stringify(vendorErrorBody(e, requestId));
  res.statusCode = e.status;
  res.setHeader('content-type', 'application/json');
  res.setHeader('request-id', requestId);
  setRateLimitHeaders(res, rateLimit);
  if (e.retryAfterSeconds !== undefined) res.setHeader('retry-after', String(e.retryAfterSeconds));
  if (e.shouldRetry !== undefined) res.setHeader('x-should-retry', String(e.shouldRetry));
  res.setHeader('content-length', Buffer.byteLength(body));
  discardUnreadBody(res);
  res.end(body);
}

/** After refusing a request whose body was not (all) read, how much more of it is read and thrown away, and how long for. */
export const DISCARD_BYTES = 64 * 1024 * 1024;
export const DISCARD_MS = 10_000;

/**
 * A refusal sent while the client is still sending its body (no key, a body over the cap): closing the socket
 * at once would make the kernel answer the client's next bytes with a reset, which can destroy the answer before
 * the client reads it. So once the answer is out, the rest of the body is read and discarded, never buffered; a
 * client that sends more than DISCARD_BYTES or takes longer than DISCARD_MS is cut off then. (A `connection:
 * close` header would make Node destroy the socket as soon as the answer is written.)
 */
function discardUnreadBody(res: ServerResponse): void {
  const req: IncomingMessage | undefined = res.req;
  if (req === undefined || req.complete) return;
  const startBytes = req.socket.bytesRead;
  res.once('finish', () => {
    if (req.complete) return;
    // Counted from the socket's byte count: a 'data' listener on an HTTP server's socket would take it away from
    // Node's parser (and stall it).
    const socket = req.socket;
    const deadline = Date.now() + DISCARD_MS;
    const watch = setInterval(() => {
      if (socket.bytesRead - startBytes > DISCARD_BYTES || Date.now() > deadline) {
        clearInterval(watch);
        socket.destroy();
      }
    }, 50);
    watch.unref();
    const stop = (): void => clearInterval(watch);
    req.once('end', stop);
    req.once('close', stop);
    req.resume();
  });
}

/**
 * Refuses a request whose body was not read: the rest of the body is discarded after the answer (bounded), never
 * buffered.
 */
export function refuseUnread(
  req: IncomingMessage,
  res: ServerResponse,
  err: GatewayError,
  requestId: string,
  log: Logger,
  rateLimit: RateLimitPosition | null = null,
): void {
  if (!req.complete) req.pause(); // nothing reads it before the answer is out
  sendError(res, err, requestId, log, rateLimit);
}

export function isEventStream(res: ServerResponse): boolean {
  return String(res.getHeader('content-type') ?? '').startsWith('text/event-stream');
}

export function writeErrorEvent(res: ServerResponse, err: GatewayError, requestId: string): void {
  res.write(`event: error\ndata: ${JSON.stringify(vendorErrorBody(err, requestId))}\n\n`);
}

/**
 * The same answer as raw HTTP/1.1 bytes, for a socket no ServerResponse can serve (Node's parser refused the
 * request). The connection closes after it.
 */
export function rawErrorResponse(err: GatewayError, requestId: string): string {
  const body = JSON.stringify(vendorErrorBody(err, requestId));
  return (
    `HTTP/1.1 ${err.status} ${STATUS_CODES[err.status] ?? 'Error'}\r\n` +
    'content-type: application/json\r\n' +
    `content-length: ${Buffer.byteLength(body)}\r\n` +
    `request-id: ${requestId}\r\n` +
    'connection: close\r\n\r\n' +
    body
  );
}
