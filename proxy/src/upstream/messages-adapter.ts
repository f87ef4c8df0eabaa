import type { IncomingHttpHeaders } from 'node:http';
import { UpstreamError, type GatewayError } from '@gateway/shared';
import type { Exchange } from '../exchange.js';
import type { SseRelay } from '../relay/sse-relay.js';
import type { PlatformAdapter, StreamDecoder, UpstreamRequest } from './upstream-call.js';
import { regionEndpoint } from './upstream-client.js';
import { errorFromUpstreamStatus } from './upstream-errors.js';
import { forwardedBody } from './forwarded-body.js';
import { UpstreamSseReader } from './upstream-stream.js';

/**
 * A Messages-API upstream: the forwarded body with the gateway's own credential, the client's version and beta
 * headers (never its credentials); the event stream passed through byte for byte but for message_start's model.
 */
export class MessagesAdapter implements PlatformAdapter {
  private readonly endpoints = new Map<string, { origin: string; basePath: string }>();

  constructor(private readonly urlTemplate: string, private readonly apiKey: string | undefined) {}

  endpoint(region: string): { origin: string; basePath: string } {
    let e = this.endpoints.get(region);
    if (e === undefined) {
      e = regionEndpoint(this.urlTemplate, region);
      this.endpoints.set(region, e);
    }
    return e;
  }

  headers(apiVersion: string, beta: string | string[] | undefined): Record<string, string> {
    const h: Record<string, string> = { 'content-type': 'application/json', 'anthropic-version': apiVersion, 'accept-encoding': 'identity' };
    if (this.apiKey !== undefined) h['x-api-key'] = this.apiKey;
    if (beta !== undefined) h['anthropic-beta'] = Array.isArray(beta) ? beta.join(',') : beta;
    return h;
  }

  build(x: Exchange): UpstreamRequest {
    const { origin, basePath } = this.endpoint(x.grant.route.call_region);
    const beta = (x.req.url ?? '').includes('beta=true');
    return {
      origin,
      path: `${basePath}/messages${beta ? '?beta=true' : ''}`,
      headers: this.headers(x.apiVersion, x.req.headers['anthropic-beta']),
      body: forwardedBody(x),
    };
  }

  streams(_x: Exchange, headers: IncomingHttpHeaders): boolean {
    return String(headers['content-type'] ?? '').startsWith('text/event-stream');
  }

  decoder(relay: SseRelay, x: Exchange): StreamDecoder {
    return new MessagesStreamDecoder(new UpstreamSseReader(relay, x.grant.model));
  }

  errorFromStatus(status: number, _headers: IncomingHttpHeaders, body: string): GatewayError {
    return errorFromUpstreamStatus(status, body);
  }
}

class MessagesStreamDecoder implements StreamDecoder {
  constructor(private readonly reader: UpstreamSseReader) {}

  feed(chunk: Buffer): GatewayError | undefined {
    this.reader.feed(chunk);
    return this.reader.garbage ? new UpstreamError('The upstream sent a malformed event stream.') : undefined;
  }

  get sawError(): boolean {
    return this.reader.sawError;
  }
}
