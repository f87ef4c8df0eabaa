import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import {
  UpstreamBodyTimeoutError,
  UpstreamConnectError,
  UpstreamError,
  UpstreamHeadersTimeoutError,
  type GatewayError,
} from '@gateway/shared';
import { abortReason, type Exchange, type ExchangeResult } from '../exchange.js';
import { parseMessage, writeJson, writeMessageJson } from '../relay/message-json.js';
import { replaceTopLevelString } from '../relay/top-level-string.js';
import { SseRelay } from '../relay/sse-relay.js';
import { UsageTap } from '../relay/usage-tap.js';
import { failureOfEarlyStreamError, failureOfNetwork, failureOfStatus, type AttemptFailure } from './attempt-outcome.js';
import { startAttemptSpan, type AttemptSpan, type GenAiProvider } from '../tracing/attempt-span.js';
import { meteredUsage } from './metering.js';
import { errorFromUpstreamNetwork } from './upstream-errors.js';

/** The largest non-streamed Message the gateway buffers (the vendor's are far smaller). */
const MAX_JSON_BYTES = 64 * 1024 * 1024;
/** How much of an error answer is read to find the vendor's message. */
const MAX_ERROR_BYTES = 1024 * 1024;

/** One request to the upstream, as an adapter builds it. */
export interface UpstreamRequest {
  origin: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | string;
}

/** Turns a streamed 200 answer's bytes into the vendor's SSE on the relay. */
export interface StreamDecoder {
  /** Relays what the chunk completes; returns the error that ends the call, if the chunk is not what was expected. */
  feed(chunk: Buffer): GatewayError | undefined;
  /** The upstream sent (and the decoder relayed) an error event of its own: the stream ends as upstream_error. */
  readonly sawError: boolean;
  /**
   * The error `feed` returned is the platform throttling (Bedrock's throttlingException frame): before
   * `message_start` it skips the route like a 429 rather than counting towards opening it.
   */
  readonly throttled?: boolean;
}

/** What differs between platforms: building the request, decoding a chunk, mapping a status. */
export interface PlatformAdapter {
  /** gen_ai.provider.name on the attempt's span; absent: 'anthropic' (the vendor's own Messages API). */
  readonly provider?: GenAiProvider;
  build(x: Exchange): UpstreamRequest | Promise<UpstreamRequest>;
  /** Whether a 200 answer is an event stream (else a whole Message). */
  streams(x: Exchange, headers: IncomingHttpHeaders): boolean;
  decoder(relay: SseRelay, x: Exchange): StreamDecoder;
  errorFromStatus(status: number, headers: IncomingHttpHeaders, body: string): GatewayError;
}

type Phase = 'before' | 'error' | 'json' | 'stream';

/** The upstream's credentials (a signature's or a token's) did not come within the connect limit. */
export class CredentialsTimeoutError extends UpstreamConnectError {
  constructor() {
    super('The upstream\'s credentials did not come in time.');
  }
}

/**
 * `p`, or a CredentialsTimeoutError once `ms` pass first. Getting credentials (a token from a metadata server or a
 * token endpoint, an SSO or instance-role refresh) is part of connecting, and the libraries that do it may wait
 * without limit (Google's on GCP does): held to UPSTREAM_CONNECT_TIMEOUT_MS, a hanging one moves the request on
 * like an endpoint that does not answer.
 */
export function credentialsWithin<T>(p: Promise<T>, ms: number): Promise<T> {
  if (!Number.isFinite(ms)) return p;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new CredentialsTimeoutError()), ms);
    timer.unref();
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/**
 * One call to the upstream, from dispatch to settlement: the one lifecycle both platforms share. It owns the
 * timeouts (connect, headers and body-idle, each its own error: 502, 504, 504 — enforced by undici's dispatcher),
 * the abort (client gone or key revoked), the relay of the answer, and the metering of what the upstream
 * generated. It settles exactly once; after that it stops the upstream and ignores whatever else arrives.
 */
export class UpstreamCall implements Dispatcher.DispatchHandler {
  private tap = new UsageTap();
  private controller: Dispatcher.DispatchController | undefined;
  /** The request went out, so a later failure may have cost the upstream work. */
  private sent = false;
  private ended = false;
  private done = false;
  private phase: Phase = 'before';
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private chunks: Buffer[] = [];
  private size = 0;
  private decoder: StreamDecoder | undefined;
  private relay: SseRelay | undefined;
  private firstEventTimer: NodeJS.Timeout | undefined;
  /** when the request went out (performance.now()): a stream's first event is due firstEventTimeoutMs after it */
  private sentAt = 0;
  private attempt: AttemptSpan | undefined;
  private resolve: (r: ExchangeResult) => void = () => undefined;
  private readonly onAbort = (): void => this.abort();
  private readonly onDrain = (): void => this.controller?.resume();

