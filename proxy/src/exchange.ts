import type { GatewayError, Grant, Logger, Route, TokenUsage, UpstreamPlatform, UsageOutcome } from '@gateway/shared';
import type { AttemptFailure, AttemptOutcome } from './upstream/attempt-outcome.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestAttestation } from './attestation/index.js';
import type { TokenRestorer } from '@gateway/privacy';
import type { MessagesBody } from './messages-request.js';
import type { TestScenario } from './http/request-headers.js';
import type { AbortHandle } from './abort-handle.js';

/** One admitted message request, as the responders (stub or upstream) see it. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  log: Logger;
  grant: Grant;
  /** The body to forward: model rewritten to the upstream id, privacy applied. */
  body: MessagesBody;
  /**
   * The client's body as sent, when the body to forward differs from it in nothing but its model (privacy off):
   * a Messages upstream gets these bytes with the model value spliced in, not `body` serialised again.
   */
  sent: SentBody | undefined;
  stream: boolean;
  apiVersion: string;
  scenario: TestScenario | undefined;
  /** Restores tokenised values in the response; null unless the key's mode is tokenise. */
  restorer: TokenRestorer | null;
  /** Aborted when the client goes away or the key is revoked; the reason is the error to report. */
  signal: AbortHandle;
  /**
   * The response's attestation: the responder notes the bytes it forwards (or, the stub, answers) and a 200 answer
   * starts only once its attestation is on the response.
   */
  attestation: RequestAttestation;
  /** Which attempt of the request this is (0 first), as the route loop hands it to one route's responder. */
  attempt: number;
}

/**
 * The exchange as one attempt's responder sees it: the route's grant and model. Every field is written out, not
 * spread: a spread of the 15-field exchange was ~4 µs of the route loop's time a request in the profile.
 */
export function attemptExchange(x: Exchange, grant: Grant, body: MessagesBody, attempt: number): Exchange {
  return {
    req: x.req, res: x.res, requestId: x.requestId, log: x.log, grant, body, sent: x.sent, stream: x.stream,
    apiVersion: x.apiVersion, scenario: x.scenario, restorer: x.restorer, signal: x.signal, attestation: x.attestation, attempt,
  };
}

/** A body's bytes as the client sent them, and the byte range of its top-level model value (quotes included). */
export interface SentBody {
  bytes: Buffer;
  model: { start: number; end: number };
}

/** One upstream attempt of a request, for the access log and the attestation. */
export interface AttemptRecord {
  upstream: string;
  platform: UpstreamPlatform;
  call_region: string;
  outcome: AttemptOutcome;
  ms: number;
}

export interface ExchangeResult {
  usage: TokenUsage;
  outcome: UsageOutcome;
  /** An error to send after all: as the response if nothing was sent yet, else as `event: error`. */
  error?: GatewayError;
  /** One attempt that failed: how, and whether the request may move on to its next route. */
  failure?: AttemptFailure;
  /** The request's attempts in order (set by the route loop). */
  attempts?: AttemptRecord[];
  /** The route that served, or when none did the last one tried, and its platform (set by the route loop). */
  route?: Route;
  platform?: UpstreamPlatform;
}

/**
 * Produces the response of an admitted request: the stub for test keys, the upstream for live ones.
 * Throws only before anything was sent; later failures come back in the result with the usage so far.
 * Responders write the response but never end it: the route ends it once the usage is reported and the
 * concurrency slot is back, so a client that sees the end can start its next request at once.
 */
export interface Responder {
  respond(exchange: Exchange): Promise<ExchangeResult>;
  /** POST /v1/messages/count_tokens with the forwarded body. */
  countTokens(body: Record<string, unknown>, context: CountContext): Promise<number>;
}

export interface CountContext {
  grant: Grant;
  apiVersion: string;
  req: IncomingMessage;
  signal: AbortSignal;
  /** as Exchange.attestation */
  attestation: RequestAttestation;
  /** set by the route loop: how a failed count went, so it can move on to the next route on a failover cause */
  failed?: (failure: AttemptFailure) => void;
  /** set by the count route: the route about to be tried, so the routing headers name the one that answers */
  routing?: (route: Route) => void;
}

export function zeroUsage(): TokenUsage {
  return { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}

/** The reason an exchange was aborted, as an error (revocation → 401, disconnect → none to send). */
export function abortReason(signal: { reason: unknown }): GatewayError | undefined {
  const r: unknown = signal.reason;
  return r instanceof Error && 'status' in r ? (r as GatewayError) : undefined;
}
