import {
  type Caller,
  type Decision,
  type GatewayError,
  type Grant,
  type Logger,
  type PrivacyMode,
  type RouteEvidence,
} from '@gateway/shared';
import type { Request, Response } from 'express';
import type { Exchange, ExchangeResult, SentBody } from '../exchange.js';
import { abortReason, zeroUsage } from '../exchange.js';
import { AbortHandle } from '../abort-handle.js';
import { readJsonBody } from '../http/body-reader.js';
import { asGatewayError, sendError } from '../http/error-responder.js';
import { callerOf } from '../http/client-address.js';
import { refusalBeforeBody } from '../http/pre-authenticate.js';
import { apiVersionFrom, testScenarioFrom, type TestScenario } from '../http/request-headers.js';
import { setRateLimitHeaders, setRoutingHeaders } from '../http/response-headers.js';
import { decisionFields, validateMessagesBody, type MessagesBody } from '../messages-request.js';
import type { TokenRestorer } from '@gateway/privacy';
import { formatPiiHeader } from '../privacy/pii-header.js';
import { applyKeyPrivacy, textLimitError } from '../privacy-step.js';
import { requestIdOf } from '../http/request-id.js';
import { accessRecord, noteAdmitted, type AccessRecord } from '../access-log.js';
import { answerInvalid } from './invalid-request.js';
import type { RequestAttestation } from '../attestation/index.js';
import type { ProxyDeps } from '../proxy-deps.js';
import { noteFirstToken } from '../tracing/attempt-span.js';
import { describeDecision, describePrivacy } from '../tracing/step-attributes.js';
import { STEP_SPANS, requestTraceparent, tracePolicyCall, traceStep } from '../tracing/step-span.js';

interface ParsedRequest {
  body: MessagesBody | undefined;
  /** the first problem with the body or a header; sent only once the key passed authentication and the IP check */
  problem: GatewayError | undefined;
  apiVersion: string;
  scenario: TestScenario | undefined;
  fields: { model: string; max_tokens: number; stream: boolean };
  /** size of the body as sent: the worst case of its input tokens, for the overage reservation */
  bodyBytes: number;
  /** the body's bytes and its model value's place in them, for forwarding without serialising again */
  sent: SentBody | undefined;
}

/** POST /v1/messages: authenticate → decide → transform → forward → relay → report. */
export function messagesRoute(deps: ProxyDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const startedAt = performance.now();
    const requestId = requestIdOf(res);
    let log = deps.log.child({ request_id: requestId });
    const caller = callerOf(req, deps.addresses, requestId);
    // Refused before reading (and buffering) the body: no well-formed key, or a large body for a refused caller.
    const early = await refusalBeforeBody(deps.policy, req, res, caller);
    if (early !== undefined) {
      if (early.answer !== undefined) deps.attestor.refusal(res, requestId, early.answer);
      return sendError(res, early.error, requestId, log, early.rateLimit);
    }

    const parsed = await parseRequest(req);
    if (parsed.problem !== undefined) return answerInvalid(deps, res, caller, parsed.problem, requestId, log);
    const decision = await tracePolicyCall(res, 'policy.decide', STEP_SPANS.decide, (tp) => decide(deps, caller, parsed, log, tp), describeDecision);
    if (decision instanceof Error) return sendError(res, decision, requestId, log);
    // A child of the root with both ids, not a child of the first: pino's child of a child costs ~3.6 µs a
    // request against ~0.5 µs (node, 200,000 each).
    log = deps.log.child({ request_id: requestId, decision_id: decision.decisionId });
    if (decision.kind === 'deny') {
      deps.attestor.refusal(res, requestId, decision);
      return sendError(res, decision.error, requestId, log, decision.rateLimit);
    }

    const grant = decision.grant;
    const attestation = deps.attestor.admitted(requestId, grant, decision.catalogueSha256);
    const rec = noteAdmitted(res, decision.decisionId, grant, parsed.fields.stream);
    setRateLimitHeaders(res, decision.rateLimit);
    setRoutingHeaders(res, grant.key.residency, grant.route);
    let result: ExchangeResult;
    // The upstream wait (the stub's for test keys) is what `forward` spends; the rest is the gateway's overhead.
    let forwardMs = 0;
    try {
      const { body, restorer } = await transform(deps, res, parsed.body as MessagesBody, grant, attestation);
      // Privacy off leaves the body as sent but for its model: its bytes go on with the model spliced in.
      const sent = grant.key.privacy_mode === 'off' ? parsed.sent : undefined;
      const forwardedAt = performance.now();
      // Every field written out: one literal of one shape (a spread built it before, then again per step).
      result = await forward(deps, { req, res, requestId, log, grant, body, sent, stream: parsed.fields.stream,
        apiVersion: parsed.apiVersion, scenario: parsed.scenario, restorer, signal: new AbortHandle(), attestation, attempt: 0 }, startedAt);
      forwardMs = performance.now() - forwardedAt;
    } catch (err) {
      // A fault in the privacy step: nothing was forwarded, but the slot must still come back.
      result = { usage: zeroUsage(), outcome: 'error', error: asGatewayError(err) };
    }
    if (result.error !== undefined) {
      // Not yet answered: the error is the answer, attested with its own status (a stream's error is an event).
      attestation.attach(res, result.error.status);
      sendError(res, result.error, requestId, log);
    } else if (!res.writableEnded) res.end();
    // Node writes the response's last bytes on the next tick; queued after them, the report's encoding is off
    // the client's path. It is still written before any I/O of this process runs, so this proxy's next decision
    // cannot overtake the release it carries.
    process.nextTick(report, deps, res, caller, requestId, decision.decisionId, grant, result);
    observeAdmitted(deps, rec, grant, result, performance.now() - startedAt, forwardMs);
  };
}

