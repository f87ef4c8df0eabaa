import { GatewayError, InternalError, vendorErrorBody, type Logger, type RateLimitPosition } from '@gateway/shared';
import type { IncomingMessage, ServerResponse } from 'node:http';
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
  if (e.status >= 500) log.error({ err: e.cause ?? e, code: e.code, status: e.status }, e.message);
  else log.info({ code: e.code, status: e.status }, 'request refused');
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
  // The rest of an oversized body is never read: close the connection rather than drain it.
  if (e.status === 413) res.setHeader('connection', 'close');
  res.setHeader('content-length', Buffer.byteLength(body));
  res.end(body);
}

/**
 * Refuses a request whose body was not read: the connection closes after the answer, so the unread body is
 * neither buffered nor drained.
 */
export function refuseUnread(
  req: IncomingMessage,
  res: ServerResponse,
  err: GatewayError,
  requestId: string,
  log: Logger,
  rateLimit: RateLimitPosition | null = null,
): void {
  if (!req.complete) res.setHeader('connection', 'close');
  sendError(res, err, requestId, log, rateLimit);
}

export function isEventStream(res: ServerResponse): boolean {
  return String(res.getHeader('content-type') ?? '').startsWith('text/event-stream');
}

export function writeErrorEvent(res: ServerResponse, err: GatewayError, requestId: string): void {
  res.write(`event: error\ndata: ${JSON.stringify(vendorErrorBody(err, requestId))}\n\n`);
}
