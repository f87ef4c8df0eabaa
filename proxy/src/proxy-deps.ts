import type { GatewayConfig, LineLog, Logger, PolicyClient } from '@gateway/shared';
import type { Attestor } from './attestation/index.js';
import type { WorkerLink } from './cluster/worker-link.js';
import type { Lifecycle } from './drain.js';
import type { Responder } from './exchange.js';
import type { DetectMany } from '@gateway/privacy';
import type { ClientAddressResolver } from './http/client-address.js';
import type { InflightRegistry } from './inflight-registry.js';
import type { ProxyMetrics } from './proxy-metrics.js';
import type { UsageReporter } from './usage-reporter.js';

/** Everything the proxy's routes use, built once in run() and passed down. */
export interface ProxyDeps {
  config: GatewayConfig;
  log: Logger;
  /** the access-log lines (one a request), written in batches: a write(2) per line cost more than the line */
  accessLog: LineLog;
  policy: PolicyClient;
  inflight: InflightRegistry;
  reporter: UsageReporter;
  metrics: ProxyMetrics;
  addresses: ClientAddressResolver;
  /** finds personal data, off the event loop for large requests */
  detectMany: DetectMany;
  /** test keys */
  stub: Responder;
  /** live keys */
  upstream: Responder;
  /** draining after SIGTERM */
  lifecycle: Lifecycle;
  /** signs x-gateway-attestation */
  attestor: Attestor;
  /** as one of PROXY_WORKERS workers: the other workers' readiness (for /readyz); undefined in a single proxy */
  peers: Pick<WorkerLink, 'peers'> | undefined;
}
