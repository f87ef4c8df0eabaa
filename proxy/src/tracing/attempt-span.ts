import type { ServerResponse } from 'node:http';
import { propagation, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import {
  ERROR_TYPE,
  GATEWAY_ACCOUNT_ID,
  GATEWAY_CALL_REGION,
  GATEWAY_FIRST_TOKEN_EVENT,
  GATEWAY_KEY_ID,
  GATEWAY_MODEL,
  GATEWAY_PRIVACY_MODE,
  GATEWAY_PROCESSING_REGIONS,
  GATEWAY_RESIDENCY,
  GATEWAY_ROUTE_INDEX,
  GEN_AI_OPERATION_NAME,
  GEN_AI_PROVIDER_NAME,
  GEN_AI_REQUEST_MAX_TOKENS,
  GEN_AI_REQUEST_MODEL,
  GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS,
  GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  GEN_AI_USAGE_INPUT_TOKENS,
  GEN_AI_USAGE_OUTPUT_TOKENS,
  HTTP_RESPONSE_STATUS_CODE,
  SERVER_ADDRESS,
  SERVER_PORT,
  gatewayTracer,
  type Route,
} from '@gateway/shared';
import type { Exchange, ExchangeResult } from '../exchange.js';
import { requestContext } from './request-span.js';

/** gen_ai.provider.name of each platform (CONTRACT.md "Traces"). */
export type GenAiProvider = 'anthropic' | 'aws.bedrock' | 'gcp.vertex_ai';

/** One upstream attempt's CLIENT span; a no-op for an untraced request. */
export interface AttemptSpan {
  /** The call settled: its usage, and on failure its error.type (never the error's message). */
  end(result: ExchangeResult, upstreamStatus: number): void;
}

const NONE: AttemptSpan = { end: () => undefined };

/** The attempt running for each response: the first token is noted on it. */
const current = new WeakMap<ServerResponse, Span>();

/**
 * Starts the CLIENT span `chat {gen_ai.request.model}` of one upstream attempt, a child of the request's span, and
 * puts its `traceparent` in the upstream request's headers: the platform's span hangs under the gateway's attempt,
 * and the client's own header never goes upstream. Called where an attempt is dispatched, once per attempt.
 */
export function startAttemptSpan(x: Exchange, provider: GenAiProvider, origin: string, headers: Record<string, string>): AttemptSpan {
  const parent = requestContext(x.res);
  if (parent === undefined) return NONE;
  const route = x.grant.route;
  const span = gatewayTracer().startSpan(`chat ${route.upstream_model}`, { kind: SpanKind.CLIENT }, parent);
  // Sent sampled or not: a trace not sampled here is not sampled by the platform either (its flags say so).
  propagation.inject(trace.setSpan(parent, span), headers);
  if (!span.isRecording()) return NONE;
  const k = x.grant.key;
  span.setAttribute(GEN_AI_OPERATION_NAME, 'chat');
  span.setAttribute(GEN_AI_PROVIDER_NAME, provider);
  span.setAttribute(GEN_AI_REQUEST_MODEL, route.upstream_model);
  span.setAttribute(GEN_AI_REQUEST_MAX_TOKENS, x.body.max_tokens);
  span.setAttribute(GATEWAY_MODEL, x.grant.model);
  span.setAttribute(GATEWAY_RESIDENCY, k.residency);
  span.setAttribute(GATEWAY_CALL_REGION, route.call_region);
  span.setAttribute(GATEWAY_PROCESSING_REGIONS, [...route.processing_regions]);
  span.setAttribute(GATEWAY_ROUTE_INDEX, routeIndex(x.grant.routes, route));
  span.setAttribute(GATEWAY_PRIVACY_MODE, k.privacy_mode);
  span.setAttribute(GATEWAY_KEY_ID, k.key_id);
  span.setAttribute(GATEWAY_ACCOUNT_ID, k.account_id);
  const server = serverOf(origin);
  span.setAttribute(SERVER_ADDRESS, server.address);
  span.setAttribute(SERVER_PORT, server.port);
  current.set(x.res, span);
  return {
    end(result: ExchangeResult, upstreamStatus: number): void {
      if (current.get(x.res) === span) current.delete(x.res);
      const u = result.usage;
      span.setAttribute(GEN_AI_USAGE_INPUT_TOKENS, u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens);
      span.setAttribute(GEN_AI_USAGE_OUTPUT_TOKENS, u.output_tokens);
      span.setAttribute(GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS, u.cache_read_input_tokens);
      span.setAttribute(GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS, u.cache_creation_input_tokens);
      if (upstreamStatus > 0) span.setAttribute(HTTP_RESPONSE_STATUS_CODE, upstreamStatus);
      const errorType = result.error?.code ?? (result.outcome === 'ok' ? undefined : result.outcome);
      if (errorType !== undefined) {
        span.setAttribute(ERROR_TYPE, errorType);
        if (result.outcome !== 'client_disconnect') span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    },
  };
}

/** The first token reached the client: an event on the running attempt's span (nothing when untraced). */
export function noteFirstToken(res: ServerResponse): void {
  current.get(res)?.addEvent(GATEWAY_FIRST_TOKEN_EVENT);
}

/** server.address and server.port of each upstream origin, parsed once (the origins are the configured routes'). */
const servers = new Map<string, { address: string; port: number }>();
function serverOf(origin: string): { address: string; port: number } {
  let server = servers.get(origin);
  if (server === undefined) {
    const url = new URL(origin);
    server = { address: url.hostname, port: url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port) };
    if (servers.size < 1000) servers.set(origin, server);
  }
  return server;
}

/**
 * The attempt's place among the grant's ordered routes (the attempt's exchange carries its own route as
 * `grant.route`); 0 for a policy service that predates `routes`, whose one route is the only one.
 */
function routeIndex(routes: readonly Route[], route: Route): number {
  const i = routes.findIndex((r) => r.upstream === route.upstream && r.call_region === route.call_region && r.upstream_model === route.upstream_model);
  return i < 0 ? 0 : i;
}
