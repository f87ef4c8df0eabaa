import type { ErrorBeforePlan } from './fake-behaviour.js';

/** An HTTP error as Bedrock sends it: status, `x-amzn-errortype: <name>`, body `{"message": …}`. */
export interface BedrockError {
  status: number;
  name: string;
  message: string;
}

/** Bedrock runtime's exceptions with their status and default wording. */
const EXCEPTIONS: Record<string, { status: number; message: string }> = {
  ValidationException: { status: 400, message: 'Malformed input request, please reformat your input and try again.' },
  AccessDeniedException: { status: 403, message: "You don't have access to the model with the specified model ID." },
  UnrecognizedClientException: { status: 403, message: 'The security token included in the request is invalid.' },
  InvalidSignatureException: { status: 403, message: 'The request signature we calculated does not match the signature you provided.' },
  ResourceNotFoundException: { status: 404, message: 'The provided model identifier is invalid.' },
  ModelTimeoutException: { status: 408, message: 'Model has timed out in processing the request. Try your request again.' },
  ModelErrorException: { status: 424, message: 'The model returned an error.' },
  ModelStreamErrorException: { status: 424, message: 'An error occurred while streaming the response. Retry your request.' },
  ThrottlingException: { status: 429, message: 'Too many requests, please wait before trying again.' },
  ModelNotReadyException: { status: 429, message: 'Model is not ready for inference. Wait and try your request again.' },
  InternalServerException: { status: 500, message: 'The server encountered an internal error while processing the request.' },
  ServiceUnavailableException: { status: 503, message: 'Bedrock is unable to process your request.' },
};

/** A vendor error type in a plan, translated to what Bedrock would say for the same failure. */
const FROM_VENDOR_TYPE: Record<string, string> = {
  invalid_request_error: 'ValidationException',
  authentication_error: 'UnrecognizedClientException',
  permission_error: 'AccessDeniedException',
  not_found_error: 'ResourceNotFoundException',
  request_too_large: 'ValidationException',
  rate_limit_error: 'ThrottlingException',
  api_error: 'InternalServerException',
  overloaded_error: 'ServiceUnavailableException',
  timeout_error: 'ModelTimeoutException',
};

const FROM_STATUS: Record<number, string> = {
  400: 'ValidationException',
  401: 'UnrecognizedClientException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  413: 'ValidationException',
  424: 'ModelErrorException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
  504: 'ModelTimeoutException',
  529: 'ServiceUnavailableException',
};

export function bedrockError(name: string, message?: string): BedrockError {
  const known = EXCEPTIONS[name] ?? { status: 500, message: 'Internal error' };
  return { status: known.status, name, message: message ?? known.message };
}

/**
 * A plan's `errorBefore` as Bedrock would send it: a Bedrock exception name in `type` wins (with its own
 * status), then a vendor error type, then the status.
 */
export function bedrockErrorFor(plan: ErrorBeforePlan): BedrockError {
  const name =
    exceptionName(plan.type) ??
    (plan.type !== undefined ? FROM_VENDOR_TYPE[plan.type] : undefined) ??
    FROM_STATUS[plan.status] ??
    (plan.status >= 500 ? 'InternalServerException' : 'ValidationException');
  return bedrockError(name, plan.message);
}

/**
 * The `:exception-type` of a mid-stream exception frame (lower camel case, e.g. `throttlingException`).
 * A vendor type maps to the nearest Bedrock exception; an unknown type becomes a model stream error.
 */
export function streamExceptionType(type: string): string {
  const name = exceptionName(type) ?? FROM_VENDOR_TYPE[type] ?? 'ModelStreamErrorException';
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/** `ThrottlingException`, `throttlingException` and `Throttling` all name the same exception. */
function exceptionName(type: string | undefined): string | undefined {
  if (type === undefined) return undefined;
  const wanted = type.toLowerCase().replace(/exception$/, '');
  return Object.keys(EXCEPTIONS).find((n) => n.toLowerCase().replace(/exception$/, '') === wanted);
}
