import type { IncomingHttpHeaders } from 'node:http';
import type { GatewayError } from '@gateway/shared';

/** How one upstream attempt ended (the `outcome` label of gateway_upstream_attempts_total). */
export type AttemptOutcome = 'served' | 'throttled' | 'unavailable' | 'timeout' | 'refused' | 'auth' | 'not_found' | 'client_error';

/** A failed attempt: how, and whether the request may move on to its next route. */
export interface AttemptFailure {
  outcome: Exclude<AttemptOutcome, 'served'>;
  /** one of CONTRACT.md's failover causes; the loop still moves on only while nothing reached the client */
  retryable: boolean;
  /** a 429's retry-after, for skipping the route that long */
  retryAfterMs?: number;
}

/** A 429 without a usable retry-after skips its route this long. */
const DEFAULT_SKIP_MS = 1_000;
const MAX_SKIP_MS = 300_000;

/**
 * An upstream's HTTP error status as an attempt failure: the gateway's own credentials (401/403), a misconfigured
 * route (404), throttling and the platform failing (429, 500, 502, 503, 529) move on; the client's own mistakes
 * (400, 413, 422) and anything else do not.
 */
export function failureOfStatus(status: number, headers: IncomingHttpHeaders): AttemptFailure {
  if (status === 400 || status === 413 || status === 422) return { outcome: 'client_error', retryable: false };
  if (status === 401 || status === 403) return { outcome: 'auth', retryable: true };
  if (status === 404) return { outcome: 'not_found', retryable: true };
  if (status === 429) return { outcome: 'throttled', retryable: true, retryAfterMs: retryAfterMs(headers['retry-after']) };
  if (status === 500 || status === 502 || status === 503 || status === 529) return { outcome: 'unavailable', retryable: true };
  if (status === 408 || status === 504) return { outcome: 'timeout', retryable: false };
  return { outcome: status < 500 ? 'client_error' : 'unavailable', retryable: false };
}

export function retryAfterMs(value: string | string[] | undefined): number {
  const raw = Array.isArray(value) ? value[0] : value;
  const seconds = raw === undefined ? NaN : Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(MAX_SKIP_MS, Math.max(DEFAULT_SKIP_MS, seconds * 1000));
  const date = raw === undefined ? NaN : Date.parse(raw);
  return Number.isFinite(date) ? Math.min(MAX_SKIP_MS, Math.max(DEFAULT_SKIP_MS, date - Date.now())) : DEFAULT_SKIP_MS;
}

/** Transport failures before any answer that mean the request never reached the platform. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'UND_ERR_SOCKET_CONNECT']);

/** A connect or TLS failure (the request never got to the platform): the next route may take it. */
export function failureOfNetwork(err: unknown): AttemptFailure {
  const code = String((err as { code?: unknown } | null)?.code ?? '');
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return { outcome: 'timeout', retryable: true };
  if (NOT_CONNECTED.has(code) || /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_)/.test(code)) return { outcome: 'refused', retryable: true };
  // A reset or an abrupt close after the request went out: it may have been accepted, so it is not sent again.
  return { outcome: 'unavailable', retryable: false };
}

/** An error the platform sent in its stream before `message_start`: nothing was generated, the next route may. */
export function failureOfEarlyStreamError(error: GatewayError, throttled = false): AttemptFailure {
  if (throttled || error.status === 429) return { outcome: 'throttled', retryable: true, retryAfterMs: DEFAULT_SKIP_MS };
  if (error.status === 504) return { outcome: 'timeout', retryable: true };
  if (error.status === 400 || error.status === 413) return { outcome: 'client_error', retryable: false };
  return { outcome: 'unavailable', retryable: true };
}
