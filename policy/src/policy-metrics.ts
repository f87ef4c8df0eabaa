import { Counter, Histogram, type Registry } from 'prom-client';

/** The policy service's metrics, on the one registry of the process; labels stay low-cardinality. */
export class PolicyMetrics {
  readonly decisions: Counter<'operation' | 'outcome'>;
  readonly decisionSeconds: Histogram<'operation'>;
  readonly usageReports: Counter<'result'>;

  constructor(registry: Registry) {
    this.decisions = new Counter({
      name: 'gateway_policy_decisions_total',
      help: 'Decisions made, by operation and outcome (allow, or the error type of the refusal).',
      labelNames: ['operation', 'outcome'],
      registers: [registry],
    });
    this.decisionSeconds = new Histogram({
      name: 'gateway_policy_decision_duration_seconds',
      help: 'Time to make one decision, counters included.',
      labelNames: ['operation'],
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5],
      registers: [registry],
    });
    this.usageReports = new Counter({
      name: 'gateway_policy_usage_reports_total',
      help: 'Usage reports received: recorded, or replay (already in the ledger).',
      labelNames: ['result'],
      registers: [registry],
    });
  }
}
