import { estimateInputTokens, isRecord, BehaviourScript, type BehaviourSource } from './fake-behaviour.js';
import { fakeId } from './fake-ids.js';
import { buildMessage, buildStreamEvents, resolveResponse } from './fake-response.js';
import { FakeServer, RequestLog, parseJson, readBody, writeJson, type Exchange, type RecordedRequest } from './fake-server.js';
import { playStream, waitForAbort } from './stream-player.js';
import { sseSink, writeVendorError } from './vendor-wire.js';

/** What Vertex AI's Anthropic models take in the body instead of a model (vendor-api.md, Google's docs). */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

/** A request as the Vertex fake saw it, with the parts of its URL. */
export interface VertexRecordedRequest extends RecordedRequest {
  project: string | null;
  location: string | null;
  model: string | null;
  method: string;
}

export interface VertexFake {
  readonly url: string;
  readonly requests: VertexRecordedRequest[];
  enqueue(...sources: BehaviourSource[]): void;
  setBehaviour(source: BehaviourSource | null): void;
  reset(): void;
  close(): Promise<void>;
}

const PATH = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/:]+):(rawPredict|streamRawPredict)$/;

export interface VertexFakeOptions {
  tokenValid: (token: string) => boolean;
  /**
   * Which of Google's endpoints this fake stands for: a regional one (`{location}-aiplatform.googleapis.com`, any
   * location but `eu`) or the EU multi-region one (`aiplatform.eu.rep.googleapis.com`, only `locations/eu`).
   * A path naming a location its endpoint does not serve is refused (400 INVALID_ARGUMENT).
   */
  endpoint?: 'regional' | 'eu';
}

/**
 * A faithful fake of Vertex AI's Anthropic endpoints: the URL shape of a regional or of the EU multi-region
 * endpoint, a bearer token that `tokenValid` accepts (the metadata fake's), `anthropic_version` in the body and no
 * `model`; answers in the vendor's wire format (JSON, or SSE for streamRawPredict); errors in Google's shape.
 * count-tokens takes the model in the body.
 */
export async function startVertexFake(opts: VertexFakeOptions): Promise<VertexFake> {
  const script = new BehaviourScript();
  const log = new RequestLog<VertexRecordedRequest>(Number.POSITIVE_INFINITY, undefined);
  const server = await FakeServer.start((ex) => handle(ex, opts, script, log), 0, '127.0.0.1', () => log.changed());
  return {
    url: server.url,
    requests: log.requests,
    enqueue: (...s) => script.enqueue(...s),
    setBehaviour: (s) => script.set(s),
    reset: () => {
      script.reset();
      log.requests.length = 0;
    },
    close: () => server.close(),
  };
}

/** Google's canonical status name for an HTTP status (google.rpc.Code), as its error bodies carry it. */
const GOOGLE_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED', 499: 'CANCELLED', 500: 'INTERNAL', 501: 'NOT_IMPLEMENTED', 503: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED',
};

/** An error from Google's front door (auth, routing, quota, the platform), in Google's shape rather than the vendor's. */
function googleError(ex: Exchange, status: number, message: string): void {
  writeJson(ex.res, status, { error: { code: status, message, status: GOOGLE_STATUS[status] ?? 'UNKNOWN' } });
}

