import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { UpstreamBodyTimeoutError, UpstreamError, UpstreamHeadersTimeoutError, type GatewayError } from '@gateway/shared';
import { abortReason, type Exchange, type ExchangeResult, type Responder } from '../../exchange.js';
import { parseMessage, writeMessageJson } from '../../relay/message-json.js';
import { SseRelay, type StreamEvent } from '../../relay/sse-relay.js';
import { UsageTap } from '../../relay/usage-tap.js';
import { estimateTokens, requestText } from '../../token-estimate.js';
import { meteredUsage } from '../metering.js';
import { readBounded } from '../read-body.js';
import { errorFromUpstreamNetwork } from '../upstream-errors.js';
import { errorFromBedrockException, errorFromBedrockStatus } from './bedrock-errors.js';
import { bedrockBody, BedrockSigner } from './bedrock-request.js';
import { EventStreamFrames } from './event-stream-frames.js';

export const DEFAULT_BEDROCK_URL = 'https://bedrock-runtime.{region}.amazonaws.com';

export interface BedrockUpstreamOptions {
  /** endpoint base; `{region}` is replaced by the route's call region */
  url: string;
  /** a Bedrock API key to send as a bearer token; SigV4 with the AWS credential chain when absent */
  bearerToken: string | undefined;
  timeoutMs: number;
}

/**
 * Live keys to AWS Bedrock: InvokeModel(WithResponseStream) in the call region, signed with SigV4; the binary
 * event stream decoded (CRC-checked) and re-emitted as the vendor's SSE, exception frames as `event: error`.
 */
export class BedrockUpstream implements Responder {
  private readonly signer: BedrockSigner;
  private readonly agent: HttpAgent | HttpsAgent;

  constructor(private readonly o: BedrockUpstreamOptions) {
    this.signer = new BedrockSigner(o.bearerToken);
    this.agent = o.url.startsWith('https:') ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  }

  async countTokens(body: Record<string, unknown>): Promise<number> {
    // Bedrock's InvokeModel has no token-counting call; the gateway's estimate is what there is.
    return Math.max(1, estimateTokens(requestText(body)));
  }

  async respond(x: Exchange): Promise<ExchangeResult> {
    const region = x.grant.route.call_region;
    const base = this.o.url.replaceAll('{region}', region).replace(/\/+$/, '');
    const op = x.stream ? 'invoke-with-response-stream' : 'invoke';
    const url = new URL(`${base}/model/${encodeURIComponent(x.grant.route.upstream_model)}/${op}`);
    const body = bedrockBody(x.body, x.req.headers['anthropic-beta']);
    const signed = await this.signer.sign(url, region, body, x.stream ? 'application/vnd.amazon.eventstream' : 'application/json');
    return new Call(x, this.o.timeoutMs).run(signed.url, signed.headers, body, this.agent);
  }
}

/** One InvokeModel call: its timers, its abort, its metering. */
class Call {
  private tap = new UsageTap();
  private req: ClientRequest | undefined;
  private res: IncomingMessage | undefined;
  private timer: NodeJS.Timeout | undefined;
  private done = false;
  private resolve!: (r: ExchangeResult) => void;

  constructor(private readonly x: Exchange, private readonly timeoutMs: number) {}

  run(url: URL, headers: Record<string, string>, body: Buffer, agent: HttpAgent | HttpsAgent): Promise<ExchangeResult> {
    return new Promise((resolve) => {
      this.resolve = resolve;
      const onAbort = (): void => {
        const reason = abortReason(this.x.signal);
        // Billed only if the request had gone out (an abort during signing bills nothing).
        this.finish({ usage: meteredUsage(this.tap, this.x.body, this.req !== undefined), outcome: reason === undefined ? 'client_disconnect' : 'revoked', ...(reason === undefined ? {} : { error: reason }) });
      };
      if (this.x.signal.aborted) return onAbort();
      this.x.signal.addEventListener('abort', onAbort, { once: true });
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      this.arm(() => this.fail(new UpstreamHeadersTimeoutError(), false));
      this.req = send(url, { method: 'POST', headers, agent }, (res) => this.onResponse(res));
      this.req.on('error', (err) => this.fail(errorFromUpstreamNetwork(err), this.res !== undefined));
      this.req.end(body);
    });
  }

