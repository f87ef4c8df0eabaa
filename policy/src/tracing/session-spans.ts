import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import {
  ERROR_TYPE,
  GATEWAY_ACCOUNT_ID,
  GATEWAY_KEY_ID,
  GATEWAY_MODEL,
  GATEWAY_REFUSAL_REASON,
  POLICY_SERVICE_NAME,
  RPC_METHOD,
  RPC_SERVICE,
  RPC_SYSTEM,
  contextFromTraceparent,
  errorTypeOf,
  gatewayTracer,
  tracingOn,
  type DecisionWire,
  type UsageReport,
} from '@gateway/shared';
import { decisionReason } from '../policy-metrics.js';

/**
 * Serves one Session message (a decision, a usage report) in a SERVER span whose parent is the trace context the
 * message carries (the proxy's decision span, or its request's span for a report). The span is active while the
 * message is served, so the steps inside (key lookup, counter script, ledger write) are its children. Untraced
 * (no SDK in this process): the message is served as it is, with no span object made.
 */
export function serveTraced<T>(name: string, traceparent: string | undefined, serve: () => Promise<T>, describe: (span: Span, result: T) => void): Promise<T> {
  if (!tracingOn()) return serve();
  const span = gatewayTracer().startSpan(name, { kind: SpanKind.SERVER }, contextFromTraceparent(traceparent));
  if (span.isRecording()) {
    span.setAttribute(RPC_SYSTEM, 'grpc');
    span.setAttribute(RPC_SERVICE, POLICY_SERVICE_NAME);
    span.setAttribute(RPC_METHOD, 'Session');
  }
  return context.with(trace.setSpan(context.active(), span), serve).then(
    (result) => {
      if (span.isRecording()) describe(span, result);
      span.end();
      return result;
    },
    (err: unknown) => {
      span.setAttribute(ERROR_TYPE, errorTypeOf(err));
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      throw err;
    },
  );
}

/** A decision's span: allowed or refused (the reason's word), for which key. */
export function describeDecision(span: Span, d: DecisionWire): void {
  const key = d.outcome === 'allow' ? d.allow?.key : d.deny?.key;
  if (key != null) {
    span.setAttribute(GATEWAY_KEY_ID, key.key_id);
    span.setAttribute(GATEWAY_ACCOUNT_ID, key.account_id);
  }
  if (d.outcome === 'allow' && d.allow != null) span.setAttribute(GATEWAY_MODEL, d.allow.model);
  if (d.outcome === 'deny') span.setAttribute(GATEWAY_REFUSAL_REASON, decisionReason(d.deny?.code ?? ''));
}

/** A usage report's span: whose, and which model (figures stay in the ledger). */
export function describeReport(report: UsageReport): (span: Span) => void {
  return (span) => {
    span.setAttribute(GATEWAY_KEY_ID, report.key_id);
    span.setAttribute(GATEWAY_ACCOUNT_ID, report.account_id);
    span.setAttribute(GATEWAY_MODEL, report.model);
  };
}
