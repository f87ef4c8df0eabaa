import * as grpc from '@grpc/grpc-js';
import { freeSocketPath } from './unix-socket.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError, createRegistry, policyServiceProblems, serveMetrics, startTracing, type GatewayConfig, type Logger } from '@gateway/shared';
import { startAdmin } from './admin/start-admin.js';
import { bootstrapDemo } from './bootstrap-demo.js';
import { ModelCatalogue, routesOnUnknownUpstreams } from './catalogue.js';
import { COST_UNITS_PER_GBP } from './billing.js';
import { createCounterStore } from './counters/create-counter-store.js';
import { InstrumentedCounterStore } from './counters/instrumented-counter-store.js';
import type { GatewayStore } from './db/gateway-store.js';
import { LEDGER_WINDOW, usageSourceOf } from './db/ledger-writer.js';
import { openLedgerWriter } from './db/open-ledger-writer.js';
import { openStore } from './db/open-store.js';
import { DecisionService } from './decision-service.js';
import { createPolicyServer } from './grpc-server.js';
import { KeyCache } from './key-cache.js';
import { LastUsedTracker } from './last-used.js';
import { PolicyHealth } from './health.js';
import { PolicyMetrics } from './policy-metrics.js';
import { declaredRegions, unionOfRegions, type RegionsOf } from './models-list.js';
import { ControlPlaneClient, DEFAULT_CONTROL_URL } from './residency/control-plane.js';
import { RouteVerifier, type RouteResolver } from './residency/route-verifier.js';

/** After the sessions have closed, how long RPCs still running may take to answer before the server closes. */
const SHUTDOWN_GRACE_MS = 5_000;

export interface RunningPolicy {
  port: number;
  /** Drains, then closes everything. `graceMs` 0 (the supervisor is gone): no wait for the proxies' streams. */
  stop(options?: { graceMs?: number }): Promise<void>;
}