/** The overhead, duration and token figures of an admitted request, as metrics and in its access record. */
function observeAdmitted(deps: ProxyDeps, rec: AccessRecord, grant: Grant, result: ExchangeResult, totalMs: number, forwardMs: number): void {
  const u = result.usage;
  rec.overhead_ms = totalMs - forwardMs;
  rec.tokens = u;
  rec.outcome = result.outcome;
  if (result.attempts !== undefined) rec.attempts = result.attempts;
  const model = grant.model;
  deps.metrics.overhead.observe({ route: 'messages' }, rec.overhead_ms / 1000);
  deps.metrics.genAiDuration.observe({ gen_ai_request_model: model, gen_ai_operation_name: 'chat', error_type: result.error?.type ?? '' }, totalMs / 1000);
  deps.metrics.genAiTokenUsage.observe({ gen_ai_request_model: model, gen_ai_token_type: 'input' }, u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens);
  deps.metrics.genAiTokenUsage.observe({ gen_ai_request_model: model, gen_ai_token_type: 'output' }, u.output_tokens);
}

/**
 * Notes when the first content_block_delta goes to the client (time to first token): looks at what the
 * response writes until it has seen one, then steps aside.
 */
function watchFirstToken(deps: ProxyDeps, res: Response, model: string, startedAt: number): void {
  const write = res.write;
  const watching = function (this: Response, ...args: Parameters<Response['write']>): boolean {
    const chunk: unknown = args[0];
    if ((typeof chunk === 'string' || Buffer.isBuffer(chunk)) && chunk.includes('event: content_block_delta')) {
      res.write = write;
      const ms = performance.now() - startedAt;
      accessRecord(res).ttft_ms = ms;
      noteFirstToken(res);
      deps.metrics.genAiTimeToFirstToken.observe({ gen_ai_request_model: model }, ms / 1000);
    }
    return write.apply(this, args);
  };
  res.write = watching as Response['write'];
}

async function parseRequest(req: Request): Promise<ParsedRequest> {
  const read = await readJsonBody(req);
  const version = apiVersionFrom(req.headers);
  const scenario = testScenarioFrom(req.headers);
  let problem: GatewayError | undefined;
  let body: MessagesBody | undefined;
  if (typeof version !== 'string') problem = version;
  else if (scenario instanceof Error) problem = scenario;
  if (!read.ok) problem ??= read.error;
  else {
    const v = validateMessagesBody(read.json);
    if (v instanceof Error) problem ??= v;
    else {
      problem ??= textLimitError(v);
      body = v;
    }
  }
  return {
    body,
    problem,
    apiVersion: typeof version === 'string' ? version : '',
    scenario: scenario instanceof Error ? undefined : scenario,
    fields: decisionFields(read.ok ? read.json : undefined),
    bodyBytes: read.ok ? read.bytes : 0,
    sent: read.ok && read.model !== undefined ? { bytes: read.raw, model: read.model } : undefined,
  };
}

/** The policy's decision, or the error that stands for it when the policy service cannot be reached. */
async function decide(deps: ProxyDeps, caller: Caller, parsed: ParsedRequest, log: Logger, traceparent: string): Promise<Decision | GatewayError> {
  try {
    return await deps.policy.decide({
      caller,
      operation: 'CREATE_MESSAGE',
      model: parsed.fields.model,
      stream: parsed.fields.stream,
      max_tokens: parsed.fields.max_tokens,
      input_tokens_estimate: Math.ceil(parsed.bodyBytes * 1.25),
    }, traceparent);
  } catch (err) {
    deps.metrics.policyErrors.inc({ rpc: 'Decide' });
    log.warn({ err }, 'policy decision failed');
    return asGatewayError(err);
  }
}

