import type { ServerResponse } from 'node:http';
import { SpanKind, type Span, type SpanOptions } from '@opentelemetry/api';
import { POLICY_SERVICE_NAME, RPC_METHOD, RPC_SERVICE, RPC_SYSTEM, inSpan, traceparentOf } from '@gateway/shared';
import { requestContext } from './request-span.js';

/**
 * Runs one step of a traced request (the privacy step) in a child span of the request's span; `describe` adds what
 * the step's result says, as ids and counts only. An untraced request runs the step as it is, with no span object
 * made.
 */
export function traceStep<T>(res: ServerResponse, name: string, options: SpanOptions, step: () => Promise<T>, describe?: (span: Span, result: T) => void): Promise<T> {
  return inSpan(name, options, requestContext(res), step, describe);
}

/** The CLIENT span options of a call to the policy service, built once per method (constant attributes). */
const policyCallSpan = (method: string): SpanOptions => ({
  kind: SpanKind.CLIENT,
  attributes: { [RPC_SYSTEM]: 'grpc', [RPC_SERVICE]: POLICY_SERVICE_NAME, [RPC_METHOD]: method },
});
/** The options of each span a request's steps open. */
export const STEP_SPANS = {
  decide: policyCallSpan('Session'),
  authenticate: policyCallSpan('Authenticate'),
  listModels: policyCallSpan('ListModels'),
  getUsage: policyCallSpan('GetUsage'),
  privacy: { kind: SpanKind.INTERNAL },
} as const satisfies Record<string, SpanOptions>;

/**
 * A call to the policy service on a request's behalf (the decision, an authentication, a models or usage answer)
 * in a CLIENT span under the request's span; `call` gets the span's `traceparent` to send with the message, so
 * the policy service's SERVER span hangs under it ('' when the request is untraced).
 */
export function tracePolicyCall<T>(
  res: ServerResponse,
  name: string,
  options: SpanOptions,
  call: (traceparent: string) => Promise<T>,
  describe?: (span: Span, result: T) => void,
): Promise<T> {
  return inSpan(name, options, requestContext(res), (ctx) => call(traceparentOf(ctx)), describe);
}

/** The `traceparent` of the request's own span ('' when untraced): its usage report carries it. */
export function requestTraceparent(res: ServerResponse): string {
  return traceparentOf(requestContext(res));
}
