/**
 * Why a request was refused, as the metrics' `reason` label: a small fixed set (CONTRACT.md "Operating it"),
 * from the error's stable code. The proxy and the policy service use the same words.
 */
export type RefusalReason = 'auth' | 'ip' | 'model' | 'residency' | 'rate' | 'concurrency' | 'quota' | 'invalid' | 'unavailable';

const REASON_BY_CODE: Readonly<Record<string, RefusalReason>> = {
  authentication_failed: 'auth',
  not_permitted_ip: 'ip',
  not_permitted_model: 'model',
  residency_unavailable: 'residency',
  rate_limited: 'rate',
  concurrency_limited: 'concurrency',
  quota_exceeded: 'quota',
  invalid_request: 'invalid',
  not_found: 'invalid',
  method_not_allowed: 'invalid',
  request_too_large: 'invalid',
  header_too_large: 'invalid',
  expectation_failed: 'invalid',
  request_timeout: 'invalid',
  unavailable: 'unavailable',
  no_upstream: 'unavailable',
};

/** The refusal reason of an error code, or undefined when the error is not a refusal (an upstream failure, say). */
export function refusalReason(code: string): RefusalReason | undefined {
  return REASON_BY_CODE[code];
}