  constructor(
    private readonly x: Exchange,
    private readonly dispatcher: Dispatcher,
    private readonly adapter: PlatformAdapter,
    private readonly timeoutMs: number,
    /** a stream's limit for its first event (`message_start`); Infinity: none beyond timeoutMs */
    private readonly firstEventTimeoutMs = Infinity,
    /** the limit for an adapter's asynchronous build (signing, a token fetch); Infinity: none */
    private readonly connectTimeoutMs = Infinity,
  ) {}

  run(): Promise<ExchangeResult> {
    return new Promise((resolve) => {
      this.resolve = resolve;
      if (this.x.signal.aborted) return this.abort();
      this.x.signal.onAbort(this.onAbort);
      let built: UpstreamRequest | Promise<UpstreamRequest>;
      try {
        built = this.adapter.build(this.x);
      } catch (err) {
        return this.fail(err instanceof Error && 'status' in err ? (err as GatewayError) : new UpstreamError('The upstream request could not be built.', { cause: err }), false, { outcome: 'client_error', retryable: false });
      }
      if (built instanceof Promise) {
        // Signing or a token fetch failed or hung: nothing left, and the next route has credentials of its own.
        credentialsWithin(built, this.connectTimeoutMs).then(
          (r) => this.dispatch(r),
          (err: unknown) => {
            if (err instanceof CredentialsTimeoutError) return this.fail(err, false, { outcome: 'timeout', retryable: true });
            this.fail(new UpstreamError('The upstream request could not be signed.', { cause: err }), false, { outcome: 'auth', retryable: true });
          },
        );
      } else this.dispatch(built);
    });
  }

