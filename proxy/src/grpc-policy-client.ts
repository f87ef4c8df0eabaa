import * as grpc from '@grpc/grpc-js';
import { setTimeout as sleep } from 'node:timers/promises';
import { PolicyReplicas, type Replica } from './policy-replicas.js';
import { PolicySession } from './policy-session.js';
import {
  InternalError,
  ServiceUnavailableError,
  errorFromDenial,
  newAttemptId,
  newRecordId,
  policyServiceConstructor,
  type Answer,
  type Caller,
  type DecideRequest,
  type Decision,
  type DecisionWire,
  type PolicyTarget,
  type GetUsageResponse,
  type LeaseRefWire,
  type RenewLeasesRequest,
  type ListModelsRequest,
  type ListModelsResponse,
  type Logger,
  type ModelPage,
  type PolicyClient,
  type AuthenticateResponse,
  type Authentication,
  type HealthResponse,
  type RouteStatus,
  type SessionRequest,
  type SessionResponse,
  type RenewLeasesAck,
  type Revocation,
  type UsageAck,
  type UsageReport,
  type UsageSummary,
} from '@gateway/shared';

type UnaryMethod<Req, Res> = (
  req: Req,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
  cb: (err: grpc.ServiceError | null, res: Res) => void,
) => grpc.ClientUnaryCall;

type Channel = grpc.Client & Record<string, unknown>;

/**
 * PolicyClient over gRPC: the only place the proxy touches the wire types' transport. Decisions and usage
 * reports travel on long-lived decision streams (PolicySession), one per policy replica (PolicyReplicas), each key
 * pinned to one replica; the rest are unary calls to the key's replica, tried once more on the next when the
 * first cannot be reached.
 */
export class GrpcPolicyClient implements PolicyClient {
  private readonly proxyId = newRecordId('proxy');
  private readonly replicas: PolicyReplicas;
  private catchUp: (() => Promise<void>) | undefined;
  private readonly watchers = new Set<{ onRevoked: (keyId: string) => void; onConnect?: () => void; stops: Array<() => void> }>();
  /** Resolves once the target's replicas are known (a DNS target is resolved first). */
  private readonly started: Promise<void>;

  constructor(
    target: PolicyTarget | string,
    private readonly log: Logger,
    private readonly deadlineMs = 5_000,
  ) {
    const t: PolicyTarget = typeof target === 'string' ? { kind: 'list', addresses: [target] } : target;
    this.replicas = new PolicyReplicas(t, (address) => this.connect(address), log, (r) => this.added(r));
    this.started = this.replicas.start();
  }

  private connect(address: string): Replica {
    const Ctor = policyServiceConstructor();
    const client = new Ctor(address, grpc.credentials.createInsecure(), {
      'grpc.keepalive_time_ms': 10_000,
      'grpc.keepalive_timeout_ms': 5_000,
      'grpc.keepalive_permit_without_calls': 1,
      'grpc.initial_reconnect_backoff_ms': 100,
      // A replica that restarts is used again within half a second of listening (the channel retries no less often).
      'grpc.max_reconnect_backoff_ms': 500,
    }) as Channel;
    const openSession = client['Session'] as (() => grpc.ClientDuplexStream<SessionRequest, SessionResponse>) | undefined;
    if (openSession === undefined) throw new InternalError('policy client has no Session method');
    const session = new PolicySession(() => openSession.call(client), this.log, this.deadlineMs, undefined, () =>
      client.getChannel().getConnectivityState(false) === grpc.connectivityState.READY);
    return { address, client, session };
  }

  /** A replica joins: the spool's catch-up runs before its stream decides, and revocations are heard from it. */
  private added(r: Replica): void {
    if (this.catchUp !== undefined) r.session.setCatchUp(this.catchUp);
    for (const w of this.watchers) w.stops.push(this.watchOne(r, w.onRevoked, w.onConnect));
  }

  private call<Req, Res>(method: string, req: Req, pin = '', traceparent = ''): Promise<Res> {
    const [first, second] = this.replicas.forKey(pin);
    if (first === undefined) return Promise.reject(unavailable());
    return this.callOne<Req, Res>(first, method, req, traceparent).catch((err: unknown) => {
      if (!(err instanceof ServiceUnavailableError) || second === undefined) throw err;
      return this.callOne<Req, Res>(second, method, req, traceparent);
    });
  }

