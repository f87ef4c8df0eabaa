import { resolve } from 'node:path';
import { allowlistEntryProblem } from './ip-allowlist.js';
import { DEFAULT_UPSTREAM, readUpstreamsFile, type UpstreamSettings } from './upstreams.js';
import { tracingConfig, type TracingConfig } from './tracing/tracing-config.js';
import { readSignInConfig, type SignInConfig } from './sign-in-config.js';

/**
 * Settings of both processes, read once from the environment, validated with every problem reported together,
 * and frozen. Nothing else in the gateway reads process.env.
 */
export interface GatewayConfig {
  readonly host: string;
  readonly port: number;
  /** The policy service's TCP listener (health probes, and the proxies when there is no socket). */
  readonly policyAddr: { readonly host: string; readonly port: number };
  /**
   * POLICY_ADDR's `unix:///path`, when given: the policy service listens there as well, and a proxy on the same
   * machine or pod dials it instead of TCP.
   */
  readonly policySocket: string | undefined;
  /**
   * Where the proxy dials the policy service (POLICY_TARGET, default POLICY_ADDR): a list of host:port, or a DNS
   * name whose every address is a replica (re-resolved every 30 s at most).
   */
  readonly policyTarget: PolicyTarget;
  readonly metricsPort: number;
  readonly metricsHost: string;
  /**
   * PROXY_WORKERS: proxy worker processes sharing PORT (1: one process, no cluster), or `auto` (the CPUs the
   * container's CPU quota allows, read from its cgroup at start-up).
   */
  readonly proxyWorkers: number | 'auto';
  /** The policy service's admin HTTP port (dashboard and admin API) and its bind address. */
  readonly adminPort: number;
  readonly adminHost: string;
  readonly dataDir: string;
  readonly databaseFile: string;
  /**
   * `DATABASE_URL` (postgres://…): keys, accounts, plans, administrators and the audit log in PostgreSQL, shared
   * by any number of policy replicas. Unset: SQLite in `databaseFile`, one policy process.
   */
  readonly databaseUrl: string | undefined;
  readonly redisUrl: string | undefined;
  /** Put before every Redis key, so several deployments (or test runs) can share one Redis. */
  readonly redisKeyPrefix: string;
  readonly upstream: {
    readonly kind: 'messages' | 'bedrock';
    readonly url: string | undefined;
    readonly apiKey: string | undefined;
    readonly timeoutMs: number;
    /** TCP and TLS handshake limit of one attempt, and of getting its credentials (UPSTREAM_CONNECT_TIMEOUT_MS); a failure moves to the next route */
    readonly connectTimeoutMs: number;
    /** a stream's limit for its `message_start` (UPSTREAM_FIRST_EVENT_TIMEOUT_MS); missed: the next route */
    readonly firstEventTimeoutMs: number;
    /** attempts per request, over all routes (UPSTREAM_MAX_ATTEMPTS) */
    readonly maxAttempts: number;
    /**
     * The retry budget over any 10 s: retries at most UPSTREAM_RETRY_BUDGET_PERCENT (20) % of requests, with at
     * least UPSTREAM_RETRY_BUDGET_MIN (10) allowed.
     */
    readonly retryBudget: { readonly percent: number; readonly min: number };
  };
  /**
   * The named upstreams routes call: UPSTREAMS_FILE, or without it one named "default" from UPSTREAM_KIND,
   * UPSTREAM_URL, UPSTREAM_API_KEY (and UPSTREAM_CONTROL_URL).
   */
  readonly upstreams: Readonly<Record<string, UpstreamSettings>>;
  /** Per-proxy route health (ROUTE_FAILURE_THRESHOLD consecutive failures open a route for ROUTE_COOL_DOWN_MS). */
  readonly routeHealth: { readonly failureThreshold: number; readonly coolDownMs: number };
  readonly trustedProxies: readonly string[];
  readonly logLevel: string;
  readonly catalogueFile: string | undefined;
  /** The person-name model file (NAMES_MODEL); undefined: the one shipped in proxy/models/. */
  readonly namesModelFile: string | undefined;
  /** How long a concurrency lease lives without renewal; a dead proxy's slot frees after this. At most 60 s. */
  readonly leaseTtlMs: number;
  /** How often the policy service looks for key changes made by gatewayctl (revocations must bite within 1 s). */
  readonly keyPollMs: number;
  /**
   * How long the policy service's ledger writes wait for company before one commit takes them all. It delays a
   * report's acknowledgement (the proxy holds the report until then), never the counting of its units.
   */
  readonly ledgerWindowMs: number;
  /** false: do not create the demo account on an empty database. */
  readonly bootstrapDemo: boolean;
  /** The proxy's connection caps and how long a client may take to send a request (slow senders are cut). */
  readonly connections: {
    /** open client connections in all; past it new ones are closed at once */
    readonly max: number;
    /** open client connections from one source address (trusted proxies exempt) */
    readonly maxPerSource: number;
    /** from connecting (or the previous response) to the end of the request's headers */
    readonly headersTimeoutMs: number;
    /** from connecting to the end of the request's body; responses (streams) are not limited by it */
    readonly requestTimeoutMs: number;
  };
  /**
   * SIGTERM: readiness turns false at once; new connections are still accepted for `graceMs` (so load balancers
   * notice), then refused; running requests and streams may finish for up to `timeoutMs` from the signal.
   */
  readonly drain: { readonly timeoutMs: number; readonly graceMs: number };
  /**
   * Route verification (UPSTREAM_KIND=bedrock): each route resolved against the platform's control plane every
   * `verifyIntervalMs`, served only on evidence younger than `maxAgeMs`. `controlUrl` may contain `{region}`.
   */
  readonly residency: {
    readonly verify: boolean;
    readonly verifyIntervalMs: number;
    readonly maxAgeMs: number;
    readonly controlUrl: string | undefined;
  };
  /** The keys that sign every message response's x-gateway-attestation (docs/residency.md). */
  readonly attestation: {
    /** ATTESTATION_KEY_FILE (must exist), else `attestation-keys.pem` in the data directory (created on first start). */
    readonly keyFile: string;
    /** true for the data directory's file, which the gateway may create; false for ATTESTATION_KEY_FILE. */
    readonly inDataDir: boolean;
    /** How long a key stays published after a newer one took over (ATTESTATION_KEY_RETAIN_DAYS). */
    readonly retainDays: number;
  };
  /** OpenTelemetry traces (the OTEL_* variables, CONTRACT.md "Traces"); undefined: off, no SDK started. */
  readonly tracing: TracingConfig | undefined;
  /** How administrators sign in to the dashboard: password, identity provider (OIDC_*), or both. */
  readonly signIn: SignInConfig;
}

