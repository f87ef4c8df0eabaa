import { BehaviourScript, isRecord, type BehaviourPlan, type BehaviourSource, type FakeRequest } from './fake-behaviour.js';
import { randomUUID } from 'node:crypto';
import { bedrockError, bedrockErrorFor, streamExceptionType, type BedrockError } from './bedrock-errors.js';
import { FrameWriter, chunkFrame, exceptionFrame } from './bedrock-frames.js';
import { verifySigV4, type AwsCredentials } from './bedrock-sigv4.js';
import { buildMessage, buildStreamEvents, resolveResponse, type ResolvedResponse } from './fake-response.js';
import {
  FakeServer,
  RequestLog,
  parseJson,
  readBody,
  writeChunk,
  writeJson,
  type Exchange,
  type RecordedRequest,
} from './fake-server.js';
import { playStream, sleep, waitForAbort, type StreamSink } from './stream-player.js';

export interface BedrockFakeOptions {
  /** SigV4 requests must be signed with these (service `bedrock`). */
  credentials: AwsCredentials;
  /** When set, `authorization: Bearer <token>` (a Bedrock API key) is accepted too. */
  bearerToken?: string;
  port?: number;
  host?: string;
  maxRecorded?: number;
  onRequest?: (record: BedrockRecordedRequest) => void;
  /** The clock x-amz-date is checked against (default: the real one). */
  now?: () => Date;
}

export interface BedrockRecordedRequest extends RecordedRequest {
  /** The decoded model id of the path, e.g. `eu.anthropic.alpha-sonnet-5-v1:0`; null off-route. */
  modelId: string | null;
  /** True when a SigV4 signature was verified (a bearer token leaves it false). */
  signatureValid: boolean;
  authMethod: 'sigv4' | 'bearer' | 'none';
  /** Why authentication failed, as the 403 said; null when it passed. */
  authError: string | null;
}

