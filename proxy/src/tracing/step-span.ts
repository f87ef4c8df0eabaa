import type { ServerResponse } from 'node:http';
import { context, SpanStatusCode, trace, type Span, type SpanKind } from '@opentelemetry/api';
import { ERROR_TYPE, errorTypeOf, gatewayTracer } from '@gateway/shared';
import { requestContext } from './request-span.js';

/**
 * Runs one step of a traced request (the decision, the privacy step) in a child span of the request's span, active
 * while the step runs (so the decision's Session message carries it); `describe` adds what the step's result says,
 * as ids and counts only. An untraced request runs the step as it is, with no span object made.
 */
export function traceStep<T>(
  res: ServerResponse,
  name: string,
  kind: SpanKind,
  step: () => Promise<T>,
  describe?: (span: Span, result: T) => void,
): Promise<T> {
  const parent = requestContext(res);
  if (parent === undefined) return step();
  const span = gatewayTracer().startSpan(name, { kind }, parent);
  return context.with(trace.setSpan(parent, span), step).then(
    (result) => {
      if (describe !== undefined && span.isRecording()) describe(span, result);
      span.end();
      return result;
    },
    (err: unknown) => {
      // The class of the failure only: an exception's message may quote the body (CONTRACT.md "Traces").
      span.setAttribute(ERROR_TYPE, errorTypeOf(err));
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      throw err;
    },
  );
}

/** Runs `fn` with the request's span active (its usage report then carries the request's trace context). */
export function inRequestContext<T>(res: ServerResponse, fn: () => T): T {
  const ctx = requestContext(res);
  return ctx === undefined ? fn() : context.with(ctx, fn);
}