export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** More workers than this is a mistake (each loads the person-name model), whatever the machine. */
const MAX_PROXY_WORKERS = 64;

const LOG_LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/** Which process reads the settings: the policy service refuses combinations only it cannot run with. */
export interface LoadOptions {
  service?: 'policy' | 'proxy' | 'cli';
}

export function loadConfig(env: Env, cwd: string = process.cwd(), options: LoadOptions = {}): GatewayConfig {
  const problems: string[] = [];

  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return n;
  };
  const str = (name: string): string | undefined => {
    const raw = env[name];
    return raw === undefined || raw === '' ? undefined : raw;
  };

  const port = int('PORT', 8080, 0, 65535);
  const metricsPort = int('METRICS_PORT', 9464, 0, 65535);

  // host:port, unix:///path, or one of each (comma-separated): a socket alone keeps TCP on the default address.
  const policyRaw = str('POLICY_ADDR') ?? '127.0.0.1:50051';
  let policyAddr = { host: '127.0.0.1', port: 50051 };
  let policySocket: string | undefined;
  const policyParts = policyRaw.split(',').map((a) => a.trim());
  const sockets = policyParts.filter((a) => a.startsWith('unix:'));
  const tcp = policyParts.filter((a) => !a.startsWith('unix:'));
  const policyMatch = tcp.length === 1 ? /^(\[[0-9a-fA-F:.]+\]|[^:\s]+):(\d{1,5})$/.exec(tcp[0] as string) : null;
  const socketMatch = sockets.length === 1 ? UNIX_RE.exec(sockets[0] as string) : null;
  if (sockets.length > 1 || tcp.length > 1 || (tcp.length === 1 && (policyMatch === null || Number(policyMatch[2]) > 65535)) || (sockets.length === 1 && socketMatch === null)) {
    problems.push(`POLICY_ADDR must be host:port, unix:///absolute/path, or one of each separated by a comma (got "${policyRaw}")`);
  } else {
    if (policyMatch !== null) policyAddr = { host: policyMatch[1] as string, port: Number(policyMatch[2]) };
    if (socketMatch !== null) policySocket = socketMatch[1] as string;
  }

  const targetRaw = str('POLICY_TARGET');
  let policyTarget: PolicyTarget = { kind: 'list', addresses: [policySocket === undefined ? `${policyAddr.host}:${policyAddr.port}` : `unix://${policySocket}`] };
  if (targetRaw !== undefined) {
    const parsed = parsePolicyTarget(targetRaw);
    if (typeof parsed === 'string') problems.push(parsed);
    else policyTarget = parsed;
  }

  const dataDir = resolve(cwd, str('GATEWAY_DATA_DIR') ?? './data');

  const workersRaw = str('PROXY_WORKERS');
  let proxyWorkers: number | 'auto' = 1;
  if (workersRaw === 'auto') proxyWorkers = 'auto';
  else if (workersRaw !== undefined) {
    const n = Number(workersRaw);
    if (/^\d+$/.test(workersRaw) && n >= 1 && n <= MAX_PROXY_WORKERS) proxyWorkers = n;
    else problems.push(`PROXY_WORKERS must be "auto" or an integer from 1 to ${MAX_PROXY_WORKERS} (got "${workersRaw}")`);
  }

  const redisUrl = str('REDIS_URL');
  if (redisUrl !== undefined && !/^(redis|rediss|redis\+cluster):\/\//.test(redisUrl)) {
    problems.push(`REDIS_URL must start with redis://, rediss:// or redis+cluster:// (got "${redisUrl}")`);
  }

  const databaseUrl = str('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/[^\s]+$/.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a PostgreSQL URL, postgres://user:password@host:port/database (got a value that is not)');
  }

  if (/[{}]/.test(str('REDIS_KEY_PREFIX') ?? '')) problems.push('REDIS_KEY_PREFIX must not contain { or }');

  const kindRaw = str('UPSTREAM_KIND') ?? 'messages';
  let kind: 'messages' | 'bedrock' = 'messages';
  if (kindRaw === 'messages' || kindRaw === 'bedrock') kind = kindRaw;
  else problems.push(`UPSTREAM_KIND must be "messages" or "bedrock" (got "${kindRaw}")`);

  const checkedUrl = (name: string, raw: string | undefined): string | undefined => {
    if (raw === undefined) return undefined;
    try {
      new URL(raw.replaceAll('{region}', 'region'));
    } catch {
      problems.push(`${name} is not a URL (got "${raw}")`);
    }
    return raw;
  };
  const upstreamUrl = checkedUrl('UPSTREAM_URL', str('UPSTREAM_URL'));
  const controlUrl = checkedUrl('UPSTREAM_CONTROL_URL', str('UPSTREAM_CONTROL_URL'));

  const upstreamsFile = ((f) => (f === undefined ? undefined : resolve(cwd, f)))(str('UPSTREAMS_FILE'));
  const upstreams = upstreamsFile === undefined
    ? { [DEFAULT_UPSTREAM]: defaultUpstream(kind, upstreamUrl, str('UPSTREAM_API_KEY'), controlUrl) }
    : readUpstreamsFile(upstreamsFile, problems);

  const trustedProxies = (str('TRUSTED_PROXIES') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const entry of trustedProxies) {
    const problem = allowlistEntryProblem(entry);
    if (problem !== undefined) problems.push(`TRUSTED_PROXIES: ${problem}`);
  }

  const logLevel = str('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.has(logLevel)) problems.push(`LOG_LEVEL must be one of ${[...LOG_LEVELS].join(', ')}`);

  const bootstrapRaw = str('GATEWAY_BOOTSTRAP_DEMO') ?? 'true';
  if (bootstrapRaw !== 'true' && bootstrapRaw !== 'false') problems.push('GATEWAY_BOOTSTRAP_DEMO must be true or false');

  const config: GatewayConfig = {
    host: str('HOST') ?? '0.0.0.0',
    port,
    policyAddr,
    policySocket,
    policyTarget,
    metricsPort,
    metricsHost: str('METRICS_HOST') ?? '0.0.0.0',
    proxyWorkers,
    adminPort: int('ADMIN_PORT', 8081, 0, 65535),
    adminHost: str('ADMIN_HOST') ?? '127.0.0.1',
    dataDir,
    databaseFile: resolve(dataDir, 'gateway.sqlite'),
    databaseUrl,
    redisUrl,
    redisKeyPrefix: str('REDIS_KEY_PREFIX') ?? 'gw:',
    upstream: {
      kind,
      url: upstreamUrl,
      apiKey: str('UPSTREAM_API_KEY'),
      timeoutMs: int('UPSTREAM_TIMEOUT_MS', 600_000, 100, 3_600_000),
      connectTimeoutMs: int('UPSTREAM_CONNECT_TIMEOUT_MS', 5_000, 50, 120_000),
      firstEventTimeoutMs: int('UPSTREAM_FIRST_EVENT_TIMEOUT_MS', 60_000, 50, 3_600_000),
      maxAttempts: int('UPSTREAM_MAX_ATTEMPTS', 3, 1, 10),
      retryBudget: { percent: int('UPSTREAM_RETRY_BUDGET_PERCENT', 20, 0, 100), min: int('UPSTREAM_RETRY_BUDGET_MIN', 10, 0, 1_000_000) },
    },
    upstreams,
    routeHealth: {
      failureThreshold: int('ROUTE_FAILURE_THRESHOLD', 5, 1, 1_000),
      coolDownMs: int('ROUTE_COOL_DOWN_MS', 30_000, 100, 3_600_000),
    },
    trustedProxies,
    logLevel,
    catalogueFile: str('CATALOGUE_FILE'),
    namesModelFile: ((f) => (f === undefined ? undefined : resolve(cwd, f)))(str('NAMES_MODEL')),
    leaseTtlMs: int('LEASE_TTL_MS', 30_000, 1_000, 60_000),
    keyPollMs: int('KEY_POLL_MS', 200, 20, 1_000),
    ledgerWindowMs: int('LEDGER_WINDOW_MS', 20, 0, 5_000),
    bootstrapDemo: bootstrapRaw !== 'false',
    connections: {
      max: int('MAX_CONNECTIONS', 10_000, 1, 1_000_000),
      maxPerSource: int('MAX_CONNECTIONS_PER_SOURCE', 1_000, 1, 1_000_000),
      headersTimeoutMs: int('HEADERS_TIMEOUT_MS', 10_000, 1_000, 600_000),
      requestTimeoutMs: int('REQUEST_TIMEOUT_MS', 120_000, 1_000, 3_600_000),
    },
    drain: {
      timeoutMs: int('DRAIN_TIMEOUT_MS', 30_000, 0, 3_600_000),
      graceMs: int('DRAIN_GRACE_MS', 2_000, 0, 600_000),
    },
    residency: {
      // Routes are verified where a configured upstream's platform has a control plane (Bedrock's).
      verify: Object.values(upstreams).some((u) => u.platform === 'bedrock'),
      verifyIntervalMs: int('RESIDENCY_VERIFY_INTERVAL_MS', 600_000, 1_000, 86_400_000),
      maxAgeMs: int('RESIDENCY_VERIFY_MAX_AGE_MS', 86_400_000, 1_000, 30 * 86_400_000),
      controlUrl,
    },
    attestation: {
      keyFile: resolve(cwd, str('ATTESTATION_KEY_FILE') ?? resolve(dataDir, 'attestation-keys.pem')),
      inDataDir: str('ATTESTATION_KEY_FILE') === undefined,
      retainDays: int('ATTESTATION_KEY_RETAIN_DAYS', 30, 1, 3650),
    },
    tracing: tracingConfig(env, problems),
    signIn: readSignInConfig(env, problems, int),
  };
  if (config.residency.maxAgeMs < config.residency.verifyIntervalMs) {
    problems.push('RESIDENCY_VERIFY_MAX_AGE_MS must not be less than RESIDENCY_VERIFY_INTERVAL_MS (evidence would expire between refreshes)');
  }
  if (config.drain.graceMs > config.drain.timeoutMs) problems.push('DRAIN_GRACE_MS must not be greater than DRAIN_TIMEOUT_MS');
  if (config.connections.headersTimeoutMs > config.connections.requestTimeoutMs) {
    problems.push('HEADERS_TIMEOUT_MS must not be greater than REQUEST_TIMEOUT_MS');
  }

  if (options.service === 'policy') problems.push(...policyServiceProblems(config));

  if (problems.length > 0) throw new ConfigError(problems);
  return deepFreeze(config);
}

