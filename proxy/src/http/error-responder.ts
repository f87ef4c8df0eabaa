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
 * the client reads it. So with the answer, the rest of the body is read and discarded, never buffered; a client
 * that sends more than DISCARD_BYTES or takes longer than DISCARD_MS is cut off then. (A `connection:
 * close` header would make Node destroy the socket as soon as the answer is written.)
 */
function discardUnreadBody(res: ServerResponse): void {
  const req: IncomingMessage | undefined = res.req;
  if (req === undefined || req.complete) return;
  // Counted on the request's own 'data' events as they arrive. Set up before the answer is written: once the
  // answer finishes, Node dumps a body nobody consumes (its bytes never reach a 'data' listener added later), and
  // a timer polling the socket's byte count let a loopback client send 100 MB and more between two looks.
  let discarded = 0;
  const cut = (): void => {
    stop();
    req.socket.destroy();
  };
  const onData = (chunk: Buffer): void => {
    discarded += chunk.length;
    if (discarded > DISCARD_BYTES) cut();
  };
  const deadline = setTimeout(cut, DISCARD_MS);
  deadline.unref();
  const stop = (): void => {
    clearTimeout(deadline);
    req.off('data', onData);
  };
  req.on('data', onData);
  req.once('end', stop);
  req.once('close', stop);
  req.resume();
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
