/**
 * The one error family of the gateway. Every failure a client can see is a GatewayError with a stable code,
 * the HTTP status and vendor error type it maps to, and whether its message may reach the client.
 * Only the error responders (one per process surface) turn these into responses.
 */
export type VendorErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'quota_exceeded'
  | 'permission_error'
  | 'residency_unavailable'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'api_error'
  | 'timeout_error'
  | 'overloaded_error';

export interface GatewayErrorOptions {
  /** Seconds for `retry-after`. */
  retryAfterSeconds?: number;
  /** Value for `x-should-retry`, when the client's own rule would be wrong. */
  shouldRetry?: boolean;
  cause?: unknown;
}

export class GatewayError extends Error {
  readonly code: string;
  readonly status: number;
  readonly type: VendorErrorType;
  /** false: the message is internal; the client gets a generic text for the type instead. */
  readonly expose: boolean;
  readonly retryAfterSeconds: number | undefined;
  readonly shouldRetry: boolean | undefined;

  constructor(
    code: string,
    status: number,
    type: VendorErrorType,
    message: string,
    expose: boolean,
    options: GatewayErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = status;
    this.type = type;
    this.expose = expose;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.shouldRetry = options.shouldRetry;
  }

  /** The text a client may read. */
  get publicMessage(): string {
    return this.expose ? this.message : GENERIC_MESSAGES[this.type];
  }
}

const GENERIC_MESSAGES: Record<VendorErrorType, string> = {
  invalid_request_error: 'Invalid request.',
  authentication_error: 'Invalid API key.',
  quota_exceeded: 'Token allowance exhausted for this billing period.',
  permission_error: 'This API key is not permitted to make this request.',
  residency_unavailable: 'The requested model has no route inside this key\'s residency tier.',
  not_found_error: 'Not found.',
  request_too_large: 'Request exceeds the maximum allowed size.',
  rate_limit_error: 'Rate limit exceeded.',
  api_error: 'Internal server error.',
  timeout_error: 'The upstream did not answer in time.',
  overloaded_error: 'Overloaded',
};

/** The one message for every 403 permission refusal, so a probe cannot tell an IP refusal from a model refusal. */
export const NOT_PERMITTED_MESSAGE = GENERIC_MESSAGES.permission_error;

export class InvalidRequestError extends GatewayError {
  constructor(message: string, options?: GatewayErrorOptions) {
    super('invalid_request', 400, 'invalid_request_error', message, true, options);
  }
}

export class AuthenticationError extends GatewayError {
  constructor(message = 'Invalid API key.', options?: GatewayErrorOptions) {
    super('authentication_failed', 401, 'authentication_error', message, true, options);
  }
}

export class QuotaExceededError extends GatewayError {
  constructor(message = GENERIC_MESSAGES.quota_exceeded) {
    super('quota_exceeded', 402, 'quota_exceeded', message, true, { shouldRetry: false });
  }
}

/**
 * The IP-blocked and the model-not-allowed 403 send the same body (CONTRACT.md): a probe learns nothing from
 * which it got. Only the internal code (logs, metrics) tells them apart.
 */
export class PermissionDeniedError extends GatewayError {
  constructor(reason: 'ip' | 'model') {
    super(`not_permitted_${reason}`, 403, 'permission_error', NOT_PERMITTED_MESSAGE, true);
  }
}

/** A refusal whose reason the caller may read (an administrator acting beyond their role). */
export class ForbiddenError extends GatewayError {
  constructor(message: string) {
    super('forbidden', 403, 'permission_error', message, true);
  }
}

export class ResidencyUnavailableError extends GatewayError {
  constructor(message: string) {
    super('residency_unavailable', 403, 'residency_unavailable', message, true);
  }
}

export class NotFoundError extends GatewayError {
  constructor(message: string) {
    super('not_found', 404, 'not_found_error', message, true);
  }
}

export class MethodNotAllowedError extends GatewayError {
  constructor(method: string, path: string) {
    super('method_not_allowed', 405, 'invalid_request_error', `Method ${method} is not allowed on ${path}.`, true);
  }
}

