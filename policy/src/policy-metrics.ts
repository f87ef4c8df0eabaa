import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { refusalReason } from '@gateway/shared';
import type { RouteState } from './residency/route-verifier.js';

/** Sub-millisecond to a second: one decision, one counter-store call, one ledger batch. */
const FAST_BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1];

/** The `reason` label of a refused decision: the shared refusal reasons, `other` for anything else. */
export function decisionReason(code: string): string {
  return refusalReason(code) ?? 'other';
}

/**
 * The policy service's metrics (CONTRACT.md "Operating it"), on the one registry of the process. Labels stay
 * low-cardinality: operations, outcomes, reasons, counter-store operations, catalogue model aliases, environments.
 */
export class PolicyMetrics {
  readonly decisions: Counter<'operation' | 'outcome' | 'reason'>;
  readonly decisionSeconds: Histogram<'operation'>;
  readonly usageReports: Counter<'result'>;
  readonly counterStoreSeconds: Histogram<'op'>;
  readonly counterStoreErrors: Counter<'op'>;
  readonly ledgerWriteSeconds: Histogram;
  readonly billableUnits: Counter<'model' | 'environment'>;
  readonly costGbp: Counter<'model'>;
  readonly controlPlaneErrors: Counter<'kind'>;

  constructor(registry: Registry, sources: { leasesHeld: () => number; cachedKeys: () => number; residencyRoutes?: () => RouteState[] }) {
    const registers = [registry];
    this.decisions = new Counter({
      name: 'gateway_policy_decisions_total',
      help: 'Decisions made, by operation, outcome (allow, deny) and reason of a refusal (auth, ip, model, residency, rate, concurrency, quota, invalid, unavailable; none when allowed).',
      labelNames: ['operation', 'outcome', 'reason'],
      registers,
    });
    this.decisionSeconds = new Histogram({
      name: 'gateway_policy_decision_duration_seconds',
      help: 'Time to make one decision, counters included.',
      labelNames: ['operation'],
      buckets: FAST_BUCKETS,
      registers,
    });
    this.usageReports = new Counter({
      name: 'gateway_policy_usage_reports_total',
      help: 'Usage reports received: recorded, or replay (already in the ledger).',
      labelNames: ['result'],
      registers,
    });
    this.counterStoreSeconds = new Histogram({
      name: 'gateway_policy_counter_store_duration_seconds',
      help: 'Time of one counter-store call (Redis round trip, or in-process), by operation.',
      labelNames: ['op'],
      buckets: FAST_BUCKETS,
      registers,
    });
    this.counterStoreErrors = new Counter({
      name: 'gateway_policy_counter_store_errors_total',
      help: 'Counter-store calls that failed (Redis down or too slow), by operation: such decisions are refused with 503.',
      labelNames: ['op'],
      registers,
    });
    new Gauge({
      name: 'gateway_policy_leases_held',
      help: 'Concurrency leases this policy service granted that are neither released nor expired.',
      registers,
      collect() {
        this.set(sources.leasesHeld());
      },
    });
    this.ledgerWriteSeconds = new Histogram({
      name: 'gateway_policy_ledger_write_duration_seconds',
      help: 'Time of one ledger write transaction (a batch of usage reports) in SQLite.',
      buckets: FAST_BUCKETS,
      registers,
    });
    new Gauge({
      name: 'gateway_policy_key_cache_keys',
      help: 'API keys held in the policy service\'s key cache.',
      registers,
      collect() {
        this.set(sources.cachedKeys());
      },
    });
    this.billableUnits = new Counter({
      name: 'gateway_billable_units_total',
      help: 'Billable units recorded in the ledger, by model alias and environment (test traffic is recorded, never billed).',
      labelNames: ['model', 'environment'],
      registers,
    });
    this.costGbp = new Counter({
      name: 'gateway_cost_gbp_total',
      help: 'Cost of live usage recorded in the ledger, in GBP, by model alias.',
      labelNames: ['model'],
      registers,
    });
    // Route verification (Bedrock deployments): one series per catalogue route, none where nothing is verified.
    const routes = sources.residencyRoutes ?? ((): RouteState[] => []);
    new Gauge({
      name: 'gateway_residency_route_verified',
      help: 'Whether a route is served (1): its last resolution against the platform put every destination inside the tier, and is younger than RESIDENCY_VERIFY_MAX_AGE_MS.',
      labelNames: ['model', 'tier'],
      registers,
      collect() {
        for (const r of routes()) this.set({ model: r.model, tier: r.tier }, r.verified ? 1 : 0);
      },
    });
    new Gauge({
      name: 'gateway_residency_evidence_age_seconds',
      help: 'Seconds since a route was last resolved against the platform\'s control plane (absent until it was).',
      labelNames: ['model', 'tier'],
      registers,
      collect() {
        this.reset();
        for (const r of routes()) if (r.ageSeconds !== null) this.set({ model: r.model, tier: r.tier }, r.ageSeconds);
      },
    });
    this.controlPlaneErrors = new Counter({
      name: 'gateway_residency_control_plane_errors_total',
      help: 'Route resolutions that failed, by kind: unavailable, unauthorised (credentials or IAM: alerts at once), not_found, invalid.',
      labelNames: ['kind'],
      registers,
    });
  }
}
