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
export { createLogger } from './logger.js';
export { stopOnSignals } from './shutdown.js';
export { refusalReason, type RefusalReason } from './refusal-reason.js';
export type { Logger } from './logger.js';
export { createRegistry, serveMetrics, Registry } from './metrics.js';
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
