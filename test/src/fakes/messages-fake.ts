import {
  BehaviourScript,
  estimateInputTokens,
  isRecord,
  type BehaviourPlan,
  type BehaviourSource,
  type FakeRequest,
} from './fake-behaviour.js';
import { fakeId } from './fake-ids.js';
import { buildMessage, buildStreamEvents, resolveResponse, type StreamEvent } from './fake-response.js';
import {
  FakeServer,
  RequestLog,
  parseJson,
  readBody,
  writeJson,
  type Exchange,
  type RecordedRequest,
} from './fake-server.js';
import { playStream, sleep, waitForAbort } from './stream-player.js';
import { sseSink, writeVendorError } from './vendor-wire.js';

export interface MessagesFakeOptions {
  /** When set, `x-api-key` or `authorization: Bearer` must equal it; otherwise any non-empty key passes. */
  apiKey?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Keep only the newest N records (default: all); for long-running demos. */
  maxRecorded?: number;
  /** Called as each request is recorded (after its body was read). */
  onRequest?: (record: RecordedRequest) => void;
}

export interface MessagesFake {
  /** Base URL without `/v1`, e.g. `http://127.0.0.1:PORT`; the SDK's `baseURL`. */
  readonly url: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  /** The standing behaviour for requests the queue does not cover; null restores the default echo. */
  setBehaviour(source: BehaviourSource | null): void;
  /** One plan per upcoming request, consumed in order before the standing behaviour. */
  enqueue(...sources: BehaviourSource[]): void;
  /** Clears the records, the queue and the standing behaviour. */
  reset(): void;
  waitFor(predicate: (requests: readonly RecordedRequest[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** The vendor's request limit for /v1/messages. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;
const ROUTE = /^(?:\/([^/]+))?\/v1\/messages(\/count_tokens)?$/;

export async function startMessagesFake(opts: MessagesFakeOptions = {}): Promise<MessagesFake> {
  const script = new BehaviourScript();
  const log = new RequestLog<RecordedRequest>(opts.maxRecorded ?? Number.POSITIVE_INFINITY, opts.onRequest);
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

async function handle(ex: Exchange, opts: MessagesFakeOptions, script: BehaviourScript, log: RequestLog<RecordedRequest>): Promise<void> {
  const { req, res } = ex;
  const url = req.url ?? '/';
  const path = url.split('?')[0] ?? '/';
  const route = ROUTE.exec(path);
  const raw = await readBody(req, MAX_BODY_BYTES);
  const rawBody = raw?.toString('utf8') ?? '';
  const record: RecordedRequest = {
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
  };
  ex.track(record);
  log.add(record);

  if (route === null || req.method !== 'POST') return writeVendorError(ex, { status: 404, message: `${req.method} ${path} not found` });
  if (raw === null) return writeVendorError(ex, { status: 413 });
  const keyProblem = checkKey(req.headers, opts.apiKey);
  if (keyProblem !== null) return writeVendorError(ex, { status: 401, message: keyProblem });
  if (header(req.headers['anthropic-version']) === '') {
    return writeVendorError(ex, { status: 400, message: 'anthropic-version: header is required' });
  }
  if (!/^application\/json\b/i.test(header(req.headers['content-type']))) {
    return writeVendorError(ex, { status: 400, message: 'content-type must be application/json' });
  }
  const countTokens = route[2] !== undefined;
  const body = record.json;
  const bodyProblem = checkBody(body, countTokens);
  if (bodyProblem !== null || !isRecord(body)) return writeVendorError(ex, { status: 400, message: bodyProblem ?? 'invalid body' });

  if (countTokens) return writeJson(res, 200, { input_tokens: estimateInputTokens(body) }, { 'request-id': fakeId('req_01') });

  const request: FakeRequest = { body, headers: req.headers, region: record.region, path, modelId: null };
  const plan = script.next(request);
  if (plan.hangBeforeHeaders === true) return waitForAbort(ex.signal);
  if ((plan.latencyMs ?? 0) > 0) await sleep(plan.latencyMs ?? 0, ex.signal);
  if (ex.signal.aborted) return undefined;
  if (plan.errorBefore !== undefined) return writeVendorError(ex, plan.errorBefore, plan.headers);

  const resolved = resolveResponse(plan, body, String(body['model']));
  const headers = { ...plan.headers, 'request-id': fakeId('req_01') };
  if (body['stream'] !== true) return writeJson(res, 200, buildMessage(resolved), headers);
  return stream(ex, plan, buildStreamEvents(resolved, plan.pingAfterStart === true), headers);
}

async function stream(ex: Exchange, plan: BehaviourPlan, events: StreamEvent[], headers: Record<string, string>): Promise<void> {
  const { res } = ex;
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
  });
  // Headers go out now, as the vendor's do, so a client sees 200 before the first event.
  res.flushHeaders();
  await playStream(events, plan, sseSink(ex), ex.signal);
}

function checkKey(headers: Exchange['req']['headers'], expected: string | undefined): string | null {
  const bearer = /^Bearer\s+(.+)$/i.exec(header(headers['authorization']))?.[1] ?? '';
  const key = header(headers['x-api-key']) || bearer;
  if (key === '') return 'x-api-key header is required';
  if (expected !== undefined && key !== expected) return 'invalid x-api-key';
  return null;
}

/** The vendor's own shape checks, worded like its 400s. */
function checkBody(body: unknown, countTokens: boolean): string | null {
  if (!isRecord(body)) return 'There was an error parsing the body of your request: it must be a JSON object';
  if (typeof body['model'] !== 'string' || body['model'] === '') return 'model: Field required';
  if (!Array.isArray(body['messages'])) return 'messages: Field required';
  // Bedrock-only fields: a gateway that forgot to translate its body finds out here, as it would upstream.
  for (const key of ['anthropic_version', 'anthropic_beta']) {
    if (key in body) return `${key}: Extra inputs are not permitted`;
  }
  if (countTokens) return null;
  const maxTokens = body['max_tokens'];
  if (maxTokens === undefined) return 'max_tokens: Field required';
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) {
    return 'max_tokens: Input should be a valid integer greater than 0';
  }
  if (body['stream'] !== undefined && typeof body['stream'] !== 'boolean') return 'stream: Input should be a valid boolean';
  return null;
}

function header(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}
