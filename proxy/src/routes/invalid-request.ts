import type { Caller, GatewayError, Logger } from '@gateway/shared';
import type { Response } from 'express';
import { asGatewayError, sendError } from '../http/error-responder.js';
import type { ProxyDeps } from '../proxy-deps.js';
import { describeAuthentication } from '../tracing/step-attributes.js';
import { STEP_SPANS, tracePolicyCall } from '../tracing/step-span.js';

/**
 * A request the proxy found invalid (400) is answered only once its key passed authentication and the IP
 * check (401/403 come first in the order of checks), with the window position; nothing is counted.
 */
export async function answerInvalid(deps: ProxyDeps, res: Response, caller: Caller, problem: GatewayError, requestId: string, log: Logger): Promise<void> {
  try {
    const answer = await tracePolicyCall(res, 'policy.authenticate', STEP_SPANS.authenticate, (tp) => deps.policy.authenticate(caller, tp), describeAuthentication);
    if (answer.kind === 'deny') {
      deps.attestor.refusal(res, requestId, answer);
      return sendError(res, answer.error, requestId, log, answer.rateLimit);
    }
    deps.attestor.refusal(res, requestId, { key: answer.value, catalogueSha256: answer.catalogueSha256, error: problem });
    return sendError(res, problem, requestId, log, answer.rateLimit);
  } catch (err) {
    deps.metrics.policyErrors.inc({ rpc: 'Authenticate' });
    return sendError(res, asGatewayError(err), requestId, log);
  }
}
