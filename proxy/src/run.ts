import { createServer, type Server } from 'node:http';
import { availableParallelism } from 'node:os';
import type { AddressInfo } from 'node:net';
import { createRegistry, randomBase62, serveMetrics, shareMetricsWithPrimary, startTracing, type GatewayConfig, type LineLog, type Logger, type PolicyClient } from '@gateway/shared';
import { createApp } from './app.js';
import { WorkerLink } from './cluster/worker-link.js';
import { AttestationKeyRing, Attestor } from './attestation/index.js';
import { drain, Lifecycle } from './drain.js';
import { GrpcPolicyClient } from './grpc-policy-client.js';
import { ClientAddressResolver } from './http/client-address.js';
import { answerParserErrors } from './http/client-error.js';
import { httpServerOptions, limitConnections } from './http/connection-limits.js';
import { InflightRegistry } from './inflight-registry.js';
import { ProxyMetrics } from './proxy-metrics.js';
import { StubResponder } from './stub/stub-responder.js';
import { RetryBudget } from './upstream/retry-budget.js';
import { RouteHealth } from './upstream/route-health.js';
import { RouteLoop } from './upstream/route-loop.js';
import { UpstreamRegistry } from './upstream/upstream-registry.js';
import { openNameModel, SHIPPED_NAME_MODEL_FILE, useNameModel } from '@gateway/privacy';
import { DetectorPool } from './privacy/detector-pool.js';
import { UsageReporter } from './usage-reporter.js';
import { UsageSpool } from './usage-spool.js';

export interface RunningProxy {
  port: number;
  metricsPort: number;
  /** Drains (CONTRACT.md: SIGTERM), then closes everything. `graceMs` 0: stop listening at once. */
  stop(options?: { graceMs?: number }): Promise<void>;
}

/** Set when this proxy is one of PROXY_WORKERS cluster workers (cluster/primary.ts). */
export interface WorkerRole {
  /** how many workers share the port (this one included) */
  workers: number;
}

/**
 * Starts the proxy: policy client, metrics, in-flight tracking, HTTP server. As a cluster worker it serves no
 * `/metrics` of its own (the primary answers for all workers) and its /readyz also asks about the others.
 */
export async function runProxy(config: GatewayConfig, log: Logger, accessLog: LineLog, role?: WorkerRole): Promise<RunningProxy> {
  // First, before anything listens: without its person-name model the proxy would serve with privacy weaker than
  // shipped, so a missing or corrupt file stops the start (NameModelError says which file and what to do).
  const names = openNameModel(config.namesModelFile ?? SHIPPED_NAME_MODEL_FILE);
  const nameModel = names.model;
  useNameModel(nameModel);
  // What an operator (and their lawyer) must know of the model that runs: which profile, on what terms. A model
  // not of the commercial profile (a research build NAMES_MODEL names, or one stating no profile) is a warning:
  // its terms may forbid the use the gateway is put to.
  log[names.profile === 'commercial' ? 'info' : 'warn'](
    { names_model: names.file, names_model_sha256: names.sha256, profile: names.profile, terms: names.terms, notice: names.notice },
    'person-name model loaded',
  );
  // Then: without a key to sign with, the proxy does not start.
  const keyRing = await AttestationKeyRing.open(config.attestation, log);
  keyRing.start();
  // Before anything opens a span; with no endpoint configured nothing is started (the API's no-ops stay).
  const tracing = await startTracing(config.tracing, 'gateway-proxy', log);
  const registry = createRegistry('proxy');
  const policy: PolicyClient = new GrpcPolicyClient(config.policyTarget, log);
  const spool = new UsageSpool(config.dataDir, log, randomBase62(8));
  const metrics = new ProxyMetrics(registry, () => spool.waitingReports);
  const inflight = new InflightRegistry(policy, log, () => metrics.revocationCuts.inc());
  inflight.start(config.leaseTtlMs);
  const reporter = new UsageReporter(policy, spool, log);
  reporter.start(1_000);
  // One detector thread per spare core (at least one): large requests are scanned there. Workers share the cores.
  const detectors = new DetectorPool(
    Math.max(1, Math.floor(availableParallelism() / (role?.workers ?? 1)) - 1),
    (err) => log.error({ err }, 'a detector thread failed; replacing it'),
    nameModel,
  );
  const lifecycle = new Lifecycle();
  const link = role === undefined ? undefined : new WorkerLink(async () => !lifecycle.draining && (await policy.readiness()).ready);
  // Routes: live keys through their upstreams with per-route health and a retry budget; test keys through the
  // same loop with the stub on every route (so a failover rehearses headers, log line and attestation alike).
  const upstreams = new UpstreamRegistry(config, log);
  const health = new RouteHealth(config.routeHealth, metrics.routeState);
  metrics.routeStateSource = () => health.refreshGauge();
  const stub = new StubResponder();
  const app = createApp({
    lifecycle,
    config,
    log,
    accessLog,
    policy,
    inflight,
    reporter,
    metrics,
    addresses: new ClientAddressResolver(config.trustedProxies),
    detectMany: detectors.detectMany,
    stub: new RouteLoop({ registry: upstreams, maxAttempts: config.upstream.maxAttempts, responderFor: () => stub }),
    upstream: new RouteLoop({
      registry: upstreams,
      maxAttempts: config.upstream.maxAttempts,
      responderFor: (name) => upstreams.get(name)?.responder,
      health,
      budget: new RetryBudget(config.upstream.retryBudget.percent / 100, config.upstream.retryBudget.min),
      metrics,
    }),
    attestor: new Attestor(keyRing, log, names.sha256),
    peers: link,
  });

  const server: Server = createServer(httpServerOptions(config), app);
  limitConnections(server, config, log);
  answerParserErrors(server, log);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const target = config.policyTarget;
  const policyAt = target.kind === 'list' ? target.addresses.join(',') : `dns:///${target.host}:${target.port}`;
  let metricsServer: { server: Server; port: number } | undefined;
  if (link === undefined) {
    metricsServer = await serveMetrics(registry, config.metricsHost, config.metricsPort);
    log.info({ port, metrics_port: metricsServer.port, policy: policyAt }, 'proxy listening');
  } else {
    shareMetricsWithPrimary(registry);
    link.start();
    log.info({ port, policy: policyAt }, 'proxy worker started');
  }

  return {
    port,
    metricsPort: metricsServer?.port ?? config.metricsPort,
    async stop(options = {}) {
      const stopStarted = Date.now();
      const graceMs = options.graceMs ?? config.drain.graceMs;
      if (graceMs === 0) metricsServer?.server.close();
      await drain({ server, lifecycle, inflight, reporter, log, timeoutMs: config.drain.timeoutMs, graceMs });
      inflight.stop();
      keyRing.stop();
      metricsServer?.server.close();
      link?.stop();
      policy.close();
      await detectors.close();
      // The spans of the last requests go out in what is left of the drain timeout, never past it.
      await tracing.stop(config.drain.timeoutMs - (Date.now() - stopStarted));
    },
  };
}
