import { Agent as HttpAgent, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Readable } from 'node:stream';
import { createProxyServer } from 'http-proxy-3';
import {
  GatewayError,
  UpstreamBodyTimeoutError,
  UpstreamError,
  UpstreamHeadersTimeoutError,
  type Logger,
} from '@gateway/shared';
import { abortReason, type CountContext, type Exchange, type ExchangeResult, type Responder } from '../exchange.js';
import { parseMessage, writeMessageJson } from '../relay/message-json.js';
import { SseRelay } from '../relay/sse-relay.js';
import { UsageTap } from '../relay/usage-tap.js';
import { meteredUsage } from './metering.js';
import { readBounded } from './read-body.js';
import { errorFromUpstreamNetwork, errorFromUpstreamStatus } from './upstream-errors.js';
import { UpstreamSseReader } from './upstream-stream.js';

const MAX_JSON_BYTES = 64 * 1024 * 1024;

export interface MessagesUpstreamOptions {
  /** base URL ending in /v1; `{region}` is replaced by the route's call region */
  url: string;
  apiKey: string | undefined;
  timeoutMs: number;
  log: Logger;
}

/** Per-request state the proxy server's events need. */
interface Flight {
  x: Exchange;
  body: Buffer;
  settle: (r: ExchangeResult) => void;
  upstreamReq?: ClientRequest;
  upstreamRes?: IncomingMessage;
  headersTimer?: NodeJS.Timeout;
  idleTimer?: NodeJS.Timeout;
  tap: UsageTap;
  done: boolean;
}

/**
 * Live keys to a Messages-API upstream, forwarded with http-proxy-3: the rewritten body, the gateway's own
 * credential, the version and beta headers; the response streamed back as it arrives while its usage is read.
 */
export class MessagesUpstream implements Responder {
  private readonly proxy;
  private readonly flights = new WeakMap<IncomingMessage, Flight>();

