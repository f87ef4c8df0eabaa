import type { Request, Response } from 'express';
import { sendError } from '../http/error-responder.js';
import { callerOf } from '../http/client-address.js';
import { setRateLimitHeaders } from '../http/response-headers.js';
import { requestIdOf } from '../http/request-id.js';
import type { ProxyDeps } from '../proxy-deps.js';
import { describeAnswer } from '../tracing/step-attributes.js';
import { STEP_SPANS, tracePolicyCall } from '../tracing/step-span.js';

/** GET /v1/usage: free and never rate limited; the calling key's account and environment this period. */
export function usageRoute(deps: ProxyDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const requestId = requestIdOf(res);
    const log = deps.log.child({ request_id: requestId });
    try {
      const caller = callerOf(req, deps.addresses, requestId);
      const answer = await tracePolicyCall(res, 'policy.get_usage', STEP_SPANS.getUsage, (tp) => deps.policy.getUsage(caller, tp), describeAnswer);
      if (answer.kind === 'deny') return sendError(res, answer.error, requestId, log, answer.rateLimit);
      setRateLimitHeaders(res, answer.rateLimit);
      const u = answer.value;
      res.status(200).json({
        period: u.period,
        plan: u.plan,
        residency: u.residency,
        privacy_mode: u.privacy_mode,
        tokens: u.tokens,
        rate_limit: u.rate_limit,
        by_model: u.by_model.map((m) => ({ ...m, cost_gbp: Number(m.cost_gbp) })),
      });
    } catch (err) {
      sendError(res, err, requestId, log);
    }
  };
}
