import { Worker } from 'node:worker_threads';
import type { Logger } from '@gateway/shared';
import type { LedgerSeed } from '../counters/counter-store.js';
import type { LedgerWrite, LedgerWriteResult, RowState } from './ledger-statements.js';
import { toWire, type LedgerWorkerData, type LedgerWorkerReply, type LedgerWorkerRequest } from './ledger-worker-protocol.js';
import type { LedgerEntry } from './usage-ledger.js';
import { LEDGER_WINDOW, type LedgerWriter } from './ledger-writer.js';
import { WriteBatcher, type BatchWindow } from './write-batcher.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

interface Waiter {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

/**
 * The usage ledger's writes on SQLite, committed on a thread of their own (ledger-worker.ts) with its own
 * connection: report rows, counted marks and last-used times. The window is kept here: a window's writes go to
 * the thread in one message and come back answered in one, committed in one transaction (each postMessage costs
 * the decision thread 7-12 µs however small; a row in a batch of 16 adds 1.3-2.2 µs). Each promise
 * settles once its write is committed, so an acknowledgement still means "durable". Should the thread die, what
 * it held fails (the reports are retried from the proxies' spools) and the next write starts a new one.
 */
export class SqliteLedgerWriter implements LedgerWriter {
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiter>();
  private readonly batch: WriteBatcher<LedgerWrite, LedgerWriteResult>;
  private nextId = 1;
  /** No more writes are taken; what is queued is still committed. */
  private closing = false;
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly log: Logger,
    /** Hears the duration (seconds) of each committed window. */
    private readonly onWritten: (seconds: number) => void = () => undefined,
    window: BatchWindow = LEDGER_WINDOW,
  ) {
    this.batch = new WriteBatcher((writes) => this.send({ op: 'commit', writes: writes.map(toWire) }) as Promise<LedgerWriteResult[]>, window);
  }

  /** Starts the thread now rather than at the first write. */
  start(): void {
    this.thread();
  }

  /** Writes a report's row once per request id; resolves, once committed, with the row as the report found it. */
  record(entry: LedgerEntry): Promise<RowState> {
    return this.write({ kind: 'record', entry }) as Promise<RowState>;
  }

  /** Marks a row counted by `by` (an attempt id, or 1 for a rebuild) unless it is counted already; who counts it. */
  markCounted(requestId: string, by: number): Promise<number> {
    return this.write({ kind: 'mark', requestId, by }) as Promise<number>;
  }

  /** Last-used times of keys (written at most once a minute per key). */
  async touchKeys(lastUsed: ReadonlyMap<string, number>): Promise<void> {
    if (lastUsed.size > 0) await this.write({ kind: 'touch', lastUsed: [...lastUsed] });
  }

  /** The figure a lost used counter is rebuilt from: what waits in the window is committed first. */
  async seed(accountId: string, startMs: number, endMs: number): Promise<LedgerSeed> {
    await this.batch.flush();
    return this.send({ op: 'seed', accountId, startMs, endMs }) as Promise<LedgerSeed>;
  }

  /** Commits what waits for its window now. */
  async flush(): Promise<void> {
    await this.batch.flush();
  }

  /** Commits what waits, then closes the connection and ends the thread. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    // Answered (either way) before the close goes: the thread handles nothing after it.
    await this.batch.flush();
    this.closed = true;
    const worker = this.worker;
    if (worker !== undefined) {
      await this.send({ op: 'close' }, worker);
      await worker.terminate();
      this.worker = undefined;
    }
  }

  private write(write: LedgerWrite): Promise<LedgerWriteResult> {
    if (this.closing) return Promise.reject(new Error('the ledger writer is closed'));
    return this.batch.add(write);
  }

  private send(req: DistributiveOmit<LedgerWorkerRequest, 'id'>, worker = this.thread()): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ ...req, id } as LedgerWorkerRequest);
    });
  }

  private thread(): Worker {
    if (this.closed) throw new Error('the ledger writer is closed');
    if (this.worker !== undefined) return this.worker;
    const data: LedgerWorkerData = { file: this.file };
    const worker = new Worker(new URL('./ledger-worker.js', import.meta.url), { workerData: data });
    worker.on('message', (reply: LedgerWorkerReply) => {
      const w = this.waiting.get(reply.id);
      if (w === undefined) return;
      this.waiting.delete(reply.id);
      if (!reply.ok) return w.reject(new Error(`ledger write failed: ${reply.message}`));
      if ('seconds' in reply) this.onWritten(reply.seconds);
      w.resolve(reply.value);
    });
    const gone = (err: unknown): void => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (!this.closed) this.log.error({ err }, 'the ledger writer thread stopped; its pending writes fail and are retried');
      for (const w of this.waiting.values()) w.reject(new Error('the ledger writer thread stopped'));
      this.waiting.clear();
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`exit code ${code}`)));
    this.worker = worker;
    return worker;
  }
}
