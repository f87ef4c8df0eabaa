import type { ServerResponse } from 'node:http';
import type { TokenRestorer } from '@gateway/privacy';

/** A whole Message as the response body, restored first in tokenise mode; ends the response. */
export function writeMessageJson(
  res: ServerResponse,
  message: Record<string, unknown>,
  restorer: TokenRestorer | null,
  requestId: string,
): void {
  if (restorer !== null) restorer.restoreMessage(message);
  writeJson(res, JSON.stringify(message), requestId);
}

/**
 * A serialised Message as the whole response body, headers and body in one write. The usage report that frees
 * the slot follows on the policy stream before this proxy reads its next request (messages-route.ts).
 */
export function writeJson(res: ServerResponse, body: string, requestId: string): void {
  res.statusCode = 200;
  res.setHeader('content-type', 'application/json');
  res.setHeader('request-id', requestId);
  res.setHeader('content-length', Buffer.byteLength(body));
  res.end(body);
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
