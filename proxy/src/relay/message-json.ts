import type { ServerResponse } from 'node:http';
import type { TokenRestorer } from '../privacy/index.js';

/** A whole Message as the response body, restored first in tokenise mode. The route ends the response. */
export function writeMessageJson(
  res: ServerResponse,
  message: Record<string, unknown>,
  restorer: TokenRestorer | null,
  requestId: string,
): void {
  if (restorer !== null) restorer.restoreMessage(message);
  writeJson(res, JSON.stringify(message), requestId);
}

/** A serialised Message as the response body. The route ends the response. */
export function writeJson(res: ServerResponse, body: string, requestId: string): void {
  res.statusCode = 200;
  res.setHeader('content-type', 'application/json');
  res.setHeader('request-id', requestId);
  // No content-length on purpose: the response is chunked, so the client sees it complete only at res.end(),
  // which the route calls once the concurrency slot is back.
  res.write(body);
}

/** An upstream's non-streamed answer as a vendor Message, or undefined when it is not one. */
export function parseMessage(text: string): Record<string, unknown> | undefined {
  try {
    const message = JSON.parse(text) as unknown;
    if (typeof message !== 'object' || message === null || (message as Record<string, unknown>)['type'] !== 'message') return undefined;
    return message as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