export interface BedrockFake {
  /** Base URL, e.g. `http://127.0.0.1:PORT`; the gateway appends `/{region}`. */
  readonly url: string;
  readonly port: number;
  readonly requests: BedrockRecordedRequest[];
  setBehaviour(source: BehaviourSource | null): void;
  enqueue(...sources: BehaviourSource[]): void;
  reset(): void;
  waitFor(predicate: (requests: readonly BedrockRecordedRequest[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 20 * 1024 * 1024;
const ROUTE = /^\/([^/]+)\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/;
const BEDROCK_VERSION = 'bedrock-2023-05-31';

export async function startBedrockFake(opts: BedrockFakeOptions): Promise<BedrockFake> {
  const script = new BehaviourScript();
  const log = new RequestLog<BedrockRecordedRequest>(opts.maxRecorded ?? Number.POSITIVE_INFINITY, opts.onRequest);
  const server = await FakeServer.start(
    (ex) => handle(ex, opts, script, log),
    opts.port ?? 0,
    opts.host ?? '127.0.0.1',
    () => log.changed(),
  );
  return {
    url: server.url,
    port: server.port,
    requests: log.requests,
    setBehaviour: (source) => script.set(source),
    enqueue: (...sources) => script.enqueue(...sources),
    reset: () => {
      script.reset();
      log.requests.length = 0;
    },
    waitFor: (predicate, timeoutMs) => log.waitFor(predicate, timeoutMs),
    close: () => server.close(),
  };
}

async function handle(
  ex: Exchange,
  opts: BedrockFakeOptions,
  script: BehaviourScript,
  log: RequestLog<BedrockRecordedRequest>,
): Promise<void> {
  const { req } = ex;
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q + 1);
  const route = ROUTE.exec(path);
  const raw = await readBody(req, MAX_BODY_BYTES);
  const rawBody = raw?.toString('utf8') ?? '';
  const record: BedrockRecordedRequest = {
    method: req.method ?? '',
    path,
    url,
    region: route?.[1] ?? null,
    headers: req.headers,
    rawBody,
    json: parseJson(rawBody),
    receivedAt: Date.now(),
    status: null,
    completed: false,
    clientAborted: false,
    modelId: route !== null ? safeDecode(route[2] ?? '') : null,
    signatureValid: false,
    authMethod: 'none',
    authError: null,
  };
  ex.track(record);
  log.add(record);

  if (route === null || req.method !== 'POST') {
    const message = `${req.method} ${path} is not a Bedrock runtime operation`;
    return sendError(ex, { status: 404, name: 'UnknownOperationException', message });
  }
  if (raw === null) return sendError(ex, bedrockError('ValidationException', 'Input is too long for requested model.'));
  const region = route[1] ?? '';

  const authFailure = await authenticate(ex, opts, record, raw, path, query, region);
  log.changed();
  if (authFailure !== null) return sendError(ex, authFailure);

  const body = record.json;
  const problem = checkBody(body, req.headers['content-type']);
  if (problem !== null || !isRecord(body)) return sendError(ex, bedrockError('ValidationException', problem ?? undefined));

  const request: FakeRequest = { body, headers: req.headers, region, path, modelId: record.modelId };
  const plan = script.next(request);
  if (plan.hangBeforeHeaders === true) return waitForAbort(ex.signal);
  if ((plan.latencyMs ?? 0) > 0) await sleep(plan.latencyMs ?? 0, ex.signal);
  if (ex.signal.aborted) return undefined;
  if (plan.errorBefore !== undefined) {
    const err = bedrockErrorFor(plan.errorBefore);
    const headers: Record<string, string> = { ...plan.headers };
    const retryAfter = plan.errorBefore.retryAfterSeconds;
    if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
    return sendError(ex, err, headers);
  }

  const resolved = resolveResponse(plan, body, vendorModelName(record.modelId ?? ''), 'msg_bdrk_01');
  if (route[3] === 'invoke') return invoke(ex, plan, resolved, record.receivedAt);
  return invokeStream(ex, plan, resolved, record.receivedAt);
}

async function authenticate(
  ex: Exchange,
  opts: BedrockFakeOptions,
  record: BedrockRecordedRequest,
  body: Buffer,
  path: string,
  query: string,
  region: string,
): Promise<BedrockError | null> {
  const authorization = ex.req.headersDistinct['authorization']?.[0] ?? '';
  const bearer = /^Bearer\s+(.+)$/i.exec(authorization)?.[1];
  if (bearer !== undefined) {
    record.authMethod = 'bearer';
    if (opts.bearerToken !== undefined && bearer === opts.bearerToken) return null;
    record.authError = 'The security token included in the request is invalid.';
    return bedrockError('UnrecognizedClientException', record.authError);
  }
  record.authMethod = authorization === '' ? 'none' : 'sigv4';
  const signed = {
    method: ex.req.method ?? '',
    rawPath: path,
    rawQuery: query,
    headers: ex.req.headersDistinct as Record<string, string[]>,
    body,
    pathRegion: region,
  };
  const result = await verifySigV4(signed, opts.credentials, opts.now?.() ?? new Date());
  if (result.ok) {
    record.signatureValid = true;
    return null;
  }
  record.authError = result.message;
  return bedrockError(result.errorType, result.message);
}

function invoke(ex: Exchange, plan: BehaviourPlan, r: ResolvedResponse, receivedAt: number): void {
  const headers: Record<string, string> = {
    ...plan.headers,
    'x-amzn-requestid': randomUUID(),
    'x-amzn-bedrock-invocation-latency': String(Date.now() - receivedAt),
  };
  if (r.reportUsage) {
    headers['x-amzn-bedrock-input-token-count'] = String(r.usage.input_tokens);
    headers['x-amzn-bedrock-output-token-count'] = String(r.usage.output_tokens);
    const { cache_read_input_tokens: read, cache_creation_input_tokens: write } = r.usage;
    if (read > 0) headers['x-amzn-bedrock-cache-read-input-token-count'] = String(read);
    if (write > 0) headers['x-amzn-bedrock-cache-write-input-token-count'] = String(write);
  }
  writeJson(ex.res, 200, buildMessage(r), headers);
}

async function invokeStream(ex: Exchange, plan: BehaviourPlan, r: ResolvedResponse, receivedAt: number): Promise<void> {
  const { res } = ex;
  res.writeHead(200, {
    ...plan.headers,
    'content-type': 'application/vnd.amazon.eventstream',
    'x-amzn-requestid': randomUUID(),
    'x-amzn-bedrock-content-type': 'application/json',
  });
  res.flushHeaders();
  const writer = new FrameWriter((chunk) => writeChunk(res, chunk), 5, ex.signal);
  let firstByteLatency: number | null = null;
  const sink: StreamSink = {
    event: async (event, last) => {
      firstByteLatency ??= Date.now() - receivedAt;
      // Bedrock appends its own accounting to the last event, message_stop.
      const data =
        last && r.reportUsage
          ? { ...event.data, 'amazon-bedrock-invocationMetrics': metrics(r, receivedAt, firstByteLatency) }
          : event.data;
      await writer.frame(chunkFrame(data));
    },
    error: async (type, message) => {
      await writer.frame(exceptionFrame(streamExceptionType(type), message));
      res.end();
    },
    end: () => res.end(),
    drop: () => ex.drop(),
  };
  await playStream(buildStreamEvents(r, plan.pingAfterStart === true), plan, sink, ex.signal);
}

function metrics(r: ResolvedResponse, receivedAt: number, firstByteLatency: number): Record<string, number> {
  const m: Record<string, number> = {
    inputTokenCount: r.usage.input_tokens,
    outputTokenCount: r.usage.output_tokens,
    invocationLatency: Date.now() - receivedAt,
    firstByteLatency,
  };
  if (r.usage.cache_read_input_tokens > 0) m['cacheReadInputTokenCount'] = r.usage.cache_read_input_tokens;
  if (r.usage.cache_creation_input_tokens > 0) m['cacheWriteInputTokenCount'] = r.usage.cache_creation_input_tokens;
  return m;
}

/** Bedrock's own schema check of an Anthropic body, worded like its ValidationExceptions. */
function checkBody(body: unknown, contentType: string | undefined): string | null {
  if (!/^application\/json\b/i.test(contentType ?? '')) return 'The provided content type is not supported; use application/json.';
  const malformed = (detail: string): string => `Malformed input request: ${detail}, please reformat your input and try again.`;
  if (!isRecord(body)) return malformed('the body is not a JSON object');
  for (const key of ['model', 'stream']) {
    if (key in body) return malformed(`#: extraneous key [${key}] is not permitted`);
  }
  const version = body['anthropic_version'];
  if (version === undefined) return malformed('#: required key [anthropic_version] not found');
  if (version !== BEDROCK_VERSION) return malformed(`#/anthropic_version: ${JSON.stringify(version)} is not a valid enum value`);
  const maxTokens = body['max_tokens'];
  if (maxTokens === undefined) return malformed('#: required key [max_tokens] not found');
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) {
    return malformed('#/max_tokens: expected an integer >= 1');
  }
  if (!Array.isArray(body['messages'])) return malformed('#: required key [messages] not found');
  const betas = body['anthropic_beta'];
  if (betas !== undefined && !(Array.isArray(betas) && betas.every((b) => typeof b === 'string'))) {
    return malformed('#/anthropic_beta: expected type: JSONArray of strings');
  }
  return null;
}

function sendError(ex: Exchange, err: BedrockError, headers: Record<string, string> = {}): void {
  const errorHeaders = { ...headers, 'x-amzn-errortype': err.name, 'x-amzn-requestid': randomUUID() };
  writeJson(ex.res, err.status, { message: err.message }, errorHeaders);
}

/** `eu.anthropic.alpha-sonnet-5-v1:0` → `alpha-sonnet-5`: Bedrock's Message names the model, not the profile. */
export function vendorModelName(modelId: string): string {
  return modelId.replace(/^(?:[a-z]+\.)?anthropic\./, '').replace(/-v\d+(?::\d+)?$/, '');
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
