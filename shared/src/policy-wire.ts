/**
 * The wire types of proto/policy.proto as the code uses them: the generated types (shared/src/generated, made
 * by `npm run gen:proto` and checked against the proto in CI), as @grpc/proto-loader decodes them with
 * POLICY_PROTO_OPTIONS (field names as in the proto, 64-bit integers as numbers, defaults filled in, a oneof's
 * name holding the name of the field that is set). Where the proto carries a closed set of values as a string
 * (environment, residency, privacy mode, outcome), the type here narrows it; nothing else is written by hand.
 */
import type { AuthenticateRequest__Output } from './generated/gateway/policy/v1/AuthenticateRequest.js';
import type { AuthenticateResponse__Output } from './generated/gateway/policy/v1/AuthenticateResponse.js';
import type { Caller__Output } from './generated/gateway/policy/v1/Caller.js';
import type { DecideRequest__Output } from './generated/gateway/policy/v1/DecideRequest.js';
import type { Decision__Output } from './generated/gateway/policy/v1/Decision.js';
import type { Denial__Output } from './generated/gateway/policy/v1/Denial.js';
import type { GetUsageRequest__Output } from './generated/gateway/policy/v1/GetUsageRequest.js';
import type { GetUsageResponse__Output } from './generated/gateway/policy/v1/GetUsageResponse.js';
import type { Grant__Output } from './generated/gateway/policy/v1/Grant.js';
import type { HealthResponse__Output } from './generated/gateway/policy/v1/HealthResponse.js';
import type { KeyIdentity__Output } from './generated/gateway/policy/v1/KeyIdentity.js';
import type { LeaseRef__Output } from './generated/gateway/policy/v1/LeaseRef.js';
import type { ListModelsRequest__Output } from './generated/gateway/policy/v1/ListModelsRequest.js';
import type { ListModelsResponse__Output } from './generated/gateway/policy/v1/ListModelsResponse.js';
import type { ModelEntry__Output } from './generated/gateway/policy/v1/ModelEntry.js';
import type { ModelPage__Output } from './generated/gateway/policy/v1/ModelPage.js';
import type { Operation__Output } from './generated/gateway/policy/v1/Operation.js';
import type { Pricing__Output } from './generated/gateway/policy/v1/Pricing.js';
import type { RateLimitPosition__Output } from './generated/gateway/policy/v1/RateLimitPosition.js';
import type { RenewLeasesAck__Output } from './generated/gateway/policy/v1/RenewLeasesAck.js';
import type { RenewLeasesRequest__Output } from './generated/gateway/policy/v1/RenewLeasesRequest.js';
import type { Revocation__Output } from './generated/gateway/policy/v1/Revocation.js';
import type { Route__Output } from './generated/gateway/policy/v1/Route.js';
import type { RouteEvidence__Output } from './generated/gateway/policy/v1/RouteEvidence.js';
import type { RouteStatus__Output } from './generated/gateway/policy/v1/RouteStatus.js';
import type { SessionFault__Output } from './generated/gateway/policy/v1/SessionFault.js';
import type { SessionRequest__Output } from './generated/gateway/policy/v1/SessionRequest.js';
import type { SessionResponse__Output } from './generated/gateway/policy/v1/SessionResponse.js';
import type { TokenUsage__Output } from './generated/gateway/policy/v1/TokenUsage.js';
import type { UsageAck__Output } from './generated/gateway/policy/v1/UsageAck.js';
import type { UsageReport__Output } from './generated/gateway/policy/v1/UsageReport.js';
import type { UsageSummary__Output } from './generated/gateway/policy/v1/UsageSummary.js';
import type { WatchRevocationsRequest__Output } from './generated/gateway/policy/v1/WatchRevocationsRequest.js';

export type Operation = Operation__Output;
export type Environment = 'live' | 'test';
export type Residency = 'uk' | 'eu';
export type PrivacyMode = 'off' | 'flag' | 'redact' | 'tokenise';
export type UsageOutcome = 'ok' | 'client_disconnect' | 'upstream_error' | 'revoked' | 'error';

export type Caller = Caller__Output;
export interface DecideRequest extends DecideRequest__Output {
  caller: Caller;
}
export interface Denial extends Denial__Output {
  should_retry: '' | 'true' | 'false';
  key: KeyIdentity | null;
}
export type RateLimitPosition = RateLimitPosition__Output;
export interface KeyIdentity extends KeyIdentity__Output {
  environment: Environment;
  residency: Residency;
  privacy_mode: PrivacyMode;
}
export interface RouteEvidence extends RouteEvidence__Output {
  regions_basis: 'verified' | 'declared';
}
export interface Route extends Route__Output {
  evidence: RouteEvidence | null;
}
export type RouteStatus = RouteStatus__Output;
export interface Grant extends Grant__Output {
  key: KeyIdentity;
  route: Route;
  evidence: RouteEvidence | null;
  routes: Route[];
}
export interface DecisionWire extends Decision__Output {
  allow?: Grant | null;
  deny?: Denial | null;
}
export type TokenUsage = TokenUsage__Output;
export interface UsageReport extends UsageReport__Output {
  environment: Environment;
  usage: TokenUsage;
  outcome: UsageOutcome;
  /** '' from a proxy that predates the route fields (its report carries none of them). */
  residency: Residency | '';
  evidence: RouteEvidence | null;
}
export type UsageAck = UsageAck__Output;
export interface LeaseRefWire extends LeaseRef__Output {
  environment: Environment;
}
export interface RenewLeasesRequest extends RenewLeasesRequest__Output {
  leases: LeaseRefWire[];
}
export type RenewLeasesAck = RenewLeasesAck__Output;
export type WatchRevocationsRequest = WatchRevocationsRequest__Output;
export type Revocation = Revocation__Output;
export interface ListModelsRequest extends ListModelsRequest__Output {
  caller: Caller;
}
export type Pricing = Pricing__Output;
export interface ModelEntryWire extends ModelEntry__Output {
  residency: Residency;
  pricing_gbp_per_million: Pricing;
}
export interface ModelPage extends ModelPage__Output {
  data: ModelEntryWire[];
  residency_tier: Residency;
}
export interface ListModelsResponse extends ListModelsResponse__Output {
  page?: ModelPage | null;
  deny?: Denial | null;
}
export interface GetUsageRequest extends GetUsageRequest__Output {
  caller: Caller;
}
export interface UsageSummary extends UsageSummary__Output {
  residency: Residency;
  privacy_mode: PrivacyMode;
}
export interface GetUsageResponse extends GetUsageResponse__Output {
  usage?: UsageSummary | null;
  deny?: Denial | null;
}
export type AuthenticateRequest = AuthenticateRequest__Output;
export interface AuthenticateResponse extends AuthenticateResponse__Output {
  key?: KeyIdentity | null;
  deny?: Denial | null;
}
export type SessionFault = SessionFault__Output;
export type HealthResponse = HealthResponse__Output;
export interface SessionRequest extends Omit<SessionRequest__Output, 'traceparent' | 'batch'> {
  /** Set only when the proxy traces the request (received as '' when absent). */
  traceparent?: string;
  decide?: DecideRequest | null;
  report?: UsageReport | null;
  batch?: SessionBatch | null;
}
export interface SessionBatch {
  requests: SessionRequest[];
}
/** Initial-metadata key by which a policy service says it takes SessionBatch messages on its Session stream. */
export const SESSION_BATCH_METADATA = 'gateway-session-batch';
export interface SessionResponse extends SessionResponse__Output {
  decision?: DecisionWire | null;
  ack?: UsageAck | null;
  fault?: SessionFault | null;
}
