import {
  InvalidRequestError,
  OverloadedError,
  UpstreamError,
  UpstreamHeadersTimeoutError,
  type GatewayError,
} from '@gateway/shared';
import { vendorErrorMessage } from '../upstream-errors.js';

/** An AWS error type as sent (`ValidationException:http://…`), or '' when it is not a plain name. */
function errorName(errorType: string): string {
  const name = errorType.split(':')[0] ?? '';
  return /^[A-Za-z]{1,64}$/.test(name) ? name : '';
}

/**
 * Bedrock's HTTP errors (x-amzn-errortype) as the gateway's errors; CONTRACT.md's table. As with the Messages
 * upstream (upstream-errors.ts), only a validation error keeps Bedrock's message; the rest use the gateway's.
 */
export function errorFromBedrockStatus(status: number, errorType: string, body: string): GatewayError {
  const type = errorName(errorType);
  const invalid = (): GatewayError => new InvalidRequestError(vendorErrorMessage(body) ?? 'The inference platform refused the request as invalid.');
  switch (type) {
    case 'ValidationException':
      return invalid();
    case 'ThrottlingException':
    case 'ModelNotReadyException':
    case 'ServiceUnavailableException':
      return new OverloadedError('The inference platform is overloaded.');
    case 'ModelTimeoutException':
      return new UpstreamHeadersTimeoutError('The model timed out.');
    case 'AccessDeniedException':
    case 'UnrecognizedClientException':
    case 'InvalidSignatureException':
      return new UpstreamError('The inference platform refused the gateway\'s credentials.');
    default:
      break;
  }
  if (status === 400) return invalid();
  if (status === 429 || status === 503) return new OverloadedError('The inference platform is overloaded.');
  if (status === 408) return new UpstreamHeadersTimeoutError();
  return new UpstreamError(`The inference platform failed (HTTP ${status}${type === '' ? '' : ` ${type}`}).`);
}

/** Whether a stream's exception frame is Bedrock throttling the caller (the route is skipped, not failed). */
export function isThrottlingException(exceptionType: string): boolean {
  return errorName(exceptionType) === 'throttlingException';
}

/** An exception frame mid-stream, as the error event the client gets. */
export function errorFromBedrockException(exceptionType: string, message: string): GatewayError {
  const type = errorName(exceptionType);
  switch (type) {
    case 'throttlingException':
    case 'serviceUnavailableException':
    case 'modelNotReadyException':
      return new OverloadedError();
    case 'validationException':
      return new InvalidRequestError(message === '' ? 'The inference platform refused the request as invalid.' : message);
    case 'modelTimeoutException':
      return new UpstreamHeadersTimeoutError('The model timed out.');
    default:
      return new UpstreamError(`The inference platform failed mid-stream${type === '' ? '' : ` (${type})`}.`);
  }
}