/** The one upstream of a deployment without UPSTREAMS_FILE, from the single-upstream variables. */
function defaultUpstream(kind: 'messages' | 'bedrock', url: string | undefined, apiKey: string | undefined, controlUrl: string | undefined): UpstreamSettings {
  return kind === 'bedrock'
    ? { platform: 'bedrock', url, controlUrl, apiKey, awsProfile: undefined }
    : { platform: 'messages', url, apiKey };
}

/** Settings the policy service cannot run with, whatever else is right. */
export function policyServiceProblems(config: Pick<GatewayConfig, 'databaseUrl' | 'redisUrl'>): string[] {
  // Replicas sharing one database must share their counters too: in-process counters would give each replica
  // rate limits, concurrency and allowance of its own, multiplying every limit by the number of replicas.
  return config.databaseUrl !== undefined && config.redisUrl === undefined
    ? ['DATABASE_URL is set but REDIS_URL is not: policy replicas sharing PostgreSQL need one Redis (or Redis Cluster) for their counters, or each replica would enforce the limits on its own. Set REDIS_URL, or unset DATABASE_URL to run one policy process on SQLite.']
    : [];
}

function deepFreeze<T extends object>(o: T): T {
  for (const v of Object.values(o)) {
    if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) deepFreeze(v as object);
  }
  return Object.freeze(o);
}

