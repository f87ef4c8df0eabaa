import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Sub-millisecond to a second: what the gateway itself adds to a request. */
const OVERHEAD_BUCKETS = [0.0001, 0.00025, 0.0005, 0.00075, 0.001, 0.0015, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
/** Whole requests: milliseconds (stubs, refusals) to many minutes (long generations). */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];
/** Time to first token: the OpenTelemetry GenAI semantic conventions' advice, widened at the low end. */
const TTFT_BUCKETS = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** Tokens per request: the OpenTelemetry GenAI advice (powers of 4). */
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304];

/**
 * The proxy's metrics (CONTRACT.md "Operating it"), all on the one registry of the process. Labels hold only
 * fixed sets (routes, statuses, environments, error types, reasons) and catalogue model aliases: never a key
 * id, an account id, an address or anything a request carried.
 */
export class ProxyMetrics {
  readonly requests: Counter<'route' | 'status' | 'environment'>;
  readonly duration: Histogram<'route' | 'stream'>;
  readonly overhead: Histogram<'route'>;
  readonly refusals: Counter<'error_type' | 'reason'>;
  readonly inflight: Gauge<'environment'>;
  readonly tokens: Counter<'model' | 'kind' | 'environment'>;
  readonly revocationCuts: Counter;
  readonly pii: Counter<'type' | 'mode'>;
  readonly policyErrors: Counter<'rpc'>;
  readonly genAiDuration: Histogram<'gen_ai_request_model' | 'gen_ai_operation_name' | 'error_type'>;
  readonly genAiTimeToFirstToken: Histogram<'gen_ai_request_model'>;
  readonly genAiTokenUsage: Histogram<'gen_ai_request_model' | 'gen_ai_token_type'>;
  readonly upstreamAttempts: Counter<'upstream' | 'platform' | 'call_region' | 'outcome'>;
  readonly upstreamFailovers: Counter<'tier'>;
  readonly routeState: Gauge<'upstream' | 'platform' | 'call_region'>;
  /** Refreshes gateway_route_state at each scrape (an open route turns half-open with time alone). */
  routeStateSource: (() => void) | undefined;

  constructor(registry: Registry, spoolReports: () => number) {
    const registers = [registry];
    this.requests = new Counter({
      name: 'gateway_requests_total',
      help: 'Requests answered, by route, HTTP status and key environment (live, test, none).',
      labelNames: ['route', 'status', 'environment'],
      registers,
    });
    this.duration = new Histogram({
      name: 'gateway_request_duration_seconds',
      help: 'Time from request to the end of the response.',
      labelNames: ['route', 'stream'],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    this.overhead = new Histogram({
      name: 'gateway_overhead_seconds',
      help: 'Time spent in the gateway (authentication, decision, privacy step, reporting), the upstream wait excluded.',
      labelNames: ['route'],
      buckets: OVERHEAD_BUCKETS,
      registers,
    });
    this.refusals = new Counter({
      name: 'gateway_refusals_total',
      help: 'Requests the gateway refused, by vendor error type and reason (auth, ip, model, residency, rate, concurrency, quota, invalid, unavailable).',
      labelNames: ['error_type', 'reason'],
      registers,
    });
    this.inflight = new Gauge({
      name: 'gateway_inflight_requests',
      help: 'Message requests being served now, by key environment.',
      labelNames: ['environment'],
      registers,
    });
    this.tokens = new Counter({
      name: 'gateway_tokens_total',
      help: 'Tokens metered, by model alias, kind (input, output, cache_write, cache_read) and environment.',
      labelNames: ['model', 'kind', 'environment'],
      registers,
    });
    new Gauge({
      name: 'gateway_usage_spool_reports',
      help: 'Usage reports waiting in this proxy\'s durable spool for the policy service to take them.',
      registers,
      collect() {
        this.set(spoolReports());
      },
    });
    this.revocationCuts = new Counter({
      name: 'gateway_revocation_cuts_total',
      help: 'Requests in flight cut because their key was revoked or expired.',
      registers,
    });
    this.pii = new Counter({
      name: 'gateway_pii_detections_total',
      help: 'Personal data values found in requests, by type and privacy mode (values are never recorded).',
      labelNames: ['type', 'mode'],
      registers,
    });
    this.policyErrors = new Counter({
      name: 'gateway_policy_errors_total',
      help: 'Calls to the policy service that failed.',
      labelNames: ['rpc'],
      registers,
    });
    this.genAiDuration = new Histogram({
      name: 'gen_ai_server_request_duration_seconds',
      help: 'OpenTelemetry GenAI: duration of admitted model requests, by model, operation and error type ("" when none).',
      labelNames: ['gen_ai_request_model', 'gen_ai_operation_name', 'error_type'],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    this.genAiTimeToFirstToken = new Histogram({
      name: 'gen_ai_server_time_to_first_token_seconds',
      help: 'OpenTelemetry GenAI: time from the request to the first content_block_delta sent to the client (streams).',
      labelNames: ['gen_ai_request_model'],
      buckets: TTFT_BUCKETS,
      registers,
    });
    this.genAiTokenUsage = new Histogram({
      name: 'gen_ai_client_token_usage',
      help: 'OpenTelemetry GenAI: tokens per admitted request, by model and token type (input, output).',
      labelNames: ['gen_ai_request_model', 'gen_ai_token_type'],
      buckets: TOKEN_BUCKETS,
      registers,
    });
  
    this.upstreamAttempts = new Counter({
      name: 'gateway_upstream_attempts_total',
      help: 'Upstream attempts of live requests, by named upstream, platform, call region and outcome (served, throttled, unavailable, timeout, refused, auth, not_found, client_error).',
      labelNames: ['upstream', 'platform', 'call_region', 'outcome'],
      registers,
    });
    this.upstreamFailovers = new Counter({
      name: 'gateway_upstream_failovers_total',
      help: 'Live requests moved on to their next route (inside the key\'s tier), by tier.',
      labelNames: ['tier'],
      registers,
    });
    this.routeState = new Gauge({
      name: 'gateway_route_state',
      help: 'This proxy\'s view of each route: 0 closed, 1 half-open, 2 open (the worst of the route\'s models).',
      labelNames: ['upstream', 'platform', 'call_region'],
      registers,
      // Several workers each keep their own view: the pod's is the worst of them (counters, histograms, in-flight
      // and spool gauges are summed).
      aggregator: 'max',
      collect: () => this.routeStateSource?.(),
    });
  }
}
