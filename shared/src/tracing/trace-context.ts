import {
  context,
  propagation,
  INVALID_SPAN_CONTEXT,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type SpanOptions,
  type Tracer,
} from '@opentelemetry/api';

let on = false;
/** A span that records nothing, for the steps' callbacks while tracing is off. */
const NOT_RECORDING: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** Whether this process started the SDK (startTracing): without it, no span object is even created. */
export function tracingOn(): boolean {
  return on;
}

/** Set once by startTracing. */
export function markTracingOn(): void {
  on = true;
}

/** The one tracer of the gateway's code (both processes); the API's no-op one while no SDK is started. */
export function gatewayTracer(): Tracer {
  return trace.getTracer('model-gateway', '0.1.0');
}

/** A carrier for the W3C propagator. */
type Carrier = Record<string, string>;

/** The W3C `traceparent` of `ctx`'s span ('' without one, or with tracing off): what a Session message carries. */
export function traceparentOf(ctx: Context = context.active()): string {
  const carrier: Carrier = {};
  propagation.inject(ctx, carrier);
  return carrier['traceparent'] ?? '';
}

/** The context a `traceparent` (from a Session message or a header) stands for; the root context for ''. */
export function contextFromTraceparent(traceparent: string | undefined, tracestate?: string): Context {
  if (traceparent === undefined || traceparent === '') return ROOT_CONTEXT;
  const carrier: Carrier = { traceparent };
  if (tracestate !== undefined && tracestate !== '') carrier['tracestate'] = tracestate;
  return propagation.extract(ROOT_CONTEXT, carrier);
}

/**
 * Runs `fn` inside a span that ends when its promise settles: the shape of the policy service's step spans (key
 * lookup, counter script, ledger write). The span is the active one meanwhile; `fn` gets it to add attributes.
 */
export function inSpan<T>(name: string, options: SpanOptions, fn: (span: Span) => Promise<T>): Promise<T> {
  if (!on) return fn(NOT_RECORDING);
  return gatewayTracer().startActiveSpan(name, options, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      // The class of the failure only: an exception's message may quote a value (CONTRACT.md "Traces").
      if (span.isRecording()) span.setAttribute('error.type', errorTypeOf(err));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** error.type of a thrown value: a gateway error's stable code, else the class name, never a message. */
export function errorTypeOf(err: unknown): string {
  if (err !== null && typeof err === 'object') {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Za-z_]+$/.test(code)) return code;
    const name = (err as { name?: unknown }).name;
    if (typeof name === 'string' && /^[A-Za-z]+$/.test(name)) return name;
  }
  return '_OTHER';
}