/** The policy replicas a proxy dials: a fixed list, or every address a DNS name resolves to. */
export type PolicyTarget =
  | { readonly kind: 'list'; readonly addresses: readonly string[] }
  | { readonly kind: 'dns'; readonly host: string; readonly port: number };

const HOST_PORT_RE = /^(\[[0-9a-fA-F:.]+\]|[^:\s,/]+):(\d{1,5})$/;
/** `unix:///absolute/path` (gRPC's spelling of a Unix domain socket); group 1 is the path. */
const UNIX_RE = /^unix:\/\/(\/[^,\s]+)$/;

/** POLICY_TARGET: `host:port`, `unix:///path`, a comma-separated list of them, or `dns:///name:port`; a problem as a sentence. */
export function parsePolicyTarget(raw: string): PolicyTarget | string {
  const dns = /^dns:\/\/\/(.+)$/.exec(raw);
  if (dns !== null) {
    const m = HOST_PORT_RE.exec(dns[1] as string);
    if (m === null || Number(m[2]) > 65535) return `POLICY_TARGET dns:/// must name host:port (got "${raw}")`;
    return { kind: 'dns', host: m[1] as string, port: Number(m[2]) };
  }
  const addresses = raw.split(',').map((a) => a.trim());
  const bad = addresses.filter((a) => {
    if (UNIX_RE.test(a)) return false;
    const m = HOST_PORT_RE.exec(a);
    return m === null || Number(m[2]) > 65535;
  });
  if (bad.length > 0 || addresses.length === 0) return `POLICY_TARGET must be host:port or unix:///path, a comma-separated list of them, or dns:///name:port (got "${raw}")`;
  return { kind: 'list', addresses: [...new Set(addresses)] };
}
