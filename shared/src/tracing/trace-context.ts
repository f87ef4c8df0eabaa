import {
  propagation,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type SpanOptions,
  type Tracer,
} from '@opentelemetry/api';
import { ERROR_TYPE, SEMCONV_SCHEMA_URL } from './semconv.js';

/**
 * Contexts are passed by hand (a step's parent is an argument), never held in an AsyncLocalStorage: startTracing
 * registers no context manager. Node 20's AsyncLocalStorage runs async_hooks on every promise and resource of the
 * process, traced request or not: profiled at 1 s of the policy service's and 1.3 s of the proxy's CPU over 10,000
 * traced requests (bench/tracing-cost.mjs --cpu-prof), the largest single cost of tracing.
 */
let tracer: Tracer | undefined;

/** Whether this process started the SDK (startTracing): without it, no span object is even created. */
export function tracingOn(): boolean {
  return tracer !== undefined;
}

/**
 * The tracer's scope: its schema URL names the semantic-conventions version every span follows (SEMCONV_VERSION),
 * so a backend reads the pinned version from each export, not only from docs/operations.md.
 */
const SCOPE = { name: 'model-gateway', version: '0.1.0', options: { schemaUrl: SEMCONV_SCHEMA_URL } } as const;

/** Set by startTracing, after the SDK's provider is registered. */
export function markTracingOn(): void {
  tracer = trace.getTracerProvider().getTracer(SCOPE.name, SCOPE.version, SCOPE.options);
}

/** Unset when the SDK stops: a span started after its last export would never leave. */
export function markTracingOff(): void {
  tracer = undefined;
}

/** The one tracer of the gateway's code (both processes); the API's no-op one while no SDK is started. */
export function gatewayTracer(): Tracer {
  // Looked up once: the provider's getTracer builds a key string and searches a map on every call.
  return tracer ?? trace.getTracerProvider().getTracer(SCOPE.name, SCOPE.version, SCOPE.options);
}

/** A carrier for the W3C propagator. */
type Carrier = Record<string, string>;

/** The W3C `traceparent` of `ctx`'s span ('' without one, or with tracing off): what a Session message carries. */
export function traceparentOf(ctx: Context | undefined): string {
  if (ctx === undefined) return '';
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
 * Ends `span` when `settled` settles: on a result, after `describe` (only while the span records) adds what the
 * result says; on a rejection, with `error.type` and ERROR status. The one way a step span of either process ends.
 */
export function endWhenSettled<T>(span: Span, settled: Promise<T>, describe?: (span: Span, result: T) => void): Promise<T> {
  return settled.then(
    (result) => {
      if (describe !== undefined && span.isRecording()) describe(span, result);
      span.end();
      return result;
    },
    (err: unknown) => {
      // The class of the failure only: an exception's message may quote a value (CONTRACT.md "Traces").
      if (span.isRecording()) span.setAttribute(ERROR_TYPE, errorTypeOf(err));
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      throw err;
    },
  );
}

/**
 * Runs `fn` in a child span of `parent` that ends when its promise settles (endWhenSettled): the shape of every
 * step span (the decision, the privacy step, the key lookup, the counter script, the ledger write). `fn` gets the
 * span's context, to hand to the steps inside it. No parent (an untraced request) or no SDK: `fn` runs as it is,
 * with no span object made.
 */
export function inSpan<T>(
  name: string,
  options: SpanOptions,
  parent: Context | undefined,
  fn: (ctx: Context | undefined) => Promise<T>,
  describe?: (span: Span, result: T) => void,
): Promise<T> {
  if (tracer === undefined || parent === undefined) return fn(undefined);
  const span = tracer.startSpan(name, options, parent);
  let running: Promise<T>;
  try {
    running = fn(trace.setSpan(parent, span));
  } catch (err) {
    running = Promise.reject(err);
  }
  return endWhenSettled(span, running, describe);
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
