import { request, type Dispatcher } from 'undici';
import { UpstreamError, UpstreamHeadersTimeoutError } from '@gateway/shared';
import type { CountContext, Exchange, ExchangeResult, Responder } from '../exchange.js';
import { MessagesAdapter } from './messages-adapter.js';
import { UpstreamCall } from './upstream-call.js';
import { errorFromUpstreamNetwork, errorFromUpstreamStatus } from './upstream-errors.js';

export interface MessagesUpstreamOptions {
  /** base URL ending in /v1; `{region}` is replaced by the route's call region */
  url: string;
  apiKey: string | undefined;
  timeoutMs: number;
  /** a stream's limit for its first event; unset: only timeoutMs */
  firstEventTimeoutMs?: number;
  client: Dispatcher;
}

/** Live keys to a Messages-API upstream: each message one UpstreamCall; count_tokens a plain request. */
export class MessagesUpstream implements Responder {
  private readonly adapter: MessagesAdapter;

  constructor(private readonly o: MessagesUpstreamOptions) {
    this.adapter = new MessagesAdapter(o.url, o.apiKey);
  }

  respond(x: Exchange): Promise<ExchangeResult> {
    return new UpstreamCall(x, this.o.client, this.adapter, this.o.timeoutMs, this.o.firstEventTimeoutMs).run();
  }

  async countTokens(forwarded: Record<string, unknown>, c: CountContext): Promise<number> {
    const { origin, basePath } = this.adapter.endpoint(c.grant.route.call_region);
    const body = Buffer.from(JSON.stringify(forwarded));
    c.attestation.forwarded(body);
    const res = await request(`${origin}${basePath}/messages/count_tokens`, {
      dispatcher: this.o.client,
      method: 'POST',
      headers: this.adapter.headers(c.apiVersion, c.req.headers['anthropic-beta']),
      body,
      signal: c.signal,
      headersTimeout: this.o.timeoutMs,
      bodyTimeout: this.o.timeoutMs,
    }).catch((err: unknown) => {
      const code = (err as { code?: unknown } | null)?.code;
      throw code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' ? new UpstreamHeadersTimeoutError() : errorFromUpstreamNetwork(err);
    });
    const text = await res.body.text().catch(() => '');
    if (res.statusCode !== 200) throw errorFromUpstreamStatus(res.statusCode, text);
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
}
