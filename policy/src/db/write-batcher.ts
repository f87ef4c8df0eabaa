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
 * Gathers the writes that arrive within a short window and hands them on together: one commit (one WAL append and
 * its locks) for a burst of usage reports instead of one each, and, for the ledger's thread, one message there
 * and one back instead of one each way per write. Each caller's promise settles once its batch is committed, so
 * an acknowledgement still means "durable".
 */
export class WriteBatcher<T, R> {
  private queue: Array<{ item: T; resolve: (r: R) => void; reject: (e: unknown) => void }> = [];
  private cancelTimer: (() => void) | undefined;

  /** `applyAll` commits the items in one transaction and gives one result per item, in order. */
  constructor(
    private readonly applyAll: (items: T[]) => R[] | Promise<R[]>,
    private readonly window: BatchWindow,
    private readonly schedule: Schedule = realTimer,
  ) {}

  add(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.queue.length >= this.window.maxItems) void this.flush();
      else if (this.queue.length === 1) this.cancelTimer = this.schedule(() => void this.flush(), this.window.windowMs);
    });
  }

  /**
   * Hands on what is queued now (shutdown; or before a request that must come after these writes); settles once
   * that batch is answered, either way (each write's own promise says which).
   */
  flush(): Promise<void> {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    const batch = this.queue;
    if (batch.length === 0) return Promise.resolve();
    this.queue = [];
    const failed = (err: unknown): void => {
      for (const b of batch) b.reject(err);
    };
    const written = (results: R[]): void => batch.forEach((b, i) => b.resolve(results[i] as R));
    let results: R[] | Promise<R[]>;
    try {
      results = this.applyAll(batch.map((b) => b.item));
    } catch (err) {
      failed(err);
      return Promise.resolve();
    }
    if (Array.isArray(results)) {
      written(results);
      return Promise.resolve();
    }
    return results.then(written, failed);
  }
}
