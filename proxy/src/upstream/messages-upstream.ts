import type { Dispatcher } from 'undici';
import type { CountContext, Exchange, ExchangeResult, Responder } from '../exchange.js';
import { MessagesAdapter } from './messages-adapter.js';
import { UpstreamCall } from './upstream-call.js';
import { postCountTokens } from './count-tokens-request.js';

export interface MessagesUpstreamOptions {
  /** base URL ending in /v1; `{region}` is replaced by the route's call region */
  url: string;
  apiKey: string | undefined;
  timeoutMs: number;
  /** a stream's limit for its first event; unset: only timeoutMs */
  firstEventTimeoutMs?: number;
  /** signing or a token fetch (UPSTREAM_CONNECT_TIMEOUT_MS) */
  connectTimeoutMs?: number;
  client: Dispatcher;
}

/** Live keys to a Messages-API upstream: each message one UpstreamCall; count_tokens a plain request. */
export class MessagesUpstream implements Responder {
  private readonly adapter: MessagesAdapter;

  constructor(private readonly o: MessagesUpstreamOptions) {
    this.adapter = new MessagesAdapter(o.url, o.apiKey);
  }

  respond(x: Exchange): Promise<ExchangeResult> {
    return new UpstreamCall(x, this.o.client, this.adapter, this.o.timeoutMs, this.o.firstEventTimeoutMs, this.o.connectTimeoutMs).run();
  }

  async countTokens(forwarded: Record<string, unknown>, c: CountContext): Promise<number> {
    const { origin, basePath } = this.adapter.endpoint(c.grant.route.call_region);
    const body = Buffer.from(JSON.stringify(forwarded));
    c.attestation.forwarded(body);
    return postCountTokens(`${origin}${basePath}/messages/count_tokens`, {
      client: this.o.client, headers: this.adapter.headers(c.apiVersion, c.req.headers['anthropic-beta']), body, signal: c.signal, timeoutMs: this.o.timeoutMs, failed: c.failed,
    });
  }
}
