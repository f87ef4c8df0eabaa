import type { GatewayError } from './errors.js';
import type {
  Caller,
  DecideRequest,
  Grant,
  KeyIdentity,
  LeaseRefWire,
  ListModelsRequest,
  ModelPage,
  RateLimitPosition,
  RenewLeasesAck,
  RouteStatus,
  UsageAck,
  UsageReport,
  UsageSummary,
} from './policy-wire.js';

/**
 * The proxy's view of one decision: the proto oneof as a discriminated union, carrying the decision id. For the
 * attestation it also says which catalogue the decision used (hex SHA-256 of the file; null from a policy service
 * that predates the field) and, on a refusal that came after authentication, the key (null for a 401, and from
 * such an older policy service).
 */
export type Decision =
  | { kind: 'allow'; decisionId: string; rateLimit: RateLimitPosition | null; catalogueSha256: string | null; grant: Grant }
  | {
      kind: 'deny';
      decisionId: string;
      rateLimit: RateLimitPosition | null;
      catalogueSha256: string | null;
      error: GatewayError;
      key: KeyIdentity | null;
    };

export type Answer<T> =
  | { kind: 'ok'; rateLimit: RateLimitPosition | null; value: T }
  | { kind: 'deny'; rateLimit: RateLimitPosition | null; error: GatewayError };

/** The answer of Authenticate: as Answer<KeyIdentity>, with what a decision carries for the attestation. */
export type Authentication =
  | { kind: 'ok'; rateLimit: RateLimitPosition | null; catalogueSha256: string | null; value: KeyIdentity }
  | { kind: 'deny'; rateLimit: RateLimitPosition | null; catalogueSha256: string | null; error: GatewayError; key: KeyIdentity | null };

/**
 * The narrow seam between proxy and policy. Every method fails with ServiceUnavailableError when the policy
 * service cannot be reached, so callers fail closed. `traceparent`: the W3C trace context of the caller's span
 * (CONTRACT.md "Traces"), sent with the message ('' or absent: untraced).
 */
export interface PolicyClient {
  /**
   * On the decision stream of the replica the key is pinned to. The client mints the attempt id; a decision lost
   * with its replica is retried once, with the same attempt id, on the next replica.
   */
  decide(request: Omit<DecideRequest, 'attempt_id'>, traceparent?: string): Promise<Decision>;
  /**
   * On the decision stream of the replica `pin` (the request's API key) is pinned to: the message is written
   * before this returns (so it reaches the policy service before any later decision of that key on this proxy);
   * the promise says whether it was taken. Without a pin (a spool replay), any replica that can take it.
   */
  reportUsage(report: UsageReport, pin?: string, traceparent?: string): Promise<UsageAck>;
  /**
   * Runs `catchUp` each time the decision stream (re)opens, before the stream takes a new decision: the spool's
   * replay, so reports that missed a broken stream count before the decisions after it.
   */
  catchUpBeforeDecisions(catchUp: () => Promise<void>): void;
  /** The key and source address only, nothing counted: `ok` carries the key, with the window position. */
  authenticate(caller: Caller, traceparent?: string): Promise<Authentication>;
  /** Renews the given leases; says which it no longer holds and which of their keys are revoked or expired. */
  renewLeases(leases: LeaseRefWire[]): Promise<RenewLeasesAck>;
  /**
   * Calls onRevoked with each revoked key id until the returned function is called; reconnects by itself and
   * calls onConnect each time it (re)opens the stream, so the caller can catch up on what it missed.
   */
  watchRevocations(onRevoked: (keyId: string) => void, onConnect?: () => void): () => void;
  listModels(request: ListModelsRequest, traceparent?: string): Promise<Answer<ModelPage>>;
  getUsage(caller: Caller, traceparent?: string): Promise<Answer<UsageSummary>>;
  /**
   * ready: the policy service answers, its database and counter store are reachable, and (a Bedrock deployment)
   * every route has been resolved against the platform; routes: each verified route's state, for /readyz.
   */
  readiness(): Promise<{ ready: boolean; routes: RouteStatus[] }>;
  close(): void;
}
