import { InvalidRequestError, type ModelEntryWire, type ModelPage } from '@gateway/shared';
import type { Request, Response } from 'express';
import { sendError } from '../http/error-responder.js';
import { callerOf } from '../http/client-address.js';
import { setRateLimitHeaders } from '../http/response-headers.js';
import { requestIdOf } from '../http/request-id.js';
import type { ProxyDeps } from '../proxy-deps.js';
import { describeAnswer } from '../tracing/step-attributes.js';
import { STEP_SPANS, tracePolicyCall } from '../tracing/step-span.js';

/** A model entry as the spec shows it (prices as numbers; the wire carries exact decimal strings). */
function modelJson(m: ModelEntryWire) {
  const p = m.pricing_gbp_per_million;
  return {
    type: 'model',
    id: m.id,
    display_name: m.display_name,
    created_at: m.created_at,
    context_window: m.context_window,
    max_output_tokens: m.max_output_tokens,
    supports_vision: m.supports_vision,
    residency: m.residency,
    residency_label: m.residency_label,
    processing_regions: m.processing_regions,
    pricing_gbp_per_million: {
      input: Number(p.input),
      output: Number(p.output),
      cache_write: Number(p.cache_write),
      cache_read: Number(p.cache_read),
    },
  };
}

function pageJson(page: ModelPage) {
  return {
    data: page.data.map(modelJson),
    has_more: page.has_more,
    first_id: page.data[0]?.id ?? null,
    last_id: page.data[page.data.length - 1]?.id ?? null,
    residency_tier: page.residency_tier,
    residency_tier_label: page.residency_tier_label,
  };
}

function queryString(req: Request, name: string): string {
  const v: unknown = req.query[name];
  return typeof v === 'string' ? v : '';
}

/** GET /v1/models: only the models this key can call, paged as the vendor pages. */
export function listModelsRoute(deps: ProxyDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const requestId = requestIdOf(res);
    const log = deps.log.child({ request_id: requestId });
    const limitRaw = queryString(req, 'limit');
    const limit = limitRaw === '' ? 20 : Number(limitRaw);
    const limitValid = Number.isInteger(limit) && limit >= 1 && limit <= 1000;
    try {
      const answer = await tracePolicyCall(res, 'policy.list_models', STEP_SPANS.listModels, (tp) => deps.policy.listModels({
        caller: callerOf(req, deps.addresses, requestId),
        model_id: '',
        limit: limitValid ? limit : 20,
        after_id: queryString(req, 'after_id'),
        before_id: queryString(req, 'before_id'),
        request_valid: limitValid,
      }, tp), describeAnswer);
      if (answer.kind === 'deny') return sendError(res, answer.error, requestId, log, answer.rateLimit);
      if (!limitValid) {
        return sendError(res, new InvalidRequestError('limit: must be an integer from 1 to 1000'), requestId, log, answer.rateLimit);
      }
      setRateLimitHeaders(res, answer.rateLimit);
      res.status(200).json(pageJson(answer.value));
    } catch (err) {
      sendError(res, err, requestId, log);
    }
  };
}

/** GET /v1/models/{id}: one entry (dated aliases resolve), or 404 when this key cannot call it. */
export function getModelRoute(deps: ProxyDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const requestId = requestIdOf(res);
    const log = deps.log.child({ request_id: requestId });
    try {
      const answer = await tracePolicyCall(res, 'policy.list_models', STEP_SPANS.listModels, (tp) => deps.policy.listModels({
        caller: callerOf(req, deps.addresses, requestId),
        model_id: String(req.params['id'] ?? ''),
        limit: 1,
        after_id: '',
        before_id: '',
        request_valid: true,
      }, tp), describeAnswer);
      if (answer.kind === 'deny') return sendError(res, answer.error, requestId, log, answer.rateLimit);
      setRateLimitHeaders(res, answer.rateLimit);
      const model = answer.value.data[0];
      res.status(200).json(model === undefined ? {} : modelJson(model));
    } catch (err) {
      sendError(res, err, requestId, log);
    }
  };
}
