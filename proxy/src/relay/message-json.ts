import type { ServerResponse } from 'node:http';
import type { TokenRestorer } from '../privacy/index.js';

/** A whole Message as the response body, restored first in tokenise mode. */
export function sendMessageJson(
  res: ServerResponse,
  message: Record<string, unknown>,
  restorer: TokenRestorer | null,
  requestId: string,
): void {
  if (restorer !== null) restorer.restoreMessage(message);
  const body = JSON.stringify(message);
  res.statusCode = 200;
  res.setHeader('content-type', 'application/json');
  res.setHeader('request-id', requestId);
  res.setHeader('content-length', Buffer.byteLength(body));
  res.end(body);
}
