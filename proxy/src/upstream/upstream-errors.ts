import {
  GatewayError,
  InvalidRequestError,
  NotFoundError,
  OverloadedError,
  RequestTooLargeError,
  UpstreamConnectError,
  UpstreamError,
  UpstreamHeadersTimeoutError,
} from '@gateway/shared';

/**
 * Upstream error text is untrusted: a vendor may quote the prompt in it. The rule, per status:
 * - the client's own mistakes (400, 404, 422) keep the vendor's message, because it is about the client's own
 *   request and the client needs it to fix it; 4xx errors are logged by code and status only, never by message;
 * - everything else (credentials, billing, throttling, timeouts, 5xx) gets the gateway's own text, because
 *   those errors are logged with their message and the client learns nothing it needs from the vendor's.
 */
export function vendorErrorMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown }; message?: unknown; Message?: unknown } | null;
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const m = parsed.error?.message ?? parsed.message ?? parsed.Message;
    return typeof m === 'string' && m !== '' ? m : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An upstream's HTTP error as the gateway's error. The client's own mistakes (400, 404, 422) keep the
 * upstream's message; the gateway's credentials or the platform failing become 502; throttling and
 * overload become 529; timeouts 504 — all three with the gateway's own words.
 */
export function errorFromUpstreamStatus(status: number, body: string): GatewayError {
  if (status === 400 || status === 422) return new InvalidRequestError(vendorErrorMessage(body) ?? 'The upstream refused the request as invalid.');
  if (status === 404) return new NotFoundError(vendorErrorMessage(body) ?? 'The upstream does not know this model.');
  if (status === 413) return new RequestTooLargeError(32 * 1024 * 1024);
  if (status === 401 || status === 403) return new UpstreamError('The upstream refused the gateway\'s credentials.');
  if (status === 429 || status === 529 || status === 503) return new OverloadedError('The upstream is overloaded.');
  if (status === 408 || status === 504) return new UpstreamHeadersTimeoutError('The upstream timed out.');
  if (status === 402) return new UpstreamError('The upstream refused the request for billing reasons.');
  return new UpstreamError(`The upstream failed (HTTP ${status}).`);
}

/** A transport failure before any response: nothing reached the client yet. */
export function errorFromUpstreamNetwork(err: unknown): GatewayError {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'ECONNRESET' || code === 'EAI_AGAIN') {
    return new UpstreamConnectError(`Could not reach the upstream (${String(code)}).`, { cause: err });
  }
  return new UpstreamError('The upstream request failed.', { cause: err });
}
