/**
 * Gathers the writes that arrive in one turn of the event loop and applies them in one SQLite transaction:
 * one commit (one WAL sync) for a burst of usage reports instead of one each. Each caller's promise settles
 * once its batch is committed, so an acknowledgement still means "durable".
 */
export class WriteBatcher<T, R> {
  private queue: Array<{ item: T; resolve: (r: R) => void; reject: (e: unknown) => void }> = [];

  /**
   * `applyAll` runs inside one transaction and returns one result per item, in order; `onWritten` hears how
   * long each batch took (seconds).
   */
  constructor(
    private readonly applyAll: (items: T[]) => R[],
    private readonly onWritten: (seconds: number) => void = () => undefined,
  ) {}

  add(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.queue.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.queue;
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