async function handle(ex: Exchange, opts: VertexFakeOptions, script: BehaviourScript, log: RequestLog<VertexRecordedRequest>): Promise<void> {
  const { req, res } = ex;
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const m = PATH.exec(path);
  const raw = await readBody(req, 32 * 1024 * 1024);
  const rawBody = raw?.toString('utf8') ?? '';
  const record: VertexRecordedRequest = {
    method: m?.[4] ?? '', path, url: req.url ?? '/', region: m?.[2] ?? null, headers: req.headers, rawBody, json: parseJson(rawBody),
    receivedAt: Date.now(), status: null, completed: false, clientAborted: false,
    project: m?.[1] ?? null, location: m?.[2] ?? null, model: m?.[3] ?? null,
  };
  ex.track(record);
  log.add(record);
  if (m === null || req.method !== 'POST') return googleError(ex, 404, `${req.method} ${path} not found`);
  const multiRegion = (opts.endpoint ?? 'regional') === 'eu';
  if ((m[2] === 'eu') !== multiRegion) {
    return googleError(ex, 400, `Location ${m[2] ?? ''} is not served by this ${multiRegion ? 'multi-region' : 'regional'} endpoint.`);
  }
  const token = /^Bearer (.+)$/.exec(String(req.headers['authorization'] ?? ''))?.[1] ?? '';
  if (!opts.tokenValid(token)) return googleError(ex, 401, 'Request had invalid authentication credentials.');
  const body = record.json;
  if (!isRecord(body)) return googleError(ex, 400, 'Invalid JSON payload received.');
  // The model's own checks answer in the vendor's format.
  if (body['anthropic_version'] !== VERTEX_ANTHROPIC_VERSION) return writeVendorError(ex, { status: 400, message: 'anthropic_version: Input should be \'vertex-2023-10-16\'' });
  const countTokens = m[3] === 'count-tokens';
  if (countTokens) {
    if (typeof body['model'] !== 'string') return writeVendorError(ex, { status: 400, message: 'model: Field required' });
    return writeJson(res, 200, { input_tokens: estimateInputTokens(body) });
  }
  if ('model' in body) return writeVendorError(ex, { status: 400, message: 'model: Extra inputs are not permitted' });
  const streaming = m[4] === 'streamRawPredict';
  if (streaming !== (body['stream'] === true)) return writeVendorError(ex, { status: 400, message: 'stream must match the method' });
  const plan = script.next({ body, headers: req.headers, region: record.location, path, modelId: m[3] ?? null });
  if (plan.errorBefore !== undefined) return googleError(ex, plan.errorBefore.status, plan.errorBefore.message ?? 'unavailable');
  const resolved = resolveResponse(plan, body, m[3] ?? '');
  const headers = { 'request-id': fakeId('req_vrtx_01') };
  if (!streaming) return writeJson(res, 200, buildMessage(resolved), headers);
  res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8' });
  res.flushHeaders();
  await playStream(buildStreamEvents(resolved, false), plan, sseSink(ex), ex.signal);
}

/** A fake GCE metadata server (named by GCE_METADATA_HOST): hands out numbered access tokens with a lifetime. */
export interface MetadataFake {
  /** host:port, the value of GCE_METADATA_HOST */
  readonly host: string;
  /** tokens issued so far, oldest first */
  readonly issued: Array<{ token: string; expiresAtMs: number }>;
  valid(token: string): boolean;
  /** true: token requests get no answer (a metadata server that hangs) until set false or the client gives up */
  hangTokens(on: boolean): void;
  close(): Promise<void>;
}

export async function startMetadataFake(opts: { expiresInSeconds: number }): Promise<MetadataFake> {
  const issued: Array<{ token: string; expiresAtMs: number }> = [];
  let hanging = false;
  const server = await FakeServer.start(async (ex) => {
    const { req, res } = ex;
    res.setHeader('metadata-flavor', 'Google');
    if (req.headers['metadata-flavor'] !== 'Google') return writeJson(res, 403, { error: 'Missing Metadata-Flavor:Google header.' });
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/computeMetadata/v1/instance/service-accounts/default/token') {
      if (hanging) return waitForAbort(ex.signal);
      const token = `ya29.fake-${issued.length + 1}`;
      issued.push({ token, expiresAtMs: Date.now() + opts.expiresInSeconds * 1000 });
      return writeJson(res, 200, { access_token: token, expires_in: opts.expiresInSeconds, token_type: 'Bearer' });
    }
    if (path === '/computeMetadata/v1/project/project-id') {
      res.writeHead(200, { 'content-type': 'application/text' });
      res.end('proj-fake');
      return;
    }
    if (path === '/computeMetadata/v1/instance' || path === '/computeMetadata/v1/instance/') {
      res.writeHead(200, { 'content-type': 'application/text' });
      res.end('attributes/\nservice-accounts/\n');
      return;
    }
    writeJson(res, 404, { error: 'not found' });
  }, 0, '127.0.0.1', () => undefined);
  return {
    host: server.url.replace(/^http:\/\//, ''),
    issued,
    valid: (token) => issued.some((t) => t.token === token && t.expiresAtMs > Date.now()),
    hangTokens: (on) => {
      hanging = on;
    },
    close: () => server.close(),
  };
}