  private onResponse(res: IncomingMessage): void {
    this.res = res;
    const status = res.statusCode ?? 502;
    if (status !== 200) {
      const errorType = String(res.headers['x-amzn-errortype'] ?? '');
      void readBounded(res, 1024 * 1024).then(
        (text) => this.fail(errorFromBedrockStatus(status, errorType, text), false),
        () => this.fail(errorFromBedrockStatus(status, errorType, ''), false),
      );
      return;
    }
    if (this.x.stream) this.relayStream(res);
    else this.relayJson(res);
  }

  private relayJson(res: IncomingMessage): void {
    this.arm(() => this.fail(new UpstreamBodyTimeoutError()));
    void readBounded(res, 64 * 1024 * 1024, () => this.arm(() => this.fail(new UpstreamBodyTimeoutError()))).then(
      (text) => {
        const message = parseMessage(text);
        if (message === undefined) {
          this.fail(new UpstreamError('The inference platform answered with something that is not a message.'));
          return;
        }
        this.tap.observeMessage(message);
        message['model'] = this.x.grant.model;
        writeMessageJson(this.x.res, message, this.x.restorer, this.x.requestId);
        this.finish({ usage: { ...this.tap.usage }, outcome: 'ok' });
      },
      () => this.fail(new UpstreamError('The inference platform connection broke before the message was complete.')),
    );
  }

  private relayStream(res: IncomingMessage): void {
    const relay = new SseRelay(this.x.res, this.x.restorer?.createStreamRestorer() ?? null);
    this.tap = relay.tap;
    relay.open();
    const frames = new EventStreamFrames();
    const idle = (): void => this.arm(() => this.fail(new UpstreamBodyTimeoutError()));
    idle();
    res.on('data', (chunk: Buffer) => {
      if (this.done) return;
      idle();
      let decoded;
      try {
        decoded = frames.push(chunk);
      } catch {
        return this.fail(new UpstreamError('The inference platform sent a corrupt event-stream frame.'));
      }
      for (const f of decoded) {
        if (f.messageType === 'exception' || f.messageType === 'error') {
          const message = exceptionMessage(f.payload);
          return this.fail(errorFromBedrockException(f.exceptionType ?? 'internalServerException', message));
        }
        if (f.messageType !== 'event' || f.eventType !== 'chunk') continue;
        const event = chunkEvent(f.payload);
        if (event === undefined) return this.fail(new UpstreamError('The inference platform sent a chunk that is not an event.'));
        this.relayEvent(relay, event);
      }
    });
    const end = (): void => {
      if (this.done) return;
      if (relay.tap.stopped) {
        this.finish({ usage: { ...relay.tap.usage }, outcome: 'ok' });
        return;
      }
      this.fail(new UpstreamError('The inference platform connection was lost mid-stream.'));
    };
    res.on('end', end);
    res.on('close', end);
    res.on('error', end);
  }

  /** The vendor event inside a Bedrock chunk; Bedrock's own metrics are read and not passed on. */
  private relayEvent(relay: SseRelay, event: { parsed: StreamEvent; raw: string }): void {
    const metrics = event.parsed['amazon-bedrock-invocationMetrics'] as { inputTokenCount?: number; outputTokenCount?: number } | undefined;
    if (metrics !== undefined) {
      delete event.parsed['amazon-bedrock-invocationMetrics'];
      if (!this.tap.reported) {
        this.tap.observe({ type: 'message_delta', usage: { input_tokens: metrics.inputTokenCount, output_tokens: metrics.outputTokenCount } });
      }
      relay.send(event.parsed);
      return;
    }
    if (event.parsed.type === 'message_start') {
      const message = event.parsed['message'] as Record<string, unknown> | undefined;
      if (message !== undefined) message['model'] = this.x.grant.model;
      relay.send(event.parsed);
      return;
    }
    relay.send(event.parsed, event.raw);
  }

  private arm(onTimeout: () => void): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(onTimeout, this.timeoutMs);
  }

  private fail(error: GatewayError, processed = true): void {
    this.finish({ usage: meteredUsage(this.tap, this.x.body, processed), outcome: 'upstream_error', error });
  }

  private finish(r: ExchangeResult): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    this.req?.destroy();
    this.res?.destroy();
    this.resolve(r);
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
