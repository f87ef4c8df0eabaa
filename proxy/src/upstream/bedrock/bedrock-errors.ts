import {
  InvalidRequestError,
  OverloadedError,
  UpstreamError,
  UpstreamHeadersTimeoutError,
  type GatewayError,
} from '@gateway/shared';

/** Bedrock's HTTP errors (x-amzn-errortype) as the gateway's errors; CONTRACT.md's table. */
export function errorFromBedrockStatus(status: number, errorType: string, body: string): GatewayError {
  let message = '';
  try {
    const m = (JSON.parse(body) as { message?: unknown; Message?: unknown });
    message = typeof m.message === 'string' ? m.message : typeof m.Message === 'string' ? m.Message : '';
  } catch {
    // not JSON: the status says enough
  }
  const type = errorType.split(':')[0] ?? '';
  const says = message === '' ? '' : `: ${message}`;
  switch (type) {
    case 'ValidationException':
      return new InvalidRequestError(message === '' ? 'The inference platform refused the request as invalid.' : message);
    case 'ThrottlingException':
    case 'ModelNotReadyException':
    case 'ServiceUnavailableException':
      return new OverloadedError(`The inference platform is overloaded${says}`);
    case 'ModelTimeoutException':
      return new UpstreamHeadersTimeoutError(`The model timed out${says}`);
    case 'AccessDeniedException':
    case 'UnrecognizedClientException':
    case 'InvalidSignatureException':
      return new UpstreamError('The inference platform refused the gateway\'s credentials.');
    default:
      break;
  }
  if (status === 400) return new InvalidRequestError(message === '' ? 'The inference platform refused the request as invalid.' : message);
  if (status === 429 || status === 503) return new OverloadedError(`The inference platform is overloaded${says}`);
  if (status === 408) return new UpstreamHeadersTimeoutError();
  return new UpstreamError(`The inference platform failed (HTTP ${status}${type === '' ? '' : ` ${type}`})${says}`);
}

/** An exception frame mid-stream, as the error event the client gets. */
export function errorFromBedrockException(exceptionType: string, message: string): GatewayError {
  switch (exceptionType) {
    case 'throttlingException':
    case 'serviceUnavailableException':
    case 'modelNotReadyException':
      return new OverloadedError(message === '' ? 'Overloaded' : message);
    case 'validationException':
      return new InvalidRequestError(message);
    case 'modelTimeoutException':
      return new UpstreamHeadersTimeoutError(message === '' ? undefined : message);
    default:
      return new UpstreamError(`The inference platform failed mid-stream (${exceptionType})${message === '' ? '' : `: ${message}`}`);
  }
}