  private callOne<Req, Res>(replica: Replica, method: string, req: Req, traceparent: string): Promise<Res> {
    const fn = (replica.client as Channel)[method] as UnaryMethod<Req, Res> | undefined;
    if (fn === undefined) return Promise.reject(new InternalError(`policy client has no method ${method}`));
    const metadata = new grpc.Metadata();
    // The trace context of the proxy's CLIENT span: the policy service's SERVER span hangs under it.
    if (traceparent !== '') metadata.set('traceparent', traceparent);
    return new Promise((resolve, reject) => {
      fn.call(replica.client, req, metadata, { deadline: Date.now() + this.deadlineMs }, (err, res) => {
        if (err === null) resolve(res);
        else reject(mapGrpcError(err, method));
      });
    });
  }

  async decide(request: Omit<DecideRequest, 'attempt_id'>, traceparent = ''): Promise<Decision> {
    const req: DecideRequest = { ...request, attempt_id: newAttemptId() };
    const [first, second] = this.replicas.forKey(request.caller.api_key);
    if (first === undefined) throw unavailable();
    let d: DecisionWire;
    try {
      d = await first.session.decide(req, traceparent);
    } catch (err) {
      // Its replica was lost (or draining, or its counter store away) before it answered: once more on the next,
      // with the same attempt id, so an admission the first made is found, not counted again.
      if (!(err instanceof ServiceUnavailableError) || second === undefined) throw err;
      d = await second.session.decide(req, traceparent);
    }
    const base = { decisionId: d.decision_id, rateLimit: d.rate_limit ?? null, catalogueSha256: orNull(d.catalogue_sha256) };
    if (d.outcome === 'allow' && d.allow != null) return { kind: 'allow', ...base, grant: d.allow };
    if (d.outcome === 'deny' && d.deny != null) return { kind: 'deny', ...base, error: errorFromDenial(d.deny), key: d.deny.key ?? null };
    throw new InternalError('policy service sent a decision with no outcome');
  }

  reportUsage(report: UsageReport, pin = '', traceparent = ''): Promise<UsageAck> {
    // The key's replica: the report is on the stream its next decision takes, so it is applied before it.
    const [replica] = this.replicas.forKey(pin);
    if (replica === undefined) return Promise.reject(unavailable());
    return replica.session.report(report, traceparent);
  }

  catchUpBeforeDecisions(catchUp: () => Promise<void>): void {
    this.catchUp = catchUp;
    for (const r of this.replicas.all()) r.session.setCatchUp(catchUp);
  }

  async authenticate(caller: Caller, traceparent = ''): Promise<Authentication> {
    const r = await this.call<{ caller: Caller }, AuthenticateResponse>('Authenticate', { caller }, caller.api_key, traceparent);
    const base = { rateLimit: r.rate_limit ?? null, catalogueSha256: orNull(r.catalogue_sha256) };
    if (r.outcome === 'key' && r.key != null) return { kind: 'ok', ...base, value: r.key };
    if (r.deny != null) return { kind: 'deny', ...base, error: errorFromDenial(r.deny), key: r.deny.key ?? null };
    throw new InternalError('policy service sent an authentication answer with no outcome');
  }

  renewLeases(leases: LeaseRefWire[]): Promise<RenewLeasesAck> {
    return this.call<RenewLeasesRequest, RenewLeasesAck>('RenewLeases', { leases });
  }

  watchRevocations(onRevoked: (keyId: string) => void, onConnect?: () => void): () => void {
    // Every replica reads the same key changes: a revocation heard from any of them cuts.
    const w = { onRevoked, ...(onConnect === undefined ? {} : { onConnect }), stops: [] as Array<() => void> };
    this.watchers.add(w);
    for (const r of this.replicas.all()) w.stops.push(this.watchOne(r, onRevoked, onConnect));
    return () => {
      this.watchers.delete(w);
      for (const stop of w.stops) stop();
    };
  }

