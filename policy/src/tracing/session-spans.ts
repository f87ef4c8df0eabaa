import { SpanKind, type Context, type Span, type SpanOptions } from '@opentelemetry/api';
import {
  GATEWAY_ACCOUNT_ID,
  GATEWAY_KEY_ID,
  GATEWAY_MODEL,
  GATEWAY_REFUSAL_REASON,
  POLICY_SERVICE_NAME,
  RPC_METHOD,
  RPC_SERVICE,
  RPC_SYSTEM,
  contextFromTraceparent,
  inSpan,
  tracingOn,
  type AuthenticateResponse,
  type DecisionWire,
  type UsageReport,
} from '@gateway/shared';
import { decisionReason } from '../policy-metrics.js';

/** The SERVER span options of an RPC, built once per method (their attributes are constants). */
export const rpcServerSpan = (method: string): SpanOptions => ({
  kind: SpanKind.SERVER,
  attributes: { [RPC_SYSTEM]: 'grpc', [RPC_SERVICE]: POLICY_SERVICE_NAME, [RPC_METHOD]: method },
});
const SESSION = rpcServerSpan('Session');

/**
 * Serves one Session message (a decision, a usage report) or one unary call in a SERVER span whose parent is the
 * trace context it carries (the proxy's CLIENT span of the decision or authentication, or its request's span for
 * a report). `serve` gets the span's context: the steps inside (key lookup, counter script, ledger write) are its
 * children. Untraced (no SDK in this process): the message is served as it is, with no span object made.
 */
export function serveTraced<T>(
  name: string,
  traceparent: string | undefined,
  serve: (trace: Context | undefined) => Promise<T>,
  describe: (span: Span, result: T) => void,
  options: SpanOptions = SESSION,
): Promise<T> {
  if (!tracingOn()) return serve(undefined);
  return inSpan(name, options, contextFromTraceparent(traceparent), serve, describe);
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

/** An authentication's span: which key, or why it was refused. */
export function describeAuthentication(span: Span, a: AuthenticateResponse): void {
  const key = a.outcome === 'key' ? a.key : a.deny?.key;
  if (key != null) {
    span.setAttribute(GATEWAY_KEY_ID, key.key_id);
    span.setAttribute(GATEWAY_ACCOUNT_ID, key.account_id);
  }
  if (a.outcome === 'deny') span.setAttribute(GATEWAY_REFUSAL_REASON, decisionReason(a.deny?.code ?? ''));
}

/** The refusal of a unary call's answer (ListModels, GetUsage), if it is one. */
export function describeRefusal(span: Span, answer: { outcome?: string; deny?: { code: string } | null }): void {
  if (answer.outcome === 'deny') span.setAttribute(GATEWAY_REFUSAL_REASON, decisionReason(answer.deny?.code ?? ''));
}
