import type { Logger, PolicyClient, UsageReport } from '@gateway/shared';
import type { UsageSpool } from './usage-spool.js';

/**
 * Delivers usage reports to the policy service. A report it does not take goes to the durable spool and is
 * replayed until it is; the ledger applies each request id once, so replays never double-count.
 */
export class UsageReporter {
  private readonly pending = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private replaying: Promise<void> | undefined;

  constructor(
    private readonly policy: PolicyClient,
    private readonly spool: UsageSpool,
    private readonly log: Logger,
  ) {}

  /**
   * Replays the spool every `intervalMs`, and each time the decision stream (re)opens before it takes a decision
   * (start-up included: reports left by an earlier run).
   */
  start(intervalMs: number): void {
    this.policy.catchUpBeforeDecisions(() => this.catchUp());
    this.timer = setInterval(() => void this.replay(), intervalMs);
    this.timer.unref();
  }

  /** A replay that starts now: one already running may have sent to a stream that has since broken. */
  private async catchUp(): Promise<void> {
    await this.replaying;
    await this.replay();
  }

  /**
   * Hands the report to the policy service: it is on the decision stream of the replica `pin` (the request's API
   * key) is pinned to when this returns (so the lease it frees is free, and its units counted, before that key's
   * next decision on this proxy). Resolves once it is taken or spooled (never rejects). `traceparent`: the request's
   * span (a replay from the spool goes untraced).
   */
  report(r: UsageReport, pin?: string, traceparent?: string): Promise<void> {
    const p = this.deliver(r, this.policy.reportUsage(r, pin, traceparent)).finally(() => this.pending.delete(p));
    this.pending.add(p);
    return p;
  }

  /** Resolves when every report in flight has been delivered or spooled (for shutdown). */
  async drain(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    await Promise.allSettled([...this.pending]);
  }

  private replay(): Promise<void> {
    this.replaying ??= this.spool
      .replay(async (r) => {
        await this.policy.reportUsage(r);
      })
      .then(
        () => undefined,
        (err: unknown) => this.log.error({ err }, 'usage spool replay failed'),
      )
      .finally(() => (this.replaying = undefined));
    return this.replaying;
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
