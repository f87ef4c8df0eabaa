import type { Logger, PolicyClient, UsageReport } from '@gateway/shared';
import type { UsageSpool } from './usage-spool.js';

/**
 * Delivers usage reports to the policy service. A report it does not take goes to the durable spool and is
 * replayed until it is; the ledger applies each request id once, so replays never double-count.
 */
export class UsageReporter {
  private readonly pending = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly policy: PolicyClient,
    private readonly spool: UsageSpool,
    private readonly log: Logger,
  ) {}

  /** Replays the spool now (start-up: reports left by an earlier run) and then every `intervalMs`. */
  start(intervalMs: number): void {
    void this.replay();
    this.timer = setInterval(() => void this.replay(), intervalMs);
    this.timer.unref();
  }

  /**
   * Hands the report to the policy service: it is on the decision stream when this returns (so the lease it
   * frees is free before this proxy's next decision). Resolves once it is taken or spooled (never rejects).
   */
  report(r: UsageReport): Promise<void> {
    const p = this.deliver(r, this.policy.reportUsage(r)).finally(() => this.pending.delete(p));
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

  private async deliver(r: UsageReport, sent: Promise<unknown>): Promise<void> {
    try {
      await sent;
    } catch (err) {
      // Not taken (the stream broke, or the counter store is down): the spool keeps it until a replay is.
      this.log.warn({ err, request_id: r.request_id }, 'policy service did not take a usage report; spooling it');
      try {
        await this.spool.append(r);
      } catch (spoolErr) {
        this.log.error({ err: spoolErr, request_id: r.request_id }, 'usage report could not be spooled');
      }
    }
  }
}