  private dispatch(r: UpstreamRequest): void {
    if (this.done) return; // aborted while the request was being built
    this.sent = true;
    // Encoded once, here, so the digest the attestation signs is of exactly the bytes that leave (undici would
    // otherwise encode the string itself).
    const body = typeof r.body === 'string' ? Buffer.from(r.body) : r.body;
    this.x.attestation.forwarded(body);
    // A stream's headers come before its first event: they are held to the first-event limit too.
    const headersTimeout = this.x.stream ? Math.min(this.timeoutMs, this.firstEventTimeoutMs) : this.timeoutMs;
    this.sentAt = performance.now();
    this.attempt = startAttemptSpan(this.x, this.adapter.provider ?? 'anthropic', r.origin, r.headers);
    try {
      this.dispatcher.dispatch(
        { origin: r.origin, path: r.path, method: 'POST', headers: r.headers, body, headersTimeout, bodyTimeout: this.timeoutMs },
        this,
      );
    } catch (err) {
      this.onResponseError(undefined, err as Error);
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.done) controller.abort(new Error('settled'));
  }

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    this.controller = controller;
    if (this.done || status < 200) return;
    this.status = status;
    this.headers = headers;
    if (status !== 200) {
      this.phase = 'error';
      return;
    }
    this.begin(headers);
  }

  /**
   * The start of a 200 answer: a whole Message to buffer, or an event stream to relay. Nothing reaches the client
   * yet: a stream is committed to this route at its `message_start` (the relay sends status and headers then,
   * with the attestation signed for 200, normally while the upstream worked); until then another route may
   * still take the request.
   */
  private begin(headers: IncomingHttpHeaders): void {
    if (!this.adapter.streams(this.x, headers)) {
      this.phase = 'json';
      return;
    }
    this.phase = 'stream';
    const relay = new SseRelay(this.x.res, this.x.restorer?.createStreamRestorer() ?? null, () => {
      if (this.firstEventTimer !== undefined) clearTimeout(this.firstEventTimer);
      this.x.attestation.attach(this.x.res, 200);
    });
    this.relay = relay;
    this.tap = relay.tap;
    this.decoder = this.adapter.decoder(relay, this.x);
    if (Number.isFinite(this.firstEventTimeoutMs)) {
      // Counted from the request, not from the headers: slow headers then a slow first event are one wait.
      this.firstEventTimer = setTimeout(() => {
        this.fail(new UpstreamHeadersTimeoutError('The upstream sent no first event in time.'), false, { outcome: 'timeout', retryable: true });
      }, Math.max(0, this.firstEventTimeoutMs - (performance.now() - this.sentAt)));
    }
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.done) return;
    if (this.phase === 'stream') {
      const relay = this.relay as SseRelay;
      const error = (this.decoder as StreamDecoder).feed(chunk) ?? relay.errorBeforeStart;
      if (error !== undefined) {
        // Before message_start nothing was generated or sent: the next route may take the request.
        if (!relay.committed) return this.fail(error, false, failureOfEarlyStreamError(error, relay.throttledBeforeStart || this.decoder?.throttled === true));
        return this.fail(error);
      }
      // A client reading slower than the upstream writes: hold the upstream rather than buffer in memory.
      if (this.x.res.writableNeedDrain && !controller.paused) {
        controller.pause();
        this.x.res.once('drain', this.onDrain);
      }
      return;
    }
    this.size += chunk.length;
    const limit = this.phase === 'error' ? MAX_ERROR_BYTES : MAX_JSON_BYTES;
    if (this.size > limit) {
      if (this.phase === 'error') return this.fail(this.adapter.errorFromStatus(this.status, this.headers, ''), false, failureOfStatus(this.status, this.headers));
      return this.fail(new UpstreamError('The upstream answered with a message too large to relay.'));
    }
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.ended = true;
    if (this.done) return;
    if (this.phase === 'error') return this.fail(this.adapter.errorFromStatus(this.status, this.headers, this.bodyText()), false, failureOfStatus(this.status, this.headers));
    if (this.phase === 'json') return this.relayMessage(this.bodyText());
    const decoder = this.decoder as StreamDecoder;
    if (this.tap.stopped || decoder.sawError) {
      this.settle({ usage: this.metered(true), outcome: decoder.sawError ? 'upstream_error' : 'ok' });
      return;
    }
    this.fail(new UpstreamError('The upstream connection was lost mid-stream.'));
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, err: Error): void {
    this.ended = true;
    if (this.done) return;
    const code = (err as { code?: unknown }).code;
    if (code === 'UND_ERR_CONNECT_TIMEOUT') return this.fail(new UpstreamConnectError('Could not connect to the upstream in time.', { cause: err }), false, failureOfNetwork(err));
    // No answer at all in time: nothing was reported or seen, so nothing is billed. A non-streamed request the
    // upstream accepted may still be generating (and billing): it is not sent again. A stream without headers
    // has not started: the next route may take it.
    if (code === 'UND_ERR_HEADERS_TIMEOUT') return this.fail(new UpstreamHeadersTimeoutError(), false, { outcome: 'timeout', retryable: this.x.stream });
    if (code === 'UND_ERR_BODY_TIMEOUT') return this.fail(new UpstreamBodyTimeoutError());
    if (this.phase === 'before') return this.fail(errorFromUpstreamNetwork(err), false, failureOfNetwork(err));
    if (this.phase === 'error') return this.fail(this.adapter.errorFromStatus(this.status, this.headers, ''), false, failureOfStatus(this.status, this.headers));
    if (this.phase === 'json') return this.fail(new UpstreamError('The upstream connection broke before the message was complete.'));
    this.fail(new UpstreamError('The upstream connection was lost mid-stream.'));
  }

  private relayMessage(text: string): void {
    const message = parseMessage(text);
    if (message === undefined) return this.fail(new UpstreamError('The upstream answered with something that is not a message.'));
    this.tap.observeMessage(message);
    // A 200 answer starts only with its attestation on the response (normally signed while the upstream worked).
    this.x.attestation.attach(this.x.res, 200);
    // Nothing to restore: the upstream's own bytes go out with only `model` changed, not a second serialisation.
    const spliced = this.x.restorer === null ? replaceTopLevelString(text, 'model', this.x.grant.model) : undefined;
    if (spliced !== undefined) writeJson(this.x.res, spliced, this.x.requestId);
    else {
      message['model'] = this.x.grant.model;
      writeMessageJson(this.x.res, message, this.x.restorer, this.x.requestId);
    }
    this.settle({ usage: { ...this.tap.usage }, outcome: 'ok' });
  }

  private bodyText(): string {
    const text = Buffer.concat(this.chunks, Math.min(this.size, MAX_JSON_BYTES)).toString('utf8');
    this.chunks = [];
    return text;
  }

  /** The client left or the key was revoked: stop the upstream at once and meter what was generated. */
  private abort(): void {
    const reason = abortReason(this.x.signal);
    this.settle({
      usage: this.metered(this.sent),
      outcome: reason === undefined ? 'client_disconnect' : 'revoked',
      ...(reason === undefined ? {} : { error: reason }),
    });
  }

  /**
   * `processed`: the upstream accepted the request (it failed later), so what it used is metered. `failure`: how
   * the attempt failed; by default one the request does not move on from (the upstream may have worked on it).
   */
  private fail(error: GatewayError, processed = true, failure: AttemptFailure = { outcome: 'unavailable', retryable: false }): void {
    if (this.done) return;
    // The client went away first: that is a disconnect, not a failure.
    if (this.x.signal.aborted || this.x.res.destroyed) return this.abort();
    // Once anything reached the client the request belongs to this route, whatever the cause.
    const committed = this.x.res.headersSent;
    this.settle({ usage: this.metered(processed), outcome: 'upstream_error', error, failure: committed ? { ...failure, retryable: false } : failure });
  }

  private metered(processed: boolean) {
    return meteredUsage(this.tap, this.x.body, processed);
  }

  /** Settles once; then stops the upstream (its connection is dropped, not returned to the pool). */
  private settle(r: ExchangeResult): void {
    if (this.done) return;
    this.done = true;
    this.chunks = [];
    if (this.firstEventTimer !== undefined) clearTimeout(this.firstEventTimer);
    this.x.signal.offAbort(this.onAbort);
    this.x.res.off('drain', this.onDrain);
    this.attempt?.end(r, this.status);
    this.resolve(r);
    if (!this.ended) this.controller?.abort(new Error('the gateway settled the call'));
  }
}
