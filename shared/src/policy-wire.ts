/**
 * TypeScript shapes of the messages in proto/policy.proto, as @grpc/proto-loader decodes them with
 * POLICY_PROTO_OPTIONS (field names as in the proto, 64-bit integers as numbers, unset messages as null,
 * a oneof's name holding the name of the field that is set). test/ checks these names against the proto.
 */
export type Operation = 'OPERATION_UNSPECIFIED' | 'CREATE_MESSAGE' | 'COUNT_TOKENS';
export type Environment = 'live' | 'test';
export type Residency = 'uk' | 'eu';
export type PrivacyMode = 'off' | 'flag' | 'redact' | 'tokenise';

export interface Caller {
  api_key: string;
  source_ip: string;
  request_id: string;
}

export interface DecideRequest {
  caller: Caller;
  operation: Operation;
  model: string;
  stream: boolean;
  max_tokens: number;
  input_tokens_estimate: number;
  request_valid: boolean;
}

export interface Denial {
  http_status: number;
  error_type: string;
  message: string;
  retry_after_seconds: number;
  should_retry: '' | 'true' | 'false';
}

export interface RateLimitPosition {
  limit: number;
  remaining: number;
  reset_unix: number;
}

export interface KeyIdentity {
  key_id: string;
  account_id: string;
  environment: Environment;
  residency: Residency;
  privacy_mode: PrivacyMode;
}

export interface Route {
  upstream_model: string;
  call_region: string;
  processing_regions: string[];
}

export interface Grant {
  key: KeyIdentity;
  model: string;
  route: Route;
  lease_id: string;
  lease_expires_unix_ms: number;
  reserved_units: number;
}

export interface DecisionWire {
  decision_id: string;
  rate_limit: RateLimitPosition | null;
  allow?: Grant | null;
  deny?: Denial | null;
  authenticated?: KeyIdentity | null;
  outcome?: 'allow' | 'deny' | 'authenticated';
}

export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export type UsageOutcome = 'ok' | 'client_disconnect' | 'upstream_error' | 'revoked' | 'error';

export interface UsageReport {
  request_id: string;
  decision_id: string;
  key_id: string;
  account_id: string;
  environment: Environment;
  model: string;
  usage: TokenUsage;
  lease_id: string;
  reserved_units: number;
  outcome: UsageOutcome;
  finished_unix_ms: number;
}

export interface UsageAck {
  recorded: boolean;
}

export interface ReleaseRequest {
  lease_id: string;
  key_id: string;
  account_id: string;
  environment: Environment;
  reserved_units: number;
}

export interface LeaseRefWire {
  lease_id: string;
  account_id: string;
  environment: Environment;
  key_id: string;
}

export interface RenewLeasesRequest {
  leases: LeaseRefWire[];
}

export interface RenewLeasesAck {
  unknown_lease_ids: string[];
  revoked_key_ids: string[];
}

export interface WatchRevocationsRequest {
  proxy_id: string;
}

export interface Revocation {
  key_id: string;
  revoked_unix_ms: number;
}

export interface ListModelsRequest {
  caller: Caller;
  model_id: string;
  limit: number;
  after_id: string;
  before_id: string;
  request_valid: boolean;
}

export interface Pricing {
  input: string;
  output: string;
  cache_write: string;
  cache_read: string;
}

export interface ModelEntryWire {
  id: string;
  display_name: string;
  context_window: number;
  max_output_tokens: number;
  supports_vision: boolean;
  residency: Residency;
  residency_label: string;
  processing_regions: string[];
  pricing_gbp_per_million: Pricing;
  created_at: string;
}

export interface ModelPage {
  data: ModelEntryWire[];
  has_more: boolean;
  residency_tier: Residency;
  residency_tier_label: string;
}

export interface ListModelsResponse {
  rate_limit: RateLimitPosition | null;
  page?: ModelPage | null;
  deny?: Denial | null;
  outcome?: 'page' | 'deny';
}

export interface GetUsageRequest {
  caller: Caller;
}

export interface UsageSummary {
  period: { start: string; end: string };
  plan: string;
  residency: Residency;
  privacy_mode: PrivacyMode;
  tokens: {
    allowance: number;
    used: number;
    remaining: number;
    percent_used: number;
    overage_allowed: boolean;
  };
  rate_limit: { requests_per_minute: number; remaining: number; concurrency: number };
  by_model: Array<{ model: string; requests: number; billable_units: number; cost_gbp: string }>;
}

export interface GetUsageResponse {
  rate_limit: RateLimitPosition | null;
  usage?: UsageSummary | null;
  deny?: Denial | null;
  outcome?: 'usage' | 'deny';
}
