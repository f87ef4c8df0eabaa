import type { ErrorBeforePlan } from './fake-behaviour.js';
import { fakeId } from './fake-ids.js';
import { writeChunk, writeJson, type Exchange } from './fake-server.js';
import type { StreamSink } from './stream-player.js';

/**
 * The vendor's own wire format (errors and SSE) as the fakes that speak it write it: the Messages API, and
 * Vertex AI's Anthropic models, which answer in the vendor's format except for Google's own front-door errors.
 */

/** Default error type and message per status, as the vendor words them. */
const ERROR_DEFAULTS: Record<number, [string, string]> = {
  400: ['invalid_request_error', 'Invalid request'],
  401: ['authentication_error', 'invalid x-api-key'],
  402: ['billing_error', 'Your credit balance is too low'],
  403: ['permission_error', 'Your API key does not have permission to use the specified resource.'],
  404: ['not_found_error', 'Not found'],
  409: ['conflict_error', 'Conflict'],
  413: ['request_too_large', 'Request exceeds the maximum allowed number of bytes.'],
  429: ['rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'],
  500: ['api_error', 'Internal server error'],
  504: ['timeout_error', 'Request timed out'],
  529: ['overloaded_error', 'Overloaded'],
};

/** An error answer in the vendor's body (`type: error`, its error type and message, request id), with retry-after on 429. */
export function writeVendorError(ex: Exchange, err: ErrorBeforePlan, extraHeaders: Record<string, string> = {}): void {
  const [defaultType, defaultMessage] = ERROR_DEFAULTS[err.status] ?? ['api_error', 'Internal server error'];
  const requestId = fakeId('req_01');
  const headers: Record<string, string> = { ...extraHeaders, 'request-id': requestId };
  // The vendor always tells a rate-limited client when to come back.
  const retryAfter = err.retryAfterSeconds ?? (err.status === 429 ? 1 : undefined);
  if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
  const body = {
    type: 'error',
    error: { type: err.type ?? defaultType, message: err.message ?? defaultMessage },
    request_id: requestId,
  };
  writeJson(ex.res, err.status, body, headers);
}

/** One SSE event: `event:` line, `data:` line, blank line, LF endings. */
export function sse(type: string, data: unknown): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Writes a played stream as the vendor's SSE: each event, a mid-stream `event: error` then the end, or a dropped socket. */
export function sseSink(ex: Exchange): StreamSink {
  const { res } = ex;
  return {
    event: (e) => writeChunk(res, sse(e.type, e.data)),
    error: async (type, message) => {
      await writeChunk(res, sse('error', { type: 'error', error: { type, message } }));
      res.end();
    },
    end: () => res.end(),
    drop: () => ex.drop(),
  };
}
