import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger, PolicyClient, UsageReport } from '@gateway/shared';
import type { UsageSpool } from './usage-spool.js';

/**
 * Delivers usage reports to the policy service. A report that cannot be delivered after a few quick tries goes
 * to the durable spool and is replayed until it is taken; the ledger applies each request id once, so replays
 * never double-count.
 */
export class UsageReporter {
  private readonly pending = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly policy: PolicyClient,
    private readonly spool: UsageSpool,
    private readonly log: Logger,
    private readonly attempts = 3,
  ) {}

  /** Replays the spool now (start-up: reports left by an earlier run) and then every `intervalMs`. */
  start(intervalMs: number): void {
    void this.replay();
    this.timer = setInterval(() => void this.replay(), intervalMs);
    this.timer.unref();
  }

  /** Resolves once the report is delivered or spooled (never rejects). */
  report(r: UsageReport): Promise<void> {
    const p = this.deliver(r).finally(() => this.pending.delete(p));
    this.pending.add(p);
    return p;
  }

  /** Resolves when every report in flight has been delivered or spooled (for shutdown). */
  async drain(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    await Promise.allSettled([...this.pending]);
  }

  private async replay(): Promise<void> {
    try {
      await this.spool.replay(async (r) => {
        await this.policy.reportUsage(r);
      });
    } catch (err) {
      this.log.error({ err }, 'usage spool replay failed');
    }
  }

  private async deliver(r: UsageReport): Promise<void> {
    for (let attempt = 1; attempt <= this.attempts; attempt += 1) {
      try {
        await this.policy.reportUsage(r);
        return;
      } catch (err) {
        if (attempt === this.attempts) {
          this.log.warn({ err, request_id: r.request_id }, 'policy service did not take a usage report; spooling it');
          try {
            await this.spool.append(r);
          } catch (spoolErr) {
            this.log.error({ err: spoolErr, request_id: r.request_id }, 'usage report could not be spooled');
          }
          return;
        }
        await sleep(100 * 2 ** attempt);
      }
    }
  }
}
