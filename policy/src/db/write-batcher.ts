/** When a batch is written: `windowMs` after its first write was queued, or at once when `maxItems` are queued. */
export interface BatchWindow {
  windowMs: number;
  maxItems: number;
}

/** Runs `fn` after `ms`; returns what cancels it. The seam through which a test drives the window's clock. */
export type Schedule = (fn: () => void, ms: number) => () => void;

const realTimer: Schedule = (fn, ms) => {
  const timer = setTimeout(fn, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

interface Queued<T, R> {
  item: T;
  resolve: (r: R) => void;
  reject: (e: unknown) => void;
}

interface Batch<T, R> {
  writes: Array<Queued<T, R>>;
  /** Settles once the batch is answered, either way (each write's own promise says which). */
  answered: Promise<void>;
  settle: () => void;
}

/**
 * Gathers the writes that arrive within a short window and hands them on together: one commit (one WAL append and
 * its locks) for a burst of usage reports instead of one each, and, for the ledger's thread, one message there
 * and one back instead of one each way per write. Each caller's promise settles once its batch is committed, so
 * an acknowledgement still means "durable". Batches are handed on one at a time, in order: a window is committed
 * only after the window before it has been answered.
 */
export class WriteBatcher<T, R> {
  private queue: Array<Queued<T, R>> = [];
  private cancelTimer: (() => void) | undefined;
  /** Closed windows waiting for the one being committed. */
  private readonly closed: Array<Batch<T, R>> = [];
  private committing: Batch<T, R> | undefined;

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
   * that batch and every batch before it is answered, either way.
   */
  flush(): Promise<void> {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    if (this.queue.length > 0) {
      let settle = (): void => undefined;
      const answered = new Promise<void>((resolve) => {
        settle = resolve;
      });
      this.closed.push({ writes: this.queue, answered, settle });
      this.queue = [];
      this.next();
    }
    return (this.closed.at(-1) ?? this.committing)?.answered ?? Promise.resolve();
  }

  /** What is not yet answered, in order: the batch being committed, the closed windows, then the open one. */
  waiting(): T[] {
    const batches = this.committing === undefined ? this.closed : [this.committing, ...this.closed];
    return [...batches.flatMap((b) => b.writes), ...this.queue].map((q) => q.item);
  }

  private next(): void {
    if (this.committing !== undefined) return;
    const batch = this.closed.shift();
    if (batch === undefined) return;
    this.committing = batch;
    let results: R[] | Promise<R[]>;
    try {
      results = this.applyAll(batch.writes.map((q) => q.item));
    } catch (err) {
      return this.answer(batch, { err });
    }
    if (Array.isArray(results)) return this.answer(batch, { results });
    results.then(
      (r) => this.answer(batch, { results: r }),
      (err: unknown) => this.answer(batch, { err }),
    );
  }

  private answer(batch: Batch<T, R>, outcome: { results: R[] } | { err: unknown }): void {
    this.committing = undefined;
    if ('results' in outcome) batch.writes.forEach((q, i) => q.resolve(outcome.results[i] as R));
    else for (const q of batch.writes) q.reject(outcome.err);
    batch.settle();
    this.next();
  }
}
