import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger, PolicyClient, UsageReport } from '@gateway/shared';

/**
 * Sends usage reports to the policy service, retrying with backoff: the ledger applies each request id once,
 * so a retry never double-counts. (A durable local spool for long policy outages comes with live upstreams.)
 */
export class UsageReporter {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly policy: PolicyClient,
    private readonly log: Logger,
    private readonly attempts = 8,
  ) {}

  report(r: UsageReport): void {
    const p = this.send(r).finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  /** Resolves when every report in flight has been delivered or given up on (for shutdown). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  private async send(r: UsageReport): Promise<void> {
    for (let attempt = 1; attempt <= this.attempts; attempt += 1) {
      try {
        await this.policy.reportUsage(r);
        return;
      } catch (err) {
        if (attempt === this.attempts) {
          this.log.error({ err, request_id: r.request_id }, 'usage report could not be delivered');
          return;
        }
        await sleep(Math.min(5_000, 100 * 2 ** attempt));
      }
    }
  }
}
