import { setTimeout as sleep } from 'node:timers/promises';
import {
  GatewayError,
  InvalidRequestError,
  OverloadedError,
  QuotaExceededError,
  RateLimitError,
  UpstreamHeadersTimeoutError,
  newMessageId,
} from '@gateway/shared';
import { abortReason, type CountContext, type Exchange, type ExchangeResult, type Responder } from '../exchange.js';
import type { TestScenario } from '../http/request-headers.js';
import { SseRelay } from '../relay/sse-relay.js';
import { writeMessageJson } from '../relay/message-json.js';
import { estimateTokens, requestText } from '../token-estimate.js';
import { buildStubReply, groupPieces, type StubReply } from './stub-reply.js';

const SLOW_DELTAS = 25;
const SLOW_GAP_MS = 200;

/** The error each error scenario answers with, exactly as the live path would send it. */
function scenarioError(s: TestScenario): GatewayError | undefined {
  switch (s) {
    case 'invalid_request_error':
      return new InvalidRequestError('Test scenario: the request was invalid.');
    case 'rate_limit_error':
      return new RateLimitError('Test scenario: rate limit exceeded.', 1);
    case 'quota_exceeded':
      return new QuotaExceededError('Test scenario: token allowance used for this billing period.');
    case 'api_error':
      return new GatewayError('test_scenario', 500, 'api_error', 'Test scenario: internal server error.', true);
    case 'overloaded_error':
      return new OverloadedError('Test scenario: overloaded.');
    case 'timeout_error':
      return new UpstreamHeadersTimeoutError('Test scenario: the upstream did not answer in time.');
    default:
      return undefined;
  }
}

/** Test keys: a deterministic answer of the real shape, produced inside the gateway; nothing reaches a model. */
export class StubResponder implements Responder {
  async respond(x: Exchange): Promise<ExchangeResult> {
    // What a live call would send is what the stub answers: its digest is attested, error scenarios included.
    x.attestation.forwarded(JSON.stringify(x.body));
    // A live failover rehearsed: the first route answers 503 (nothing generated), the route loop moves on; a tier
    // with one route answers its error as a live one would (503 → 529 overloaded_error), never another tier's.
    if (x.scenario === 'failover' && (x.attempt ?? 0) === 0) {
      return {
        usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        outcome: 'upstream_error',
        error: new OverloadedError('Test scenario: the route is unavailable (HTTP 503).'),
        failure: { outcome: 'unavailable', retryable: true },
      };
    }
    const error = x.scenario === undefined ? undefined : scenarioError(x.scenario);
    if (error !== undefined) throw error;
    x.attestation.attach(x.res, 200);
    const reply = buildStubReply(x.grant.model, x.body, x.body.max_tokens);
    if (!x.stream) return this.respondJson(x, reply);
    return this.respondStream(x, reply);
  }

  async countTokens(body: Record<string, unknown>, c: CountContext): Promise<number> {
    c.attestation.forwarded(JSON.stringify(body));
    return Math.max(1, estimateTokens(requestText(body)));
  }

  private async respondJson(x: Exchange, reply: StubReply): Promise<ExchangeResult> {
    // Stream scenarios on a non-streamed request: the failure as one error, the slowness as one wait.
    if (x.scenario === 'mid_stream_error') throw new OverloadedError('Test scenario: overloaded mid-stream.');
    if (x.scenario === 'slow_stream') {
      try {
        await sleep(SLOW_DELTAS * SLOW_GAP_MS, undefined, { signal: x.signal.asSignal() });
      } catch {
        return { usage: { input_tokens: reply.inputTokens, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }, outcome: 'client_disconnect', ...errorOf(x) };
      }
    }
    const usage = { input_tokens: reply.inputTokens, output_tokens: reply.outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    writeMessageJson(x.res, {
      id: newMessageId(),
      type: 'message',
      role: 'assistant',
      model: x.grant.model,
      content: [{ type: 'text', text: reply.text }],
      stop_reason: reply.stopReason,
      stop_sequence: null,
      usage,
    }, x.restorer, x.requestId);
    return { usage, outcome: 'ok' };
  }

  private async respondStream(x: Exchange, reply: StubReply): Promise<ExchangeResult> {
    const relay = new SseRelay(x.res, x.restorer?.createStreamRestorer() ?? null);
    relay.open();
    relay.send({
      type: 'message_start',
      message: {
        id: newMessageId(),
        type: 'message',
        role: 'assistant',
        model: x.grant.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: reply.inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
      },
    });
    relay.send({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    relay.send({ type: 'ping' });

    const usageSoFar = (pieces: number) => ({
      input_tokens: reply.inputTokens,
      output_tokens: Math.min(reply.outputTokens, pieces),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
    const slow = x.scenario === 'slow_stream';
    const midError = x.scenario === 'mid_stream_error';
    const deltas = slow ? groupPieces([...reply.text], SLOW_DELTAS) : groupPieces(reply.pieces, Math.ceil(reply.pieces.length / 2));
    let sentPieces = 0;
    for (let i = 0; i < deltas.length; i += 1) {
      // some deltas (three, or every one there is), then the error
      if (midError && i === 3) break;
      if (slow) {
        try {
          await sleep(SLOW_GAP_MS, undefined, { signal: x.signal.asSignal() });
        } catch {
          break;
        }
      }
      if (x.signal.aborted || relay.closed) break;
      const text = deltas[i] as string;
      sentPieces += (text.match(/\S+\s*|\s+/g) ?? []).length;
      relay.send({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });
    }
    const usage = usageSoFar(sentPieces);
    if (midError && !x.signal.aborted) return { usage, outcome: 'upstream_error', error: new OverloadedError('Overloaded') };
    if (x.signal.aborted || relay.closed) return { usage, outcome: abortReason(x.signal) === undefined ? 'client_disconnect' : 'revoked', ...errorOf(x) };
    relay.send({ type: 'content_block_stop', index: 0 });
    relay.send({
      type: 'message_delta',
      delta: { stop_reason: reply.stopReason, stop_sequence: null },
      usage: { output_tokens: reply.outputTokens },
    });
    relay.send({ type: 'message_stop' });
    return { usage: { ...usage, output_tokens: reply.outputTokens }, outcome: 'ok' };
  }
}

/** The abort's error (a revocation), if it has one to send. */
function errorOf(x: Exchange): { error?: GatewayError } {
  const reason = abortReason(x.signal);
  return reason === undefined ? {} : { error: reason };
}

