import { InvalidRequestError, type GatewayError } from '@gateway/shared';
import type { IncomingHttpHeaders } from 'node:http';

/** The key as sent: `authorization: Bearer` wins over `x-api-key`. "" when neither is there. */
export function apiKeyFrom(headers: IncomingHttpHeaders): string {
  const auth = headers.authorization;
  if (auth !== undefined && auth !== '') {
    const m = /^Bearer\s+(.+)$/i.exec(auth);
    // A malformed authorization header is a malformed key, not an absent one.
    return m === null ? auth : (m[1] as string).trim();
  }
  const key = headers['x-api-key'];
  return (Array.isArray(key) ? key[0] : key)?.trim() ?? '';
}

export const SUPPORTED_VERSIONS = ['2023-06-01', '2026-10-21'] as const;
export const DEFAULT_VERSION = '2023-06-01';

/** compat-version, or its vendor alias anthropic-version (compat-version wins); the default when neither. */
export function apiVersionFrom(headers: IncomingHttpHeaders): string | GatewayError {
  const raw = headers['compat-version'] ?? headers['anthropic-version'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (value === undefined || value === '') return DEFAULT_VERSION;
  if ((SUPPORTED_VERSIONS as readonly string[]).includes(value)) return value;
  const name = headers['compat-version'] !== undefined ? 'compat-version' : 'anthropic-version';
  return new InvalidRequestError(
    `${name}: "${value}" is not a supported version. Supported versions: ${SUPPORTED_VERSIONS.join(', ')}.`,
  );
}

export const TEST_SCENARIOS = [
  'invalid_request_error',
  'rate_limit_error',
  'quota_exceeded',
  'api_error',
  'overloaded_error',
  'timeout_error',
  'mid_stream_error',
  'slow_stream',
  'failover',
] as const;
export type TestScenario = (typeof TEST_SCENARIOS)[number];

/** x-gateway-test-scenario: undefined when absent, an error when it names no scenario. */
export function testScenarioFrom(headers: IncomingHttpHeaders): TestScenario | undefined | GatewayError {
  const raw = headers['x-gateway-test-scenario'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (value === undefined || value === '') return undefined;
  if ((TEST_SCENARIOS as readonly string[]).includes(value)) return value as TestScenario;
  return new InvalidRequestError(
    `x-gateway-test-scenario: "${value}" is not a scenario. Scenarios: ${TEST_SCENARIOS.join(', ')}.`,
  );
}
