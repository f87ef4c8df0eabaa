import * as grpc from '@grpc/grpc-js';
import {
  GatewayError,
  NotFoundError,
  POLICY_SERVICE_NAME,
  SESSION_BATCH_METADATA,
  ServiceUnavailableError,
  denialFromError,
  loadPolicyPackageDefinition,
  type Denial,
  type GetUsageRequest,
  type GetUsageResponse,
  type ListModelsRequest,
  type ListModelsResponse,
  type Logger,
  type AuthenticateRequest,
  type AuthenticateResponse,
  type SessionRequest,
  type SessionResponse,
  type RenewLeasesRequest,
  type Revocation,
  type UsageReport,
  type WatchRevocationsRequest,
} from '@gateway/shared';
import type { ModelCatalogue } from './catalogue.js';
import type { CounterStore } from './counters/counter-store.js';
import type { GatewayStore, UsageReads } from './db/gateway-store.js';
import { callableModels } from './decision-rules.js';
import { dependenciesOk } from './health.js';
import type { DecisionService } from './decision-service.js';
import type { KeyCache } from './key-cache.js';
import { eagerSendInterceptor } from './eager-send-interceptor.js';
import { decisionReason, type PolicyMetrics } from './policy-metrics.js';
import { listModelsPage, modelPage, type RegionsOf } from './models-list.js';
import type { RouteState } from './residency/route-verifier.js';
import { usageSummary } from './usage-summary.js';
import { describeAuthentication, describeDecision, describeRefusal, describeReport, rpcServerSpan, serveTraced } from './tracing/session-spans.js';
import type { Context, Span, SpanOptions } from '@opentelemetry/api';

export interface PolicyServerDeps {
  /** the regions GET /v1/models reports: declared, or verified against the platform */
  regionsOf: RegionsOf;
  /** true while route verification has not had an answer for every route (the proxies are not ready) */
  residencyPending: () => boolean;
  /** each verified route's state ([] where routes are declared) */
  residencyRoutes: () => RouteState[];
  decisions: DecisionService;
  metrics: PolicyMetrics;
  keys: KeyCache;
  catalogue: ModelCatalogue;
  /** The ledger's read side (the store): GET /v1/usage's per-model rows. */
  usage: UsageReads;
  counters: CounterStore;
  /** the database the decision path writes to (Health) */
  database: Pick<GatewayStore, 'ping'>;
  log: Logger;
}

type Unary<Req, Res> = (call: grpc.ServerUnaryCall<Req, Res>, callback: grpc.sendUnaryData<Res>) => void;

/** A unary RPC a request makes (its `traceparent` metadata names the proxy's CLIENT span): its SERVER span. */
interface UnarySpan<Res> {
  name: string;
  options: SpanOptions;
  describe: (span: Span, res: Res) => void;
}

/**
 * Wraps a handler so every failure becomes a gRPC status with a message, and is logged once. With `span`, a call
 * that carries a `traceparent` is served in that SERVER span (tracing/session-spans.ts) and `fn` gets its context
 * for the steps inside; one without (a lease renewal, an older proxy) gets none.
 */
function unary<Req, Res>(log: Logger, name: string, fn: (req: Req, trace: Context | undefined) => Promise<Res> | Res, span?: UnarySpan<Res>): Unary<Req, Res> {
  return (call, callback) => {
    const serve = (trace: Context | undefined): Promise<Res> => Promise.resolve().then(() => fn(call.request, trace));
    const traceparent = span === undefined ? undefined : call.metadata.get('traceparent')[0];
    const served = span === undefined || typeof traceparent !== 'string'
      ? serve(undefined)
      : serveTraced(span.name, traceparent, serve, span.describe, span.options);
    served.then(
      (res) => callback(null, res),
      (err: unknown) => {
        log.error({ err, rpc: name }, 'policy rpc failed');
        const message = err instanceof Error ? err.message : String(err);
        callback({ code: err instanceof GatewayError && err.status === 503 ? grpc.status.UNAVAILABLE : grpc.status.INTERNAL, details: message });
      },
    );
  };
}

const AUTHENTICATE_SPAN: UnarySpan<AuthenticateResponse> = { name: 'policy.authenticate', options: rpcServerSpan('Authenticate'), describe: describeAuthentication };
const LIST_MODELS_SPAN: UnarySpan<ListModelsResponse> = { name: 'policy.list_models', options: rpcServerSpan('ListModels'), describe: describeRefusal };
const GET_USAGE_SPAN: UnarySpan<GetUsageResponse> = { name: 'policy.get_usage', options: rpcServerSpan('GetUsage'), describe: describeRefusal };

