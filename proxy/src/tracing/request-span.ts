import type { IncomingMessage, ServerResponse } from 'node:http';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Link, type Span, type SpanOptions } from '@opentelemetry/api';
import {
  ERROR_TYPE,
  GATEWAY_ACCOUNT_ID,
  GATEWAY_KEY_ID,
  GATEWAY_MODEL,
  GATEWAY_REFUSAL_REASON,
  HTTP_REQUEST_METHOD,
  HTTP_RESPONSE_STATUS_CODE,
  HTTP_ROUTE,
  NETWORK_PROTOCOL_VERSION,
  URL_SCHEME,
  contextFromTraceparent,
  gatewayTracer,
  refusalReason,
} from '@gateway/shared';
import type { AccessRecord } from '../access-log.js';

/** The request's SERVER span and the context its children start in. */
interface RequestTrace {
  span: Span;
  ctx: Context;
}

const traces = new WeakMap<ServerResponse, RequestTrace>();

/** Route templates by the route labels of app.ts (never the raw path: it may carry a model id or anything). */
const TEMPLATES: Readonly<Record<string, string>> = {
  messages: '/v1/messages',
  count_tokens: '/v1/messages/count_tokens',
  models: '/v1/models',
  model: '/v1/models/{id}',
  usage: '/v1/usage',
  attestation_keys: '/v1/attestation/keys',
};

/**
 * Opens the proxy's SERVER span of a request (HTTP semantic conventions, the route template as its name). An
 * incoming `traceparent` is its parent, or with OTEL_GATEWAY_TRUST_INCOMING=false only a link of a new trace.
 * Called only while tracing is on.
 */
export function startRequestSpan(req: IncomingMessage, res: ServerResponse, route: string, trustIncoming: boolean): void {
  const template = TEMPLATES[route];
  const method = req.method ?? 'GET';
  const incoming = incomingContext(req);
  const remote = incoming === undefined ? undefined : trace.getSpanContext(incoming);
  const links: Link[] = !trustIncoming && remote !== undefined ? [{ context: remote }] : [];
  const options: SpanOptions = { kind: SpanKind.SERVER, links };
  const parent = trustIncoming && incoming !== undefined ? incoming : ROOT_CONTEXT;
  const span = gatewayTracer().startSpan(template === undefined ? method : `${method} ${template}`, options, parent);
  if (span.isRecording()) {
    span.setAttribute(HTTP_REQUEST_METHOD, method);
    span.setAttribute(URL_SCHEME, 'http');
    span.setAttribute(NETWORK_PROTOCOL_VERSION, req.httpVersion);
    if (template !== undefined) span.setAttribute(HTTP_ROUTE, template);
  }
  traces.set(res, { span, ctx: trace.setSpan(ROOT_CONTEXT, span) });
}

/** Ends the request's span once its response closed: status, and who and what it was (ids only, never content). */
export function endRequestSpan(res: ServerResponse, rec: AccessRecord): { trace_id: string; span_id: string } | undefined {
  const t = traces.get(res);
  if (t === undefined) return undefined;
  const span = t.span;
  if (span.isRecording()) {
    const status = res.statusCode;
    span.setAttribute(HTTP_RESPONSE_STATUS_CODE, status);
    if (rec.key_id !== undefined) span.setAttribute(GATEWAY_KEY_ID, rec.key_id);
    if (rec.account_id !== undefined) span.setAttribute(GATEWAY_ACCOUNT_ID, rec.account_id);
    if (rec.model !== undefined) span.setAttribute(GATEWAY_MODEL, rec.model);
    const reason = rec.error_code === undefined ? undefined : refusalReason(rec.error_code);
    if (reason !== undefined) span.setAttribute(GATEWAY_REFUSAL_REASON, reason);
    if (status >= 500) {
      span.setAttribute(ERROR_TYPE, rec.error_code ?? String(status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    } else if (!res.writableFinished) {
      // Cut before its end (the client left, or a stream broke): the request did not complete.
      span.setAttribute(ERROR_TYPE, rec.error_code ?? 'incomplete');
    }
  }
  span.end();
  const sc = span.spanContext();
  return { trace_id: sc.traceId, span_id: sc.spanId };
}

/** The context the request's child spans start in (undefined when the request is not traced). */
export function requestContext(res: ServerResponse): Context | undefined {
  return traces.get(res)?.ctx;
}

/** The request's SERVER span (to note who was admitted on it). */
export function requestSpan(res: ServerResponse): Span | undefined {
  return traces.get(res)?.span;
}

function incomingContext(req: IncomingMessage): Context | undefined {
  const traceparent = req.headers['traceparent'];
  if (typeof traceparent !== 'string') return undefined;
  const tracestate = req.headers['tracestate'];
  const ctx = contextFromTraceparent(traceparent, typeof tracestate === 'string' ? tracestate : undefined);
  return trace.getSpanContext(ctx) === undefined ? undefined : ctx;
}
