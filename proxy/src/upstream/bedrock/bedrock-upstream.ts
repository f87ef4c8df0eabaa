import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { UpstreamError, type GatewayError } from '@gateway/shared';
import type { Exchange, ExchangeResult, Responder } from '../../exchange.js';
import type { SseRelay, StreamEvent } from '../../relay/sse-relay.js';
import { estimateTokens, requestText } from '../../token-estimate.js';
import { UpstreamCall, type PlatformAdapter, type StreamDecoder, type UpstreamRequest } from '../upstream-call.js';
import { errorFromBedrockException, errorFromBedrockStatus, isThrottlingException } from './bedrock-errors.js';
import { bedrockBody, BedrockSigner } from './bedrock-request.js';
import { EventStreamFrames } from './event-stream-frames.js';

export const DEFAULT_BEDROCK_URL = 'https://bedrock-runtime.{region}.amazonaws.com';

export interface BedrockUpstreamOptions {
  /** endpoint base; `{region}` is replaced by the route's call region */
  url: string;
  /** a Bedrock API key to send as a bearer token; SigV4 with the AWS credential chain when absent */
  bearerToken: string | undefined;
  /** a named profile of the shared AWS config for SigV4; unset: the standard credential chain */
  awsProfile?: string | undefined;
  timeoutMs: number;
  /** a stream's limit for its first event; unset: only timeoutMs */
  firstEventTimeoutMs?: number;
  /** signing or a token fetch (UPSTREAM_CONNECT_TIMEOUT_MS) */
  connectTimeoutMs?: number;
  client: Dispatcher;
}

/**
 * Live keys to AWS Bedrock: InvokeModel(WithResponseStream) in the call region, signed with SigV4; the binary
 * event stream decoded (CRC-checked) and re-emitted as the vendor's SSE, exception frames as `event: error`.
 */
export class BedrockUpstream implements Responder {
  private readonly adapter: BedrockAdapter;

  constructor(private readonly o: BedrockUpstreamOptions) {
    this.adapter = new BedrockAdapter(o.url, new BedrockSigner(o.bearerToken, o.awsProfile));
  }

  async countTokens(body: Record<string, unknown>): Promise<number> {
    // Bedrock's InvokeModel has no token-counting call; the gateway's estimate is what there is.
    return Math.max(1, estimateTokens(requestText(body)));
  }

  respond(x: Exchange): Promise<ExchangeResult> {
    return new UpstreamCall(x, this.o.client, this.adapter, this.o.timeoutMs, this.o.firstEventTimeoutMs, this.o.connectTimeoutMs).run();
  }
}

class BedrockAdapter implements PlatformAdapter {
  readonly provider = 'aws.bedrock';
  constructor(private readonly urlTemplate: string, private readonly signer: BedrockSigner) {}

  async build(x: Exchange): Promise<UpstreamRequest> {
    const region = x.grant.route.call_region;
    const base = this.urlTemplate.replaceAll('{region}', region).replace(/\/+$/, '');
    const op = x.stream ? 'invoke-with-response-stream' : 'invoke';
    const url = new URL(`${base}/model/${encodeURIComponent(x.grant.route.upstream_model)}/${op}`);
    const body = bedrockBody(x.body, x.req.headers['anthropic-beta']);
    const signed = await this.signer.sign(url, region, body, x.stream ? 'application/vnd.amazon.eventstream' : 'application/json');
    return { origin: url.origin, path: `${url.pathname}${url.search}`, headers: signed.headers, body };
  }

  streams(x: Exchange): boolean {
    return x.stream;
  }

  decoder(relay: SseRelay, x: Exchange): StreamDecoder {
    return new BedrockStreamDecoder(relay, x.grant.model);
  }

  errorFromStatus(status: number, headers: IncomingHttpHeaders, body: string): GatewayError {
    return errorFromBedrockStatus(status, String(headers['x-amzn-errortype'] ?? ''), body);
  }
}

/** Bedrock's binary event-stream frames as the vendor's SSE; an exception frame ends the call with its error. */
class BedrockStreamDecoder implements StreamDecoder {
  private readonly frames = new EventStreamFrames();
  readonly sawError = false;
  throttled = false;

  constructor(private readonly relay: SseRelay, private readonly alias: string) {}

  feed(chunk: Buffer): GatewayError | undefined {
    let decoded;
    try {
      decoded = this.frames.push(chunk);
    } catch {
      return new UpstreamError('The inference platform sent a corrupt event-stream frame.');
    }
    for (const f of decoded) {
      if (f.messageType === 'exception' || f.messageType === 'error') {
        this.throttled = isThrottlingException(f.exceptionType ?? '');
        return errorFromBedrockException(f.exceptionType ?? 'internalServerException', exceptionMessage(f.payload));
      }
      if (f.messageType !== 'event' || f.eventType !== 'chunk') continue;
      const event = chunkEvent(f.payload);
      if (event === undefined) return new UpstreamError('The inference platform sent a chunk that is not an event.');
      this.relayEvent(event);
    }
    return undefined;
  }

  /** The vendor event inside a Bedrock chunk; Bedrock's own metrics are read and not passed on. */
  private relayEvent(event: { parsed: StreamEvent; raw: string }): void {
    const relay = this.relay;
    const metrics = event.parsed['amazon-bedrock-invocationMetrics'] as { inputTokenCount?: number; outputTokenCount?: number } | undefined;
    if (metrics !== undefined) {
      delete event.parsed['amazon-bedrock-invocationMetrics'];
      if (!relay.tap.reported) {
        relay.tap.observe({ type: 'message_delta', usage: { input_tokens: metrics.inputTokenCount, output_tokens: metrics.outputTokenCount } });
      }
      relay.send(event.parsed);
      return;
    }
    if (event.parsed.type === 'message_start') {
      const message = event.parsed['message'] as Record<string, unknown> | undefined;
      if (message !== undefined) message['model'] = this.alias;
      relay.send(event.parsed);
      return;
    }
    relay.send(event.parsed, event.raw);
  }
}

function chunkEvent(payload: Uint8Array): { parsed: StreamEvent; raw: string } | undefined {
  try {
    const wrapper = JSON.parse(Buffer.from(payload).toString('utf8')) as { bytes?: unknown };
    if (typeof wrapper.bytes !== 'string') return undefined;
    const raw = Buffer.from(wrapper.bytes, 'base64').toString('utf8');
    const parsed = JSON.parse(raw) as StreamEvent;
    return typeof parsed.type === 'string' ? { parsed, raw } : undefined;
  } catch {
    return undefined;
  }
}

function exceptionMessage(payload: Uint8Array): string {
  try {
    const m = JSON.parse(Buffer.from(payload).toString('utf8')) as { message?: unknown };
    return typeof m.message === 'string' ? m.message : '';
  } catch {
    return '';
  }
}
