import { Worker } from 'node:worker_threads';
import { detectAll, type Finding, type NameModel } from '@gateway/privacy';

/** Below this many characters a request is scanned in place: handing it to a thread would cost more. */
const INLINE_CHARS = 64 * 1024;

interface Pending {
  worker: Worker;
  resolve: (f: Finding[][]) => void;
  reject: (e: Error) => void;
}

/**
 * Worker threads that run the PII detector, so scanning a large request never stalls the proxy's event loop
 * (health checks, other requests and streams keep flowing). Small requests are scanned in place.
 */
export class DetectorPool {
  private readonly workers: Worker[] = [];
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private seq = 0;
  private closed = false;

  /** `nameModel`: the checked person-name model the threads share (undefined: each loads the shipped one). */
  constructor(
    size: number,
    private readonly onError: (err: Error) => void = () => undefined,
    private readonly nameModel?: NameModel,
  ) {
    for (let i = 0; i < Math.max(1, size); i += 1) this.spawn();
  }

  readonly detectMany = (texts: string[]): Promise<Finding[][]> => {
    let total = 0;
    for (const t of texts) total += t.length;
    if (total < INLINE_CHARS) return Promise.resolve(detectAll(texts));
    // No thread at the moment (one is being replaced): scan in place rather than wait.
    if (this.workers.length === 0) return Promise.resolve(detectAll(texts));
    const id = (this.seq += 1);
    const worker = this.workers[this.next % this.workers.length] as Worker;
    this.next += 1;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { worker, resolve, reject });
      worker.postMessage({ id, texts });
    });
  };

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.pending.values()) p.reject(new Error('detector pool closed'));
    this.pending.clear();
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private spawn(): void {
    const worker = new Worker(new URL('./detector-worker.js', import.meta.url), { workerData: { nameModel: this.nameModel } });
    worker.unref();
    worker.on('message', (msg: { id: number; findings: Finding[][] }) => {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      p?.resolve(msg.findings);
    });
    worker.on('error', (err) => {
      // A crashed thread fails what it held and is replaced; the requests are answered with a 500.
      for (const [id, p] of this.pending) {
        if (p.worker !== worker) continue;
        this.pending.delete(id);
        p.reject(err);
      }
      const i = this.workers.indexOf(worker);
      if (i !== -1) this.workers.splice(i, 1);
      this.onError(err);
      // Replaced after a pause, so a thread that cannot start does not spin.
      if (!this.closed) setTimeout(() => this.spawn(), 1_000).unref();
    });
    this.workers.push(worker);
  }
}
