import * as grpc from '@grpc/grpc-js';
import { PolicySession } from './policy-session.js';
import {
  InternalError,
  ServiceUnavailableError,
  errorFromDenial,
  newRecordId,
  policyServiceConstructor,
  type Answer,
  type Caller,
  type DecideRequest,
  type Decision,
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

/**
 * PolicyClient over gRPC: the only place the proxy touches the wire types' transport. Decisions and usage
 * reports travel on one long-lived stream (PolicySession); the rest are unary calls.
 */
export class GrpcPolicyClient implements PolicyClient {
  private readonly client: grpc.Client;
  private readonly proxyId = newRecordId('proxy');
  private readonly session: PolicySession;

  constructor(
    address: string,
    private readonly log: Logger,
    private readonly deadlineMs = 5_000,
  ) {
    const Ctor = policyServiceConstructor();
    this.client = new Ctor(address, grpc.credentials.createInsecure(), {
      'grpc.keepalive_time_ms': 10_000,
      'grpc.keepalive_timeout_ms': 5_000,
      'grpc.keepalive_permit_without_calls': 1,
      'grpc.initial_reconnect_backoff_ms': 100,
      'grpc.max_reconnect_backoff_ms': 1_000,
    });
    const openSession = (this.client as unknown as Record<string, () => grpc.ClientDuplexStream<SessionRequest, SessionResponse>>)['Session'];
    if (openSession === undefined) throw new InternalError('policy client has no Session method');
    this.session = new PolicySession(() => openSession.call(this.client), log, deadlineMs);
  }

  private call<Req, Res>(method: string, req: Req): Promise<Res> {
    const fn = (this.client as unknown as Record<string, UnaryMethod<Req, Res>>)[method];
    if (fn === undefined) return Promise.reject(new InternalError(`policy client has no method ${method}`));
    return new Promise((resolve, reject) => {
      fn.call(this.client, req, new grpc.Metadata(), { deadline: Date.now() + this.deadlineMs }, (err, res) => {
        if (err === null) resolve(res);
        else reject(mapGrpcError(err, method));
      });
    });
  }

  async decide(request: DecideRequest): Promise<Decision> {
    const d = await this.session.decide(request);
    const base = { decisionId: d.decision_id, rateLimit: d.rate_limit ?? null, catalogueSha256: orNull(d.catalogue_sha256) };
    if (d.outcome === 'allow' && d.allow != null) return { kind: 'allow', ...base, grant: d.allow };
    if (d.outcome === 'deny' && d.deny != null) return { kind: 'deny', ...base, error: errorFromDenial(d.deny), key: d.deny.key ?? null };
    throw new InternalError('policy service sent a decision with no outcome');
  }

  reportUsage(report: UsageReport): Promise<UsageAck> {
    return this.session.report(report);
  }

  async authenticate(caller: Caller): Promise<Authentication> {
    const r = await this.call<{ caller: Caller }, AuthenticateResponse>('Authenticate', { caller });
    const base = { rateLimit: r.rate_limit ?? null, catalogueSha256: orNull(r.catalogue_sha256) };
    if (r.outcome === 'key' && r.key != null) return { kind: 'ok', ...base, value: r.key };
    if (r.deny != null) return { kind: 'deny', ...base, error: errorFromDenial(r.deny), key: r.deny.key ?? null };
    throw new InternalError('policy service sent an authentication answer with no outcome');
  }

  renewLeases(leases: LeaseRefWire[]): Promise<RenewLeasesAck> {
    return this.call<RenewLeasesRequest, RenewLeasesAck>('RenewLeases', { leases });
  }

  watchRevocations(onRevoked: (keyId: string) => void, onConnect?: () => void): () => void {
    let stopped = false;
    let stream: grpc.ClientReadableStream<Revocation> | undefined;
    let retry: NodeJS.Timeout | undefined;
    const open = (): void => {
      if (stopped) return;
      const fn = (this.client as unknown as Record<string, (req: object) => grpc.ClientReadableStream<Revocation>>)['WatchRevocations'];
      stream = fn?.call(this.client, { proxy_id: this.proxyId });
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
        if (err.code !== grpc.status.CANCELLED) this.log.warn({ code: err.code }, 'revocation watch dropped; reconnecting');
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

  async listModels(request: ListModelsRequest): Promise<Answer<ModelPage>> {
    const r = await this.call<ListModelsRequest, ListModelsResponse>('ListModels', request);
    if (r.outcome === 'page' && r.page != null) return { kind: 'ok', rateLimit: r.rate_limit ?? null, value: r.page };
    if (r.deny != null) return { kind: 'deny', rateLimit: r.rate_limit ?? null, error: errorFromDenial(r.deny) };
    throw new InternalError('policy service sent a models answer with no outcome');
  }

  async getUsage(caller: Caller): Promise<Answer<UsageSummary>> {
    const r = await this.call<{ caller: Caller }, GetUsageResponse>('GetUsage', { caller });
    if (r.outcome === 'usage' && r.usage != null) return { kind: 'ok', rateLimit: r.rate_limit ?? null, value: r.usage };
    if (r.deny != null) return { kind: 'deny', rateLimit: r.rate_limit ?? null, error: errorFromDenial(r.deny) };
    throw new InternalError('policy service sent a usage answer with no outcome');
  }

  async readiness(): Promise<{ ready: boolean; routes: RouteStatus[] }> {
    try {
      const h = await this.call<object, HealthResponse>('Health', {});
      // residency_pending: a Bedrock deployment whose routes are not all resolved yet (false from older services).
      return { ready: h.counter_store_ok && h.database_ok && !h.residency_pending, routes: h.routes };
    } catch {
      return { ready: false, routes: [] };
    }
  }

  close(): void {
    this.session.close();
    this.client.close();
  }
}

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
