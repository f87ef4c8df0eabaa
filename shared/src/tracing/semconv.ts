/**
 * The attribute names the gateway's spans carry, copied here rather than imported from the semantic-conventions
 * package's incubating entry point (which may change in any minor release): the GenAI conventions are pinned to
 * one version, SEMCONV_VERSION, and docs/operations.md names it. CONTRACT.md "Traces" gives each one's meaning.
 */
export const SEMCONV_VERSION = '1.40.0';
export const SEMCONV_SCHEMA_URL = `https://opentelemetry.io/schemas/${SEMCONV_VERSION}`;

// HTTP (stable)
export const HTTP_REQUEST_METHOD = 'http.request.method';
export const HTTP_ROUTE = 'http.route';
export const HTTP_RESPONSE_STATUS_CODE = 'http.response.status_code';
export const URL_SCHEME = 'url.scheme';
export const SERVER_ADDRESS = 'server.address';
export const SERVER_PORT = 'server.port';
export const NETWORK_PROTOCOL_VERSION = 'network.protocol.version';
export const ERROR_TYPE = 'error.type';

// RPC
export const RPC_SYSTEM = 'rpc.system';
export const RPC_SERVICE = 'rpc.service';
export const RPC_METHOD = 'rpc.method';

// Database (the counter store's script, the ledger)
export const DB_SYSTEM_NAME = 'db.system.name';
export const DB_OPERATION_NAME = 'db.operation.name';

// GenAI (development status; pinned to SEMCONV_VERSION)
export const GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const GEN_AI_PROVIDER_NAME = 'gen_ai.provider.name';
export const GEN_AI_REQUEST_MODEL = 'gen_ai.request.model';
export const GEN_AI_REQUEST_MAX_TOKENS = 'gen_ai.request.max_tokens';
export const GEN_AI_RESPONSE_MODEL = 'gen_ai.response.model';
export const GEN_AI_USAGE_INPUT_TOKENS = 'gen_ai.usage.input_tokens';
export const GEN_AI_USAGE_OUTPUT_TOKENS = 'gen_ai.usage.output_tokens';
export const GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS = 'gen_ai.usage.cache_read.input_tokens';
export const GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS = 'gen_ai.usage.cache_creation.input_tokens';

// The gateway's own (CONTRACT.md "Traces"): never a key, never message content.
export const GATEWAY_MODEL = 'gateway.model';
export const GATEWAY_RESIDENCY = 'gateway.residency';
export const GATEWAY_CALL_REGION = 'gateway.call_region';
export const GATEWAY_PROCESSING_REGIONS = 'gateway.processing_regions';
export const GATEWAY_ROUTE_INDEX = 'gateway.route_index';
export const GATEWAY_PRIVACY_MODE = 'gateway.privacy_mode';
export const GATEWAY_KEY_ID = 'gateway.key_id';
export const GATEWAY_ACCOUNT_ID = 'gateway.account_id';
export const GATEWAY_REFUSAL_REASON = 'gateway.refusal_reason';
/** The first content token reached the client: an event on the upstream attempt span. */
export const GATEWAY_FIRST_TOKEN_EVENT = 'gateway.first_token';