  constructor(private readonly o: MessagesUpstreamOptions) {
    const https = o.url.startsWith('https:');
    this.proxy = createProxyServer({
      selfHandleResponse: true,
      changeOrigin: true,
      ignorePath: true,
      xfwd: false,
      agent: https ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true }),
    });
    this.proxy.on('proxyReq', (proxyReq, req) => this.onProxyReq(proxyReq, req));
    this.proxy.on('proxyRes', (proxyRes, req) => this.onProxyRes(proxyRes, req));
  }

  targetUrl(region: string, path: string, beta: boolean): string {
    return `${this.o.url.replaceAll('{region}', region).replace(/\/+$/, '')}${path}${beta ? '?beta=true' : ''}`;
  }

  respond(x: Exchange): Promise<ExchangeResult> {
    return new Promise((resolve) => {
      const flight: Flight = { x, body: Buffer.from(JSON.stringify(x.body)), settle: resolve, tap: new UsageTap(), done: false };
      this.flights.set(x.req, flight);
      const onAbort = (): void => this.abort(flight);
      x.signal.addEventListener('abort', onAbort, { once: true });
      // Settles once; then stops the upstream. Marking done first matters: destroying the upstream can emit its
      // close synchronously, and that must not be taken for a lost connection.
      flight.settle = (r) => {
        if (flight.done) return;
        flight.done = true;
        clearTimeout(flight.headersTimer);
        clearTimeout(flight.idleTimer);
        x.signal.removeEventListener('abort', onAbort);
        resolve(r);
        flight.upstreamReq?.destroy();
        flight.upstreamRes?.destroy();
      };
      // No answer at all in time: nothing was reported or seen, so nothing is billed.
      flight.headersTimer = setTimeout(() => this.fail(flight, new UpstreamHeadersTimeoutError(), false), this.o.timeoutMs);
      const beta = (x.req.url ?? '').includes('beta=true');
      this.proxy.web(x.req, x.res, {
        target: this.targetUrl(x.grant.route.call_region, '/messages', beta),
        buffer: Readable.from([flight.body]),
      }, (err) => this.fail(flight, errorFromUpstreamNetwork(err), flight.upstreamRes !== undefined));
    });
  }

  async countTokens(body: Record<string, unknown>, c: CountContext): Promise<number> {
    const res = await fetch(this.targetUrl(c.grant.route.call_region, '/messages/count_tokens', false), {
      method: 'POST',
      headers: this.upstreamHeaders(c.apiVersion, c.req.headers['anthropic-beta']),
      body: JSON.stringify(body),
      signal: AbortSignal.any([c.signal, AbortSignal.timeout(this.o.timeoutMs)]),
    }).catch((err: unknown) => {
      throw (err as Error).name === 'TimeoutError' ? new UpstreamHeadersTimeoutError() : errorFromUpstreamNetwork(err);
    });
    const text = await res.text();
    if (res.status !== 200) throw errorFromUpstreamStatus(res.status, text);
    // Never JSON.parse's own error: its message quotes the text, which is the upstream's and untrusted.
    let n: unknown;
    try {
      n = (JSON.parse(text) as { input_tokens?: unknown } | null)?.input_tokens;
    } catch {
      n = undefined;
    }
    if (typeof n !== 'number') throw new UpstreamError('The upstream answered count_tokens without input_tokens.');
    return n;
  }

  private upstreamHeaders(apiVersion: string, beta: string | string[] | undefined): Record<string, string> {
    const h: Record<string, string> = { 'content-type': 'application/json', 'anthropic-version': apiVersion, 'accept-encoding': 'identity' };
    if (this.o.apiKey !== undefined) h['x-api-key'] = this.o.apiKey;
    if (beta !== undefined) h['anthropic-beta'] = Array.isArray(beta) ? beta.join(',') : beta;
    return h;
  }

  /** The outgoing request carries only what the upstream needs: never the client's credentials. */
  private onProxyReq(proxyReq: ClientRequest, req: IncomingMessage): void {
    const flight = this.flights.get(req);
    if (flight === undefined) return;
    flight.upstreamReq = proxyReq;
    for (const name of proxyReq.getHeaderNames()) {
      if (name !== 'host') proxyReq.removeHeader(name);
    }
    for (const [k, v] of Object.entries(this.upstreamHeaders(flight.x.apiVersion, req.headers['anthropic-beta']))) proxyReq.setHeader(k, v);
    proxyReq.setHeader('content-length', flight.body.length);
    if (flight.x.signal.aborted) proxyReq.destroy();
  }

  private onProxyRes(res: IncomingMessage, req: IncomingMessage): void {
    const flight = this.flights.get(req);
    if (flight === undefined || flight.done) {
      res.destroy();
      return;
    }
    clearTimeout(flight.headersTimer);
    flight.upstreamRes = res;
    const status = res.statusCode ?? 502;
    const type = String(res.headers['content-type'] ?? '');
    if (status !== 200) {
      void readBounded(res, 1024 * 1024).then(
        (text) => this.fail(flight, errorFromUpstreamStatus(status, text), false),
        () => this.fail(flight, errorFromUpstreamStatus(status, ''), false),
      );
      return;
    }
    if (type.startsWith('text/event-stream')) this.relayStream(flight, res);
    else this.relayJson(flight, res);
  }

  private relayJson(flight: Flight, res: IncomingMessage): void {
    this.armIdle(flight);
    void readBounded(res, MAX_JSON_BYTES, () => this.armIdle(flight)).then(
      (text) => {
        const message = parseMessage(text);
        if (message === undefined) {
          this.fail(flight, new UpstreamError('The upstream answered with something that is not a message.'));
          return;
        }
        flight.tap.observeMessage(message);
        message['model'] = flight.x.grant.model;
        writeMessageJson(flight.x.res, message, flight.x.restorer, flight.x.requestId);
        flight.settle({ usage: flight.tap.usage, outcome: 'ok' });
      },
      () => this.fail(flight, new UpstreamError('The upstream connection broke before the message was complete.')),
    );
  }

  private relayStream(flight: Flight, res: IncomingMessage): void {
    const x = flight.x;
    const relay = new SseRelay(x.res, x.restorer?.createStreamRestorer() ?? null);
    flight.tap = relay.tap;
    relay.open();
    const reader = new UpstreamSseReader(relay, x.grant.model);
    this.armIdle(flight);
    res.on('data', (chunk: Buffer) => {
      this.armIdle(flight);
      reader.feed(chunk);
      if (reader.garbage) this.fail(flight, new UpstreamError('The upstream sent a malformed event stream.'));
    });
    const finish = (): void => {
      if (flight.done) return;
      if (relay.tap.stopped || reader.sawError) {
        flight.settle({ usage: this.meteredUsage(flight), outcome: reader.sawError ? 'upstream_error' : 'ok' });
        return;
      }
      this.fail(flight, new UpstreamError('The upstream connection was lost mid-stream.'));
    };
    res.on('end', finish);
    res.on('aborted', finish);
    res.on('error', finish);
    res.on('close', finish);
  }

  private armIdle(flight: Flight): void {
    clearTimeout(flight.idleTimer);
    flight.idleTimer = setTimeout(() => this.fail(flight, new UpstreamBodyTimeoutError()), this.o.timeoutMs);
  }

  /** The client left or the key was revoked: stop the upstream at once and meter what was generated. */
  private abort(flight: Flight): void {
    const reason = abortReason(flight.x.signal);
    flight.settle({
      usage: this.meteredUsage(flight, flight.upstreamReq !== undefined),
      outcome: reason === undefined ? 'client_disconnect' : 'revoked',
      ...(reason === undefined ? {} : { error: reason }),
    });
  }

  /** `processed`: the upstream accepted the request (it failed later), so what it used is metered. */
  private fail(flight: Flight, error: GatewayError, processed = true): void {
    if (flight.done) return;
    // The client went away first (http-proxy-3 then drops the upstream too): that is a disconnect, not a failure.
    if (flight.x.signal.aborted || flight.x.res.destroyed) return this.abort(flight);
    flight.settle({ usage: this.meteredUsage(flight, processed), outcome: 'upstream_error', error });
  }

  private meteredUsage(flight: Flight, processed = true) {
    return meteredUsage(flight.tap, flight.x.body, processed);
  }
}
