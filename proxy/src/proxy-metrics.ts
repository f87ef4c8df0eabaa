import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** The proxy's metrics, all on the one registry of the process; labels stay low-cardinality. */
export class ProxyMetrics {
  readonly requests: Counter<'route' | 'status' | 'environment'>;
  readonly duration: Histogram<'route' | 'stream'>;
  readonly inflight: Gauge;
  readonly tokens: Counter<'model' | 'kind' | 'environment'>;
  readonly pii: Counter<'type' | 'mode'>;
  readonly policyErrors: Counter<'rpc'>;

  constructor(registry: Registry) {
    this.requests = new Counter({
      name: 'gateway_requests_total',
      help: 'Requests answered, by route, HTTP status and key environment.',
      labelNames: ['route', 'status', 'environment'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'gateway_request_duration_seconds',
      help: 'Time from request to the end of the response.',
      labelNames: ['route', 'stream'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers: [registry],
    });
    this.inflight = new Gauge({
      name: 'gateway_inflight_requests',
      help: 'Message requests being served now.',
      registers: [registry],
    });
    this.tokens = new Counter({
      name: 'gateway_tokens_total',
      help: 'Tokens metered, by model alias, kind (input, output, cache_write, cache_read) and environment.',
      labelNames: ['model', 'kind', 'environment'],
      registers: [registry],
    });
    this.pii = new Counter({
      name: 'gateway_pii_detections_total',
      help: 'Personal data values found in requests, by type and privacy mode (values are never recorded).',
      labelNames: ['type', 'mode'],
      registers: [registry],
    });
    this.policyErrors = new Counter({
      name: 'gateway_policy_errors_total',
      help: 'Calls to the policy service that failed.',
      labelNames: ['rpc'],
      registers: [registry],
    });
  }
}