/** Model → the upstream id of the route; the key's privacy mode on every text the request carries. */
async function transform(
  deps: ProxyDeps,
  res: Response,
  body: MessagesBody,
  grant: Grant,
  attestation: RequestAttestation,
): Promise<{ body: MessagesBody; restorer: TokenRestorer | null }> {
  const mode: PrivacyMode = grant.key.privacy_mode;
  const outgoing: MessagesBody = { ...body, model: grant.route.upstream_model };
  if (mode === 'off') return { body: outgoing, restorer: null };
  const result = await traceStep(res, 'gateway.privacy', STEP_SPANS.privacy, () => applyKeyPrivacy(deps, outgoing, mode), describePrivacy(mode));
  attestation.privacy(result.counts);
  for (const [type, count] of Object.entries(result.counts)) deps.metrics.pii.inc({ type, mode }, count ?? 0);
  res.setHeader('x-gateway-privacy', mode);
  res.setHeader('x-gateway-pii', formatPiiHeader(result.counts));
  return { body: result.body as MessagesBody, restorer: result.restorer };
}

/** Hands the exchange to the stub or the upstream, tracking it so revocation and disconnects can cut it. */
async function forward(deps: ProxyDeps, x: Exchange, startedAt: number): Promise<ExchangeResult> {
  const controller = x.signal;
  const onClose = (): void => {
    if (!x.res.writableFinished) controller.abort();
  };
  x.res.on('close', onClose);
  // The client may have left while the request was being decided or scanned: its close event is already past.
  if (x.res.destroyed || x.req.socket.destroyed) controller.abort();
  const k = x.grant.key;
  const lease = x.grant.lease_id === '' ? null : { lease_id: x.grant.lease_id, account_id: k.account_id, environment: k.environment, key_id: k.key_id };
  deps.inflight.add(x.requestId, k.key_id, lease, controller);
  deps.metrics.inflight.inc({ environment: k.environment });
  if (x.stream) watchFirstToken(deps, x.res as Response, x.grant.model, startedAt);
  try {
    if (controller.aborted) {
      // Nothing was forwarded, so nothing is billed.
      const reason = abortReason(controller);
      return { usage: zeroUsage(), outcome: reason === undefined ? 'client_disconnect' : 'revoked', ...(reason === undefined ? {} : { error: reason }) };
    }
    const responder = x.grant.key.environment === 'test' ? deps.stub : deps.upstream;
    return await responder.respond(x);
  } catch (err) {
    return { usage: zeroUsage(), outcome: 'error', error: asGatewayError(err) };
  } finally {
    deps.metrics.inflight.dec({ environment: k.environment });
    deps.inflight.remove(x.requestId);
    x.res.off('close', onClose);
  }
}

/**
 * Every admitted request is reported once: usage to the ledger, lease back to the pool. The report is written
 * to the policy stream before this returns, without waiting for its answer: the stream is ordered, so the lease
 * is free before this proxy's next decision is evaluated, and a report the policy service does not take is
 * spooled and replayed (applied once by request id).
 */
/** A Grant without evidence: its regions are the catalogue's declaration (a policy service that predates the field). */
const DECLARED: RouteEvidence = { regions_basis: 'declared', evidence_unix_ms: 0, evidence_sha256: '' };

function report(deps: ProxyDeps, res: Response, caller: Caller, requestId: string, decisionId: string, grant: Grant, result: ExchangeResult): void {
  const u = result.usage;
  const route = result.route ?? grant.route;
  const env = grant.key.environment;
  deps.metrics.tokens.inc({ model: grant.model, kind: 'input', environment: env }, u.input_tokens);
  deps.metrics.tokens.inc({ model: grant.model, kind: 'output', environment: env }, u.output_tokens);
  deps.metrics.tokens.inc({ model: grant.model, kind: 'cache_write', environment: env }, u.cache_creation_input_tokens);
  deps.metrics.tokens.inc({ model: grant.model, kind: 'cache_read', environment: env }, u.cache_read_input_tokens);
  // Sent with the request's trace context: the policy service's report and ledger spans join the request's trace.
  void deps.reporter.report({
    request_id: requestId,
    decision_id: decisionId,
    key_id: grant.key.key_id,
    account_id: grant.key.account_id,
    environment: env,
    model: grant.model,
    usage: u,
    lease_id: grant.lease_id,
    reserved_units: grant.reserved_units,
    outcome: result.outcome,
    finished_unix_ms: Date.now(),
    residency: grant.key.residency,
    // The route that served (or, when none did, the last one tried): the record of processing names it.
    call_region: route.call_region,
    processing_regions: route.processing_regions,
    evidence: (result.route === undefined ? grant.evidence : route.evidence) ?? DECLARED,
    platform: result.platform ?? '',
  }, caller.api_key, requestTraceparent(res));
}
