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

/** What an upstream error body may say, in the vendor's shape. */
function vendorError(body: string): { type?: string; message?: string } {
  try {
    const parsed = JSON.parse(body) as { error?: { type?: unknown; message?: unknown }; message?: unknown };
    const type = typeof parsed.error?.type === 'string' ? parsed.error.type : undefined;
    const message = typeof parsed.error?.message === 'string' ? parsed.error.message : typeof parsed.message === 'string' ? parsed.message : undefined;
    return { ...(type === undefined ? {} : { type }), ...(message === undefined ? {} : { message }) };
  } catch {
    return {};
  }
}

/**
 * An upstream's HTTP error as the gateway's error. The client's own mistakes (400, 404, 413) keep the
 * upstream's message; the gateway's credentials or the platform failing become 502; throttling and
 * overload become 529; timeouts 504.
 */
export function errorFromUpstreamStatus(status: number, body: string): GatewayError {
  const v = vendorError(body);
  const upstreamSays = v.message === undefined ? '' : `: ${v.message}`;
  if (status === 400 || status === 422) return new InvalidRequestError(v.message ?? 'The upstream refused the request as invalid.');
  if (status === 404) return new NotFoundError(v.message ?? 'The upstream does not know this model.');
  if (status === 413) return new RequestTooLargeError(32 * 1024 * 1024);
  if (status === 401 || status === 403) return new UpstreamError('The upstream refused the gateway\'s credentials.');
  if (status === 429 || status === 529 || status === 503) return new OverloadedError(`The upstream is overloaded${upstreamSays}`);
  if (status === 408 || status === 504) return new UpstreamHeadersTimeoutError(`The upstream timed out${upstreamSays}`);
  if (status === 402) return new UpstreamError('The upstream refused the request for billing reasons.');
  return new UpstreamError(`The upstream failed (HTTP ${status})${upstreamSays}`);
}

/** A transport failure before any response: nothing reached the client yet. */
export function errorFromUpstreamNetwork(err: unknown): GatewayError {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'ECONNRESET' || code === 'EAI_AGAIN') {
    return new UpstreamConnectError(`Could not reach the upstream (${String(code)}).`, { cause: err });
  }
  return new UpstreamError('The upstream request failed.', { cause: err });
}