const denial = (e: GatewayError): Denial => ({ ...(denialFromError(e) as Omit<Denial, 'key'>), key: null });

/** A proxy's decision stream as the server holds it: closed once the messages it is answering are answered. */
interface SessionHandle {
  /** Tells the proxy this replica is draining: it sends new decisions elsewhere and closes the stream when idle. */
  drain(): void;
  close(): void;
}

/**
 * One proxy's decision stream. Each message (or each message of a batch) is handed to the decision service as it
 * arrives, in order and without waiting for the one before (the requests of a proxy are independent), so what
 * each starts synchronously (a report's lease release, a decision's counter script) reaches the counter store in
 * stream order. Answers go back as they are ready, matched by id. On close (shutdown) new messages are refused as
 * unavailable, and the stream ends once those being answered are.
 */
function serveSession(deps: PolicyServerDeps, call: grpc.ServerDuplexStream<SessionRequest, SessionResponse>, onEnd: () => void): SessionHandle {
  const { decisions, metrics, log } = deps;
  // Tells the proxy it may send batches: a proxy that sees no such header (an older service) sends none.
  const md = new grpc.Metadata();
  md.set(SESSION_BATCH_METADATA, '1');
  call.sendMetadata(md);
  let open = true;
  let closing = false;
  let answering = 0;
  const end = (): void => {
    if (!open) return;
    open = false;
    call.end();
    onEnd();
  };
  const send = (msg: SessionResponse): void => {
    if (open) call.write(msg);
    answering -= 1;
    if (closing && answering === 0) end();
  };
  const fault = (id: number, rpc: string, err: unknown): void => {
    const unavailable = err instanceof GatewayError && err.status === 503;
    if (!closing) log.error({ err, rpc }, 'policy session message failed');
    send({ id, body: 'fault', fault: { unavailable, message: unavailable ? (err as GatewayError).message : 'policy service fault' } });
  };
  const handle = (msg: SessionRequest): void => {
    const id = msg.id;
    answering += 1;
    if (closing) {
      fault(id, 'Session', new ServiceUnavailableError('The policy service is shutting down.'));
    } else if (msg.body === 'decide' && msg.decide != null) {
      const req = msg.decide;
      const stop = metrics.decisionSeconds.startTimer({ operation: req.operation });
      serveTraced('policy.decide', msg.traceparent, (trace) => decisions.decide(req, trace), describeDecision).then(
        (d) => {
          stop();
          metrics.decisions.inc({ operation: req.operation, outcome: d.outcome ?? '', reason: d.outcome === 'deny' ? decisionReason(d.deny?.code ?? '') : 'none' });
          send({ id, body: 'decision', decision: d });
        },
        (err: unknown) => fault(id, 'Decide', err),
      );
    } else if (msg.body === 'report' && msg.report != null) {
      const report = msg.report;
      serveTraced('policy.report_usage', msg.traceparent, (trace) => decisions.report(report, trace), describeReport(report)).then(
        (ack) => {
          metrics.usageReports.inc({ result: ack.recorded ? 'recorded' : 'replay' });
          send({ id, body: 'ack', ack });
        },
        (err: unknown) => fault(id, 'ReportUsage', err),
      );
    } else {
      fault(id, 'Session', new Error('session message with no body'));
    }
  };
  call.on('data', (msg: SessionRequest) => {
    // A batch is its messages in order, each answered on its own (a nested batch is a message with no body).
    if (msg.body === 'batch' && msg.batch != null) {
      for (const inner of msg.batch.requests) handle(inner.body === 'batch' ? { id: inner.id, body: undefined } : inner);
    } else {
      handle(msg);
    }
  });
  call.on('end', end);
  const gone = (): void => {
    open = false;
    onEnd();
  };
  call.on('cancelled', gone);
  call.on('error', gone);
  return {
    drain: () => {
      if (open) call.write({ id: 0, body: 'drain', drain: {} });
    },
    close: () => {
      closing = true;
      if (answering === 0) end();
    },
  };
}

const SESSION_PATH = `/${POLICY_SERVICE_NAME}/Session`;

/** The Policy gRPC service: thin handlers over the decision service. */
export interface PolicyServer {
  server: grpc.Server;
  /** Tells every proxy's stream, and each stream opened from now on, that this replica is draining. */
  drain: () => void;
  closeStreams: () => void;
  openSessions: () => number;
}

