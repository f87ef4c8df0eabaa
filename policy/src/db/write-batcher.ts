/** When a batch is written: `windowMs` after its first write was queued, or at once when `maxItems` are queued. */
export interface BatchWindow {
  windowMs: number;
  maxItems: number;
}

/** Runs `fn` after `ms`; returns what cancels it. The seam through which a test drives the window's clock. */
export type Schedule = (fn: () => void, ms: number) => () => void;

const realTimer: Schedule = (fn, ms) => {
  const timer = setTimeout(fn, ms);
  return () => clearTimeout(timer);
};

/**
 * Gathers the writes that arrive within a short window and applies them in one SQLite transaction: one commit
 * (one WAL append and its locks) for a burst of usage reports instead of one each. Each caller's promise
 * settles once its batch is committed, so an acknowledgement still means "durable".
 */
export class WriteBatcher<T, R> {
  private queue: Array<{ item: T; resolve: (r: R) => void; reject: (e: unknown) => void }> = [];
  private cancelTimer: (() => void) | undefined;

  /**
   * `applyAll` runs inside one transaction and returns one result per item, in order; `onWritten` hears how
   * long each batch took (seconds).
   */
  constructor(
    private readonly applyAll: (items: T[]) => R[],
    private readonly window: BatchWindow,
    private readonly onWritten: (seconds: number) => void = () => undefined,
    private readonly schedule: Schedule = realTimer,
  ) {}

  add(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.queue.length >= this.window.maxItems) this.flush();
      else if (this.queue.length === 1) this.cancelTimer = this.schedule(() => this.flush(), this.window.windowMs);
    });
  }

  /** What waits for the window now, oldest first. */
  queued(): T[] {
    return this.queue.map((q) => q.item);
  }

  /** Writes what is queued now (shutdown, before the database closes). */
  flush(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    let results: R[];
    const started = performance.now();
    try {
      results = this.applyAll(batch.map((b) => b.item));
      this.onWritten((performance.now() - started) / 1000);
    } catch (err) {
      for (const b of batch) b.reject(err);
      return;
    }
    batch.forEach((b, i) => b.resolve(results[i] as R));
  }
}