export class RequestTooLargeError extends GatewayError {
  constructor(limitBytes: number) {
    super('request_too_large', 413, 'request_too_large', `Request body exceeds the ${limitBytes / (1024 * 1024)} MiB limit.`, true);
  }
}

/** A full per-minute window (`rate_limited`) or a full set of concurrency slots (`concurrency_limited`). */
export class RateLimitError extends GatewayError {
  constructor(message: string, retryAfterSeconds?: number, limit: 'window' | 'concurrency' = 'window') {
    super(limit === 'window' ? 'rate_limited' : 'concurrency_limited', 429, 'rate_limit_error', message, true,
      retryAfterSeconds === undefined ? {} : { retryAfterSeconds });
  }
}

/** A fault inside the gateway: the client sees a generic message, the log sees the cause. */
export class InternalError extends GatewayError {
  constructor(message: string, options?: GatewayErrorOptions) {
    super('internal', 500, 'api_error', message, false, options);
  }
}

export class UpstreamError extends GatewayError {
  constructor(message: string, options?: GatewayErrorOptions) {
    super('upstream_failed', 502, 'api_error', message, true, options);
  }
}

/** The upstream could not be connected to at all. */
export class UpstreamConnectError extends GatewayError {
  constructor(message: string, options?: GatewayErrorOptions) {
    super('upstream_connect_failed', 502, 'api_error', message, true, options);
  }
}

/** The policy service or the counter store cannot be reached: fail closed, and tell clients to retry. */
export class ServiceUnavailableError extends GatewayError {
  constructor(message: string, options: GatewayErrorOptions = {}) {
    super('unavailable', 503, 'api_error', message, true, { shouldRetry: true, ...options });
  }
}

/** The upstream sent no response headers in time. */
export class UpstreamHeadersTimeoutError extends GatewayError {
  constructor(message = 'The upstream did not answer in time.', options?: GatewayErrorOptions) {
    super('upstream_headers_timeout', 504, 'timeout_error', message, true, options);
  }
}

/** The upstream started answering and then went silent. */
export class UpstreamBodyTimeoutError extends GatewayError {
  constructor(message = 'The upstream stopped sending in time.', options?: GatewayErrorOptions) {
    super('upstream_body_timeout', 504, 'timeout_error', message, true, options);
  }
}

export class OverloadedError extends GatewayError {
  constructor(message = 'Overloaded', options?: GatewayErrorOptions) {
    super('overloaded', 529, 'overloaded_error', message, true, options);
  }
}

/** The vendor's error body. */
export interface VendorErrorBody {
  type: 'error';
  error: { type: string; message: string };
  request_id?: string;
}

export function vendorErrorBody(err: GatewayError, requestId: string | undefined): VendorErrorBody {
  const body: VendorErrorBody = { type: 'error', error: { type: err.type, message: err.publicMessage } };
  if (requestId !== undefined) body.request_id = requestId;
  return body;
}

/** Rebuilds an error that crossed the gRPC seam as a denial (status, type, message). */
export function errorFromDenial(d: {
  http_status: number;
  error_type: string;
  message: string;
  retry_after_seconds: number;
  should_retry: string;
  code: string;
}): GatewayError {
  const options: GatewayErrorOptions = {};
  if (d.retry_after_seconds > 0) options.retryAfterSeconds = d.retry_after_seconds;
  if (d.should_retry === 'true') options.shouldRetry = true;
  if (d.should_retry === 'false') options.shouldRetry = false;
  return new GatewayError(d.code === '' ? `denied_${d.error_type}` : d.code, d.http_status, d.error_type as VendorErrorType, d.message, true, options);
}

/** The denial a policy service sends for an error it raised. */
export function denialFromError(err: GatewayError): {
  http_status: number;
  error_type: string;
  message: string;
  retry_after_seconds: number;
  should_retry: string;
  code: string;
} {
  return {
    code: err.code,
    http_status: err.status,
    error_type: err.type,
    message: err.publicMessage,
    retry_after_seconds: err.retryAfterSeconds ?? 0,
    should_retry: err.shouldRetry === undefined ? '' : String(err.shouldRetry),
  };
}