/** Starts the policy service: database, catalogue, counters, key cache, gRPC server. */
export async function runPolicy(
  config: GatewayConfig,
  log: Logger,
  announce: (line: string) => void,
): Promise<RunningPolicy> {
  const problems = policyServiceProblems(config);
  if (problems.length > 0) throw new ConfigError(problems);
  // Before anything opens a span; with no endpoint configured nothing is started (the API's no-ops stay).
  const tracing = await startTracing(config.tracing, 'gateway-policy', log);
  const store = await openStore(config, { onIdleError: (err) => log.warn({ err }, 'an idle database connection failed; it will be replaced') });
  // Health (the gRPC health service, and the Health RPC behind the proxies' /readyz) follows what a decision needs.
  // On SQLite that is the database file. On PostgreSQL it is not: every replica holds the keys in memory, nothing
  // can change them while PostgreSQL is unreachable, and a usage report whose row cannot be written is kept in the
  // proxy's spool (its units are counted at release all the same), so a database failover must not take every
  // replica out of service (docs/operations.md, "When PostgreSQL is unreachable").
  const decisionDb: Pick<GatewayStore, 'ping'> = store.engine === 'sqlite' ? store : { ping: async () => true };
  const catalogue = config.catalogueFile === undefined ? ModelCatalogue.load() : ModelCatalogue.load(config.catalogueFile);
  const unknownUpstreams = routesOnUnknownUpstreams(catalogue, new Set(Object.keys(config.upstreams)));
  if (unknownUpstreams.length > 0) {
    log.warn({ routes: unknownUpstreams, upstreams: Object.keys(config.upstreams) }, 'catalogue routes name upstreams that are not configured (UPSTREAMS_FILE): those routes are skipped');
  }
  const registry = createRegistry('policy');
  // The gauges read the key cache and the lease book when scraped, after both exist.
  const metrics: PolicyMetrics = new PolicyMetrics(registry, {
    leasesHeld: (): number => counters.leasesHeld(),
    cachedKeys: (): number => keys.size,
    residencyRoutes: () => verifier?.states() ?? [],
  });
  // Bedrock: every route resolved against the platform's control plane; the first round runs while the rest
  // starts, and the proxies stay unready (Health.residency_pending) until every route has had an answer.
  const verifier: RouteVerifier | undefined = config.residency.verify
    ? new RouteVerifier(
        catalogue,
        controlPlanes(config),
        { intervalMs: config.residency.verifyIntervalMs, maxAgeMs: config.residency.maxAgeMs },
        log,
        (kind) => metrics.controlPlaneErrors.inc({ kind }),
      )
    : undefined;
  void verifier?.start();
  // Every ledger write (rows, counted marks, last-used times) is committed off the decision path: on SQLite on the
  // writer's own thread, on PostgreSQL through the pool.
  const writer = await openLedgerWriter(store, log, (seconds) => metrics.ledgerWriteSeconds.observe(seconds), {
    ...LEDGER_WINDOW,
    windowMs: config.ledgerWindowMs,
  });
  const counters: InstrumentedCounterStore = new InstrumentedCounterStore(
    await createCounterStore(config, usageSourceOf(writer, log), log),
    metrics,
  );

  if (config.bootstrapDemo) {
    const demo = await bootstrapDemo(store);
    if (demo !== undefined) {
      announce(
        `Created demo account ${demo.accountId} with a test key (shown once, store it now):\n\n    ${demo.key}\n`,
      );
    }
  }

  const keys = new KeyCache(store, log);
  await keys.start(config.keyPollMs);
  const lastUsed = new LastUsedTracker(
    (batch) => writer.touchKeys(batch),
    (err) => log.warn({ err }, 'writing last-used times failed; will retry'),
  );
  lastUsed.start(5_000);
  const decisions = new DecisionService({
    keys, catalogue, counters, ledger: writer, lastUsed, leaseTtlMs: config.leaseTtlMs, log,
    countersSystem: config.redisUrl === undefined ? 'memory' : 'redis',
    ...(verifier === undefined ? {} : { residency: verifier }),
    onRecorded: (e) => {
      metrics.billableUnits.inc({ model: e.model, environment: e.environment }, e.billable_units);
      if (e.cost_units > 0) metrics.costGbp.inc({ model: e.model }, e.cost_units / COST_UNITS_PER_GBP);
    },
  });
  const regionsOf: RegionsOf = verifier === undefined
    ? declaredRegions(catalogue)
    : (model, tier) => {
        const lists: string[][] = [];
        catalogue.routes(model, tier).forEach((route, i) => {
          const check = verifier.check(model.id, tier, i, route);
          if (check.ok) lists.push(check.route.processing_regions);
        });
        return lists.length === 0 ? [] : unionOfRegions(catalogue, tier, lists);
      };
  const { server, drain, closeStreams, openSessions } = createPolicyServer({
    decisions, metrics, keys, catalogue, usage: store, counters, database: decisionDb, log, regionsOf,
    residencyPending: () => verifier?.pending ?? false,
    residencyRoutes: () => verifier?.states() ?? [],
  });
  const health = new PolicyHealth(decisionDb, counters, log);
  health.addTo(server);

  const bind = (address: string): Promise<number> => new Promise<number>((resolve, reject) => {
    server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (err, bound) => (err === null ? resolve(bound) : reject(err)));
  });
  // TCP always (health probes reach it); a Unix domain socket as well when POLICY_ADDR names one, for the proxies
  // beside this process: no TCP stack between them (docs/benchmarks.md, issue 36).
  const port = await bind(`${config.policyAddr.host}:${config.policyAddr.port}`);
  if (config.policySocket !== undefined) {
    await freeSocketPath(config.policySocket);
    await bind(`unix://${config.policySocket}`);
  }
  // The policy service's /metrics sits on the port after the proxy's (0 stays 0: the OS picks a free port).
  await health.start(1_000);
  const metricsServer = await serveMetrics(registry, config.metricsHost, config.metricsPort === 0 ? 0 : config.metricsPort + 1);
  const adminServer = await startAdmin(config, store, catalogue, counters, log);
  log.info({ port, ...(config.policySocket === undefined ? {} : { socket: config.policySocket }), metrics_port: metricsServer.port, admin_port: adminServer.port, counters: config.redisUrl === undefined ? 'memory' : 'redis', database: store.engine }, 'policy service listening');

  return {
    port,
    async stop(options = {}) {
      // Drain: NOT_SERVING at once, and every proxy's decision stream is told so: the proxies send their new
      // decisions to other replicas and close the stream once what it carries is answered (the usage of their last
      // requests included). The streams are served until then, or until the drain timeout passes.
      const stopStarted = Date.now();
      health.drain();
      drain();
      const deadline = Date.now() + (options.graceMs === 0 ? 0 : config.drain.timeoutMs);
      while (openSessions() > 0 && Date.now() < deadline) await sleep(100);
      closeStreams();
      metricsServer.server.close();
      await adminServer.close();
      // RPCs still running get a few seconds to answer; then the server is closed under them.
      await Promise.race([new Promise<void>((resolve) => server.tryShutdown(() => resolve())), sleep(SHUTDOWN_GRACE_MS)]);
      server.forceShutdown();
      health.stop();
      verifier?.stop();
      keys.stop();
      await lastUsed.stop();
      // The ledger's window is committed before anything that could wait on the network (a quit to a Redis that
      // is down): its writes are the durable record. Counted marks queued while the store closed go in after.
      await writer.flush();
      await counters.close();
      await writer.close();
      await store.close();
      // The last spans go out in what is left of the drain timeout, never past it.
      await tracing.stop(config.drain.timeoutMs - (Date.now() - stopStarted));
    },
  };
}

/**
 * Each route is verified with its own upstream's credentials and control plane, in its call region. Only Bedrock
 * upstreams have one; routes on other platforms (and on upstreams this process does not know) stay declared.
 */
function controlPlanes(config: GatewayConfig): RouteResolver {
  const clients = new Map<string, ControlPlaneClient>();
  for (const [name, u] of Object.entries(config.upstreams)) {
    if (u.platform === 'bedrock') clients.set(name, new ControlPlaneClient(u.controlUrl ?? DEFAULT_CONTROL_URL, u.apiKey, undefined, u.awsProfile));
  }
  return {
    verifiable: (route) => clients.has(route.upstream),
    resolve: (route) => (clients.get(route.upstream) as ControlPlaneClient).resolve(route),
  };
}
