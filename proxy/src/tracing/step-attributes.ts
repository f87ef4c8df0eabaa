import { SpanStatusCode, type Span } from '@opentelemetry/api';
import {
  ERROR_TYPE,
  GATEWAY_ACCOUNT_ID,
  GATEWAY_KEY_ID,
  GATEWAY_PRIVACY_MODE,
  GATEWAY_REFUSAL_REASON,
  refusalReason,
  type Answer,
  type Authentication,
  type Decision,
  type GatewayError,
  type PrivacyMode,
} from '@gateway/shared';
import type { PrivacyResult } from '@gateway/privacy';

/** The decision's client span: which key, or why it was refused (the reason's word, never the message). */
export function describeDecision(span: Span, d: Decision | GatewayError): void {
  if (d instanceof Error) {
    // The policy service could not be asked (503): the decision failed, whatever the request's fate.
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.setAttribute(ERROR_TYPE, d.code);
    const reason = refusalReason(d.code);
    if (reason !== undefined) span.setAttribute(GATEWAY_REFUSAL_REASON, reason);
    return;
  }
  if (d.kind === 'deny') {
    const reason = refusalReason(d.error.code);
    if (reason !== undefined) span.setAttribute(GATEWAY_REFUSAL_REASON, reason);
    if (d.key !== null) {
      span.setAttribute(GATEWAY_KEY_ID, d.key.key_id);
      span.setAttribute(GATEWAY_ACCOUNT_ID, d.key.account_id);
    }
    return;
  }
  span.setAttribute(GATEWAY_KEY_ID, d.grant.key.key_id);
  span.setAttribute(GATEWAY_ACCOUNT_ID, d.grant.key.account_id);
}

/** The privacy step's span: the mode and how many values of each type it found (never a value). */
export function describePrivacy(mode: PrivacyMode): (span: Span, result: PrivacyResult) => void {
  return (span, result) => {
    span.setAttribute(GATEWAY_PRIVACY_MODE, mode);
    for (const [type, count] of Object.entries(result.counts)) span.setAttribute(`gateway.pii.${type.toLowerCase()}`, count ?? 0);
  };
}

/** An authentication's client span: which key, or why it was refused. */
export function describeAuthentication(span: Span, a: Authentication): void {
  const key = a.kind === 'ok' ? a.value : a.key;
  if (key !== null) {
    span.setAttribute(GATEWAY_KEY_ID, key.key_id);
    span.setAttribute(GATEWAY_ACCOUNT_ID, key.account_id);
  }
  if (a.kind === 'deny') describeRefusal(span, a.error);
}

/** A models or usage answer's client span: why it was refused, if it was. */
export function describeAnswer<T>(span: Span, a: Answer<T>): void {
  if (a.kind === 'deny') describeRefusal(span, a.error);
}

function describeRefusal(span: Span, error: GatewayError): void {
  const reason = refusalReason(error.code);
  if (reason !== undefined) span.setAttribute(GATEWAY_REFUSAL_REASON, reason);
}
