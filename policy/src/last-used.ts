/**
 * Last-used time per key, kept in memory and written in batches: at most once a minute per key, and never
 * inside a decision.
 */
export class LastUsedTracker {
  private readonly pending = new Map<string, number>();
  private readonly written = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly write: (batch: ReadonlyMap<string, number>) => void | Promise<void>,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  touch(keyId: string, nowMs: number): void {
    const last = this.written.get(keyId);
    if (last !== undefined && nowMs - last < 60_000) return;
    this.pending.set(keyId, nowMs);
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  /** Writes what is pending; a batch whose write fails stays pending for the next flush (a busy database, say). */
  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = new Map(this.pending);
    try {
      await this.write(batch);
    } catch (err) {
      this.onError(err);
      return;
    }
    for (const [id, ms] of batch) {
      this.written.set(id, ms);
      if (this.pending.get(id) === ms) this.pending.delete(id);
    }
  }

  stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    return this.flush();
  }
}
