import type { IncomingHttpHeaders } from 'node:http';
import type { GoogleAuth } from 'google-auth-library';
import type { Dispatcher } from 'undici';
import { GatewayError, UpstreamError } from '@gateway/shared';
import type { CountContext, Exchange, ExchangeResult, Responder } from '../../exchange.js';
import type { SseRelay } from '../../relay/sse-relay.js';
import { CredentialsTimeoutError, UpstreamCall, credentialsWithin, type PlatformAdapter, type StreamDecoder, type UpstreamRequest } from '../upstream-call.js';
import { errorFromUpstreamStatus } from '../upstream-errors.js';
import { postCountTokens } from '../count-tokens-request.js';
import { UpstreamSseReader } from '../upstream-stream.js';

/** The Messages API version Vertex AI's Anthropic models take in the body. */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

export interface VertexUpstreamOptions {
  project: string;
  /** a service-account key file; undefined: application default credentials (key file, workload identity, metadata server) */
  credentialsFile: string | undefined;
  /** replaces the endpoint's scheme and host (a private endpoint, or a fake in tests) */
  url: string | undefined;
  timeoutMs: number;
  firstEventTimeoutMs?: number;
  /** signing or a token fetch (UPSTREAM_CONNECT_TIMEOUT_MS) */
  connectTimeoutMs?: number;
  client: Dispatcher;
}

/** The regional endpoint of a location; `eu` is the EU multi-region endpoint (pre-GA at Google). */
export function vertexOrigin(location: string, override: string | undefined): string {
  if (override !== undefined) return new URL(override).origin;
  return location === 'eu' ? 'https://aiplatform.eu.rep.googleapis.com' : `https://${location}-aiplatform.googleapis.com`;
}

export function vertexModelPath(project: string, location: string, model: string, method: 'rawPredict' | 'streamRawPredict'): string {
  // `@` is legal in a path segment and Google's own URLs carry the model's version after it unencoded.
  const id = encodeURIComponent(model).replaceAll('%40', '@');
  return `/v1/projects/${encodeURIComponent(project)}/locations/${encodeURIComponent(location)}/publishers/anthropic/models/${id}:${method}`;
}

/** The Messages body as Vertex wants it: no `model` (it is in the URL), its own `anthropic_version`. */
export function vertexBody(body: Record<string, unknown>): Buffer {
  const { model: _model, ...rest } = body;
  return Buffer.from(JSON.stringify({ anthropic_version: VERTEX_ANTHROPIC_VERSION, ...rest }));
}

/**
 * Live keys to Google Vertex AI: rawPredict / streamRawPredict in the route's location, with a bearer token from
 * Google's own auth library (cached, refreshed before expiry); the answer is the vendor's wire format, so the
 * stream is relayed as a Messages-API stream is.
 */
export class VertexUpstream implements Responder {
  private readonly adapter: VertexAdapter;

  constructor(private readonly o: VertexUpstreamOptions) {
    this.adapter = new VertexAdapter(o.project, o.url, o.credentialsFile);
  }

  respond(x: Exchange): Promise<ExchangeResult> {
    return new UpstreamCall(x, this.o.client, this.adapter, this.o.timeoutMs, this.o.firstEventTimeoutMs, this.o.connectTimeoutMs).run();
  }

  async countTokens(forwarded: Record<string, unknown>, c: CountContext): Promise<number> {
    const location = c.grant.route.call_region;
    const origin = vertexOrigin(location, this.o.url);
    const path = vertexModelPath(this.o.project, location, 'count-tokens', 'rawPredict');
    // count-tokens takes the model in the body, unlike the message calls.
    const body = Buffer.from(JSON.stringify({ ...forwarded, anthropic_version: VERTEX_ANTHROPIC_VERSION }));
    c.attestation.forwarded(body);
    const auth = await credentialsWithin(this.adapter.authHeaders(), this.o.connectTimeoutMs ?? Infinity).catch((err: unknown) => {
      // No token for this upstream (or none in time): as for a message call, the next route has credentials of its own.
      c.failed?.({ outcome: err instanceof CredentialsTimeoutError ? 'timeout' : 'auth', retryable: true });
      throw err instanceof GatewayError ? err : new UpstreamError('The upstream request could not be signed.', { cause: err });
    });
    const headers: Record<string, string> = { ...auth, 'content-type': 'application/json' };
    const beta = c.req.headers['anthropic-beta'];
    if (beta !== undefined) headers['anthropic-beta'] = Array.isArray(beta) ? beta.join(',') : beta;
    return postCountTokens(`${origin}${path}`, { client: this.o.client, headers, body, signal: c.signal, timeoutMs: this.o.timeoutMs, failed: c.failed });
  }
}

class VertexAdapter implements PlatformAdapter {
  readonly provider = 'gcp.vertex_ai';
  private auth: Promise<GoogleAuth> | undefined;

  constructor(
    private readonly project: string,
    private readonly url: string | undefined,
    private readonly credentialsFile: string | undefined,
  ) {}

  /** A bearer token from the auth library (it caches the token and refreshes it ahead of its expiry). */
  async authHeaders(): Promise<Record<string, string>> {
    // Loaded on first use: a deployment without Vertex routes never pays for the library.
    this.auth ??= import('google-auth-library').then(({ GoogleAuth }) => new GoogleAuth({
      scopes: ['https://www.googleapis.com/auth/cloud-platform'],
      ...(this.credentialsFile === undefined ? {} : { keyFilename: this.credentialsFile }),
    }));
    const token = await (await this.auth).getAccessToken();
    if (token === null || token === undefined || token === '') throw new UpstreamError('Google credentials gave no access token.');
    return { authorization: `Bearer ${token}` };
  }

  async build(x: Exchange): Promise<UpstreamRequest> {
    const location = x.grant.route.call_region;
    const headers: Record<string, string> = { ...(await this.authHeaders()), 'content-type': 'application/json', 'accept-encoding': 'identity' };
    const beta = x.req.headers['anthropic-beta'];
    if (beta !== undefined) headers['anthropic-beta'] = Array.isArray(beta) ? beta.join(',') : beta;
    return {
      origin: vertexOrigin(location, this.url),
      path: vertexModelPath(this.project, location, x.grant.route.upstream_model, x.stream ? 'streamRawPredict' : 'rawPredict'),
      headers,
      body: vertexBody(x.body),
    };
  }

  streams(_x: Exchange, headers: IncomingHttpHeaders): boolean {
    return String(headers['content-type'] ?? '').startsWith('text/event-stream');
  }

  decoder(relay: SseRelay, x: Exchange): StreamDecoder {
    const reader = new UpstreamSseReader(relay, x.grant.model);
    return {
      feed(chunk: Buffer): GatewayError | undefined {
        reader.feed(chunk);
        return reader.garbage ? new UpstreamError('The upstream sent a malformed event stream.') : undefined;
      },
      get sawError(): boolean {
        return reader.sawError;
      },
    };
  }

  errorFromStatus(status: number, _headers: IncomingHttpHeaders, body: string): GatewayError {
    return errorFromUpstreamStatus(status, body);
  }
}