  private watchOne(replica: Replica, onRevoked: (keyId: string) => void, onConnect?: () => void): () => void {
    let stopped = false;
    let stream: grpc.ClientReadableStream<Revocation> | undefined;
    let retry: NodeJS.Timeout | undefined;
    const open = (): void => {
      if (stopped) return;
      const fn = (replica.client as Channel)['WatchRevocations'] as ((req: object) => grpc.ClientReadableStream<Revocation>) | undefined;
      stream = fn?.call(replica.client, { proxy_id: this.proxyId });
      if (stream === undefined) return;
      stream.on('data', (r: Revocation) => onRevoked(r.key_id));
      // Revocations made while no stream was open are never sent on this one: the caller catches up instead.
      onConnect?.();
      const reopen = (): void => {
        stream?.removeAllListeners();
        stream = undefined;
        if (!stopped && retry === undefined) {
          retry = setTimeout(() => {
            retry = undefined;
            open();
          }, 250);
          retry.unref();
        }
      };
      stream.on('error', (err: grpc.ServiceError) => {
        if (err.code !== grpc.status.CANCELLED) this.log.warn({ code: err.code, replica: replica.address }, 'revocation watch dropped; reconnecting');
        reopen();
      });
      stream.on('end', reopen);
    };
    open();
    return () => {
      stopped = true;
      if (retry !== undefined) clearTimeout(retry);
      stream?.cancel();
    };
  }

  async listModels(request: ListModelsRequest, traceparent = ''): Promise<Answer<ModelPage>> {
    const r = await this.call<ListModelsRequest, ListModelsResponse>('ListModels', request, request.caller.api_key, traceparent);
    if (r.outcome === 'page' && r.page != null) return { kind: 'ok', rateLimit: r.rate_limit ?? null, value: r.page };
    if (r.deny != null) return { kind: 'deny', rateLimit: r.rate_limit ?? null, error: errorFromDenial(r.deny) };
    throw new InternalError('policy service sent a models answer with no outcome');
  }

  async getUsage(caller: Caller, traceparent = ''): Promise<Answer<UsageSummary>> {
    const r = await this.call<{ caller: Caller }, GetUsageResponse>('GetUsage', { caller }, caller.api_key, traceparent);
    if (r.outcome === 'usage' && r.usage != null) return { kind: 'ok', rateLimit: r.rate_limit ?? null, value: r.usage };
    if (r.deny != null) return { kind: 'deny', rateLimit: r.rate_limit ?? null, error: errorFromDenial(r.deny) };
    throw new InternalError('policy service sent a usage answer with no outcome');
  }

  /**
   * Ready only while a decision can be made: a replica's stream is open and answered, it is not draining, and it
   * says it is healthy (database, counter store, and on Bedrock every route resolved).
   */
  async readiness(): Promise<{ ready: boolean; routes: RouteStatus[] }> {
    await this.started;
    // A stream whose channel is still connecting (this proxy just started, a replica just came back) is given a
    // moment, as the Health call itself would wait for its channel.
    for (let waited = 0; !this.replicas.canDecide() && waited < READY_WAIT_MS; waited += 25) await sleep(25);
    if (!this.replicas.canDecide()) return { ready: false, routes: [] };
    try {
      const h = await this.call<object, HealthResponse>('Health', {});
      // residency_pending: a Bedrock deployment whose routes are not all resolved yet (false from older services).
      return { ready: h.counter_store_ok && h.database_ok && !h.residency_pending, routes: h.routes };
    } catch {
      return { ready: false, routes: [] };
    }
  }

  close(): void {
    for (const w of this.watchers) for (const stop of w.stops) stop();
    this.watchers.clear();
    this.replicas.close();
  }
}

/** How long a readiness check waits for a decision stream that is connecting. */
const READY_WAIT_MS = 500;

const unavailable = (): ServiceUnavailableError =>
  new ServiceUnavailableError('The gateway cannot reach its policy service; please retry.');

/** proto3 strings default to '': a field a policy service did not send is not known. */
function orNull(s: string): string | null {
  return s === '' ? null : s;
}

function mapGrpcError(err: grpc.ServiceError, method: string): Error {
  if (err.code === grpc.status.UNAVAILABLE || err.code === grpc.status.DEADLINE_EXCEEDED) {
    return new ServiceUnavailableError('The gateway cannot reach its policy service; please retry.', { cause: err });
  }
  return new InternalError(`policy ${method} failed: ${err.details}`, { cause: err });
}
