/**
 * A per-proxy retry budget: over any 10 s, retries (attempts after a request's first) stay within 20% of the
 * requests, with at least 10 allowed; so a full outage of one route does not double the load on the others.
 * Ten one-second buckets, a ring: O(1) per request.
 */
export class RetryBudget {
  private readonly requests = new Array<number>(10).fill(0);
  private readonly retries = new Array<number>(10).fill(0);
  private second = 0;

  constructor(
    private readonly ratio = 0.2,
    private readonly floor = 10,
    private readonly now: () => number = Date.now,
  ) {}

  /** A request starts (its first attempt). */
  request(): void {
    this.requests[this.slot()]! += 1;
  }

  /** Takes one retry from the budget; false when it is spent. */
  tryRetry(): boolean {
    const i = this.slot();
    const requests = this.requests.reduce((a, b) => a + b, 0);
    const retries = this.retries.reduce((a, b) => a + b, 0);
    if (retries >= Math.max(this.floor, this.ratio * requests)) return false;
    this.retries[i]! += 1;
    return true;
  }

  /** The bucket of the current second, clearing the buckets of the seconds that passed since the last call. */
  private slot(): number {
    const s = Math.floor(this.now() / 1000);
    if (s !== this.second) {
      const gap = Math.min(10, s - this.second);
      for (let k = 1; k <= gap; k += 1) {
        const j = (((this.second + k) % 10) + 10) % 10;
        this.requests[j] = 0;
        this.retries[j] = 0;
      }
      this.second = s;
    }
    return ((s % 10) + 10) % 10;
  }
}
