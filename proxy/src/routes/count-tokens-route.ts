import type { Logger, PrivacyMode } from '@gateway/shared';
import type { Request, Response } from 'express';
import { readJsonBody } from '../http/body-reader.js';
import { asGatewayError, sendError } from '../http/error-responder.js';
import { callerOf } from '../http/client-address.js';
import { refusalBeforeBody } from '../http/pre-authenticate.js';
import { apiVersionFrom } from '../http/request-headers.js';
import { setRateLimitHeaders, setRoutingHeaders } from '../http/response-headers.js';
import { decisionFields, validateCountTokensBody } from '../messages-request.js';
import { applyKeyPrivacy, textLimitError } from '../privacy-step.js';
import { requestIdOf } from '../http/request-id.js';
import { answerInvalid } from './invalid-request.js';
import { noteAdmitted } from '../access-log.js';
import type { RequestAttestation } from '../attestation/index.js';
import type { ProxyDeps } from '../proxy-deps.js';
import { describeDecision } from '../tracing/step-attributes.js';
import { STEP_SPANS, tracePolicyCall } from '../tracing/step-span.js';

/** POST /v1/messages/count_tokens: the same checks as a message (no slot, no allowance), then a count. */
export function countTokensRoute(deps: ProxyDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const requestId = requestIdOf(res);
    const log: Logger = deps.log.child({ request_id: requestId });
    const caller = callerOf(req, deps.addresses, requestId);
    const early = await refusalBeforeBody(deps.policy, req, res, caller);
    if (early !== undefined) {
      if (early.answer !== undefined) deps.attestor.refusal(res, requestId, early.answer);
      return sendError(res, early.error, requestId, log, early.rateLimit);
    }
    const read = await readJsonBody(req);
    const version = apiVersionFrom(req.headers);
    const validated = read.ok ? validateCountTokensBody(read.json) : read.error;
    const problem =
      typeof version !== 'string' ? version : validated instanceof Error ? validated : textLimitError(validated as Record<string, unknown>);
    if (problem !== undefined) return answerInvalid(deps, res, caller, problem, requestId, log);
    const fields = decisionFields(read.ok ? read.json : undefined);
    let attestation: RequestAttestation | undefined;
    try {
      const decision = await tracePolicyCall(res, 'policy.decide', STEP_SPANS.decide, (tp) => deps.policy.decide({
        caller,
        operation: 'COUNT_TOKENS',
        model: fields.model,
        stream: false,
        max_tokens: 0,
        input_tokens_estimate: 0,
      }, tp), describeDecision);
      if (decision.kind === 'deny') {
        deps.attestor.refusal(res, requestId, decision);
        return sendError(res, decision.error, requestId, log, decision.rateLimit);
      }
      const grant = decision.grant;
      attestation = deps.attestor.admitted(requestId, grant, decision.catalogueSha256);
      noteAdmitted(res, decision.decisionId, grant, false);
      setRateLimitHeaders(res, decision.rateLimit);
      setRoutingHeaders(res, grant.key.residency, grant.route);
      const mode: PrivacyMode = grant.key.privacy_mode;
      let body: Record<string, unknown> = { ...(validated as Record<string, unknown>), model: grant.route.upstream_model };
      if (mode !== 'off') {
        const result = await applyKeyPrivacy(deps, body, mode);
        attestation.privacy(result.counts);
        body = result.body;
      }
      const responder = grant.key.environment === 'test' ? deps.stub : deps.upstream;
      const controller = new AbortController();
      res.on('close', () => controller.abort());
      const inputTokens = await responder.countTokens(body, {
        grant, apiVersion: version as string, req, signal: controller.signal, attestation,
        // A count that moves to another route is answered by that route: the headers name it.
        routing: (route) => setRoutingHeaders(res, grant.key.residency, route),
      });
      attestation.attach(res, 200);
      res.status(200).json({ input_tokens: inputTokens });
    } catch (err) {
      const error = asGatewayError(err);
      attestation?.attach(res, error.status);
      sendError(res, error, requestId, log);
    }
  };
}
