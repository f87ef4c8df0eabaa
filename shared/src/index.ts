export {
  GatewayError,
  InvalidRequestError,
  AuthenticationError,
  QuotaExceededError,
  PermissionDeniedError,
  ForbiddenError,
  ResidencyUnavailableError,
  NotFoundError,
  MethodNotAllowedError,
  RequestTooLargeError,
  RateLimitError,
  InternalError,
  UpstreamError,
  UpstreamConnectError,
  ServiceUnavailableError,
  UpstreamHeadersTimeoutError,
  UpstreamBodyTimeoutError,
  OverloadedError,
  NOT_PERMITTED_MESSAGE,
  vendorErrorBody,
  errorFromDenial,
  denialFromError,
} from './errors.js';
export type { VendorErrorType, VendorErrorBody, GatewayErrorOptions } from './errors.js';
export { randomBase62, newRequestId, newMessageId, newDecisionId, newLeaseId, newAttemptId, leaseIdFor, newRecordId } from './ids.js';
export { batchedStdout, createLineLog, createLogger } from './logger.js';
export { stopOnSignals } from './shutdown.js';
export { refusalReason, type RefusalReason } from './refusal-reason.js';
export type { LineLog, Logger } from './logger.js';
export { clusterMetricsSource, createRegistry, serveMetrics, shareMetricsWithPrimary, Registry } from './metrics.js';
export type { MetricsSource } from './metrics.js';
export { loadConfig, ConfigError, parsePolicyTarget, policyServiceProblems } from './config.js';
export {
  AttestationKeyError,
  parseKeyFile,
  formatKeyFile,
  newKeyPem,
  isPublished,
  publicJwks,
  rotatedKeyFile,
} from './attestation-keys.js';
export type { AttestationKey, PublicJwk } from './attestation-keys.js';
export { readKeyFile, createKeyFileIfMissing, rotateKeyFile } from './attestation-key-file.js';
export type { GatewayConfig, PolicyTarget } from './config.js';
export { DEFAULT_UPSTREAM, readUpstreamsFile } from './upstreams.js';
export type { UpstreamPlatform, UpstreamSettings, BedrockUpstreamSettings, VertexUpstreamSettings, MessagesUpstreamSettings } from './upstreams.js';
export { isLoopbackHost } from './sign-in-config.js';
export type { OidcConfig, SignInConfig } from './sign-in-config.js';
export { IpAllowlist, allowlistEntryProblem } from './ip-allowlist.js';
export { API_KEY_PATTERN, isWellFormedApiKey, keyFormatError, generateApiKey, hashApiKey, displayApiKey } from './api-key.js';
export {
  POLICY_PROTO_PATH,
  POLICY_PROTO_OPTIONS,
  POLICY_SERVICE_NAME,
  policyServiceConstructor,
  loadPolicyPackageDefinition,
} from './policy-proto.js';
export type { PolicyClient, Decision, Answer, Authentication } from './policy-client.js';
export type {
  Operation,
  Environment,
  Residency,
  PrivacyMode,
  Caller,
  DecideRequest,
  Denial,
  RateLimitPosition,
  KeyIdentity,
  Route,
  RouteEvidence,
  RouteStatus,
  Grant,
  DecisionWire,
  TokenUsage,
  UsageOutcome,
  UsageReport,
  UsageAck,
  LeaseRefWire,
  RenewLeasesRequest,
  RenewLeasesAck,
  WatchRevocationsRequest,
  Revocation,
  ListModelsRequest,
  Pricing,
  ModelEntryWire,
  ModelPage,
  ListModelsResponse,
  GetUsageRequest,
  UsageSummary,
  GetUsageResponse,
  AuthenticateRequest,
  AuthenticateResponse,
  SessionFault,
  HealthResponse,
  SessionRequest,
  SessionBatch,
  SessionResponse,
} from './policy-wire.js';
export { SESSION_BATCH_METADATA } from './policy-wire.js';
export { tracingConfig, startTracing, gatewayTracer, traceparentOf, contextFromTraceparent, inSpan, endWhenSettled, errorTypeOf, tracingOn } from './tracing/index.js';
export type { TracingConfig, SamplerKind, Tracing } from './tracing/index.js';
export {
  SEMCONV_VERSION, SEMCONV_SCHEMA_URL, HTTP_REQUEST_METHOD, HTTP_ROUTE, HTTP_RESPONSE_STATUS_CODE, URL_SCHEME, SERVER_ADDRESS, SERVER_PORT, NETWORK_PROTOCOL_VERSION, ERROR_TYPE, RPC_SYSTEM, RPC_SERVICE, RPC_METHOD, DB_SYSTEM_NAME, DB_OPERATION_NAME, GEN_AI_OPERATION_NAME, GEN_AI_PROVIDER_NAME, GEN_AI_REQUEST_MODEL, GEN_AI_REQUEST_MAX_TOKENS, GEN_AI_RESPONSE_MODEL, GEN_AI_USAGE_INPUT_TOKENS, GEN_AI_USAGE_OUTPUT_TOKENS, GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS, GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS, GATEWAY_MODEL, GATEWAY_RESIDENCY, GATEWAY_CALL_REGION, GATEWAY_PROCESSING_REGIONS, GATEWAY_ROUTE_INDEX, GATEWAY_PRIVACY_MODE, GATEWAY_KEY_ID, GATEWAY_ACCOUNT_ID, GATEWAY_REFUSAL_REASON, GATEWAY_FIRST_TOKEN_EVENT,
} from './tracing/semconv.js';
