import { keyFormatError, type Authentication, type Caller, type GatewayError, type PolicyClient, type RateLimitPosition } from '@gateway/shared';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { asGatewayError } from './error-responder.js';
import { describeAuthentication } from '../tracing/step-attributes.js';
import { STEP_SPANS, tracePolicyCall } from '../tracing/step-span.js';

/** Bodies above this (or of unknown length) are not read before the caller is known. */
const PREAUTH_BYTES = 1024 * 1024;

/**
 * What refuses a request before its body is read: a missing or malformed key (no lookup needed); and, for a
 * large body, the policy service's verdict on the key and source address, so an unknown key cannot make the
 * proxy buffer 32 MiB. Small bodies skip the extra call: the decision after reading them checks the same things.
 * A refusal the policy service answered comes with its answer (its response is attested when it names the key).
 */
export async function refusalBeforeBody(
  policy: PolicyClient,
  req: IncomingMessage,
  res: ServerResponse,
  caller: Caller,
): Promise<{ error: GatewayError; rateLimit: RateLimitPosition | null; answer?: Authentication & { kind: 'deny' } } | undefined> {
  const keyError = keyFormatError(caller.api_key);
  if (keyError !== undefined) return { error: keyError, rateLimit: null };
  const declared = Number(req.headers['content-length']);
  const large = req.headers['transfer-encoding'] !== undefined || (Number.isFinite(declared) && declared > PREAUTH_BYTES);
  if (!large) return undefined;
  try {
    const answer = await tracePolicyCall(res, 'policy.authenticate', STEP_SPANS.authenticate, (tp) => policy.authenticate(caller, tp), describeAuthentication);
    return answer.kind === 'deny' ? { error: answer.error, rateLimit: answer.rateLimit, answer } : undefined;
  } catch (err) {
    return { error: asGatewayError(err), rateLimit: null };
  }
}