export function createPolicyServer(deps: PolicyServerDeps): PolicyServer {
  const { decisions, keys, catalogue, log } = deps;
  const watchers = new Set<grpc.ServerWritableStream<WatchRevocationsRequest, Revocation>>();
  const sessions = new Set<SessionHandle>();
  let draining = false;
  const unsubscribe = keys.onRevoked((keyId) => {
    const msg: Revocation = { key_id: keyId, revoked_unix_ms: Date.now() };
    for (const w of watchers) w.write(msg);
  });

  const definition = loadPolicyPackageDefinition();
  const service = (grpc.loadPackageDefinition(definition) as unknown as {
    gateway: { policy: { v1: { Policy: grpc.ServiceClientConstructor } } };
  }).gateway.policy.v1.Policy.service;

  const server = new grpc.Server({ interceptors: [eagerSendInterceptor([SESSION_PATH])] });
  server.addService(service, {
    Session: (call: grpc.ServerDuplexStream<SessionRequest, SessionResponse>) => {
      const handle: SessionHandle = serveSession(deps, call, () => sessions.delete(handle));
      sessions.add(handle);
      if (draining) handle.drain();
    },
    ReportUsage: unary(log, 'ReportUsage', async (req: UsageReport) => {
      const ack = await decisions.report(req);
      deps.metrics.usageReports.inc({ result: ack.recorded ? 'recorded' : 'replay' });
      return ack;
    }),
    Authenticate: unary(
      log,
      'Authenticate',
      (req: AuthenticateRequest, trace) => decisions.authenticate(req.caller?.api_key ?? '', req.caller?.source_ip ?? '', trace),
      AUTHENTICATE_SPAN,
    ),
    RenewLeases: unary(log, 'RenewLeases', (req: RenewLeasesRequest) => decisions.renew(req.leases)),
    WatchRevocations: (call: grpc.ServerWritableStream<WatchRevocationsRequest, Revocation>) => {
      watchers.add(call);
      const drop = (): void => {
        watchers.delete(call);
      };
      call.on('cancelled', drop);
      call.on('close', drop);
      call.on('error', drop);
    },
    ListModels: unary(log, 'ListModels', async (req: ListModelsRequest, trace): Promise<ListModelsResponse> => {
      const caller = await decisions.checkCaller(req.caller.api_key, req.caller.source_ip, trace);
      if (!caller.ok) return { rate_limit: null, deny: denial(caller.error), outcome: 'deny' };
      if (!req.request_valid) {
        // The proxy will answer 400: position reported, nothing counted.
        return { rate_limit: await decisions.windowPosition(caller.entry), page: modelPage(catalogue, caller.entry, [], false, deps.regionsOf), outcome: 'page' };
      }
      const counted = await decisions.countRequest(caller.entry);
      if (counted.error !== undefined) return { rate_limit: counted.position, deny: denial(counted.error), outcome: 'deny' };
      if (req.model_id !== '') {
        const model = catalogue.resolve(req.model_id);
        if (model === undefined || !callableModels(catalogue, caller.entry).includes(model)) {
          return { rate_limit: counted.position, deny: denial(new NotFoundError(`model: ${req.model_id}`)), outcome: 'deny' };
        }
        return { rate_limit: counted.position, page: modelPage(catalogue, caller.entry, [model], false, deps.regionsOf), outcome: 'page' };
      }
      return { rate_limit: counted.position, page: listModelsPage(catalogue, caller.entry, req, deps.regionsOf), outcome: 'page' };
    }, LIST_MODELS_SPAN),
    GetUsage: unary(log, 'GetUsage', async (req: GetUsageRequest, trace): Promise<GetUsageResponse> => {
      const caller = await decisions.checkCaller(req.caller.api_key, req.caller.source_ip, trace);
      if (!caller.ok) return { rate_limit: null, deny: denial(caller.error), outcome: 'deny' };
      // Free and never rate limited: the window is reported, not counted.
      const position = await decisions.windowPosition(caller.entry);
      return { rate_limit: position, usage: await usageSummary(caller.entry, deps.usage, position, decisions.now(), await decisions.countedUnits(caller.entry)), outcome: 'usage' };
    }, GET_USAGE_SPAN),
    Health: unary(log, 'Health', async () => ({
      ...(await dependenciesOk(deps.database, deps.counters)),
      residency_pending: deps.residencyPending(),
      routes: deps.residencyRoutes().map((r) => ({ model: r.model, tier: r.tier, verified: r.verified, evidence_age_seconds: r.ageSeconds ?? -1 })),
    })),
  });
  return {
    server,
    drain: () => {
      draining = true;
      for (const session of sessions) session.drain();
    },
    openSessions: () => sessions.size,
    closeStreams: () => {
      unsubscribe();
      for (const w of watchers) w.end();
      watchers.clear();
      for (const session of [...sessions]) session.close();
    },
  };
}
