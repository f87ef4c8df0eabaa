import { Worker } from 'node:worker_threads';
import type { Logger } from '@gateway/shared';
import type { LedgerSeed } from '../counters/counter-store.js';
import type { LedgerWrite, RowState } from './ledger-statements.js';
import type { LedgerWorkerData, LedgerWorkerReply, LedgerWorkerRequest } from './ledger-worker-protocol.js';
import type { LedgerEntry } from './usage-ledger.js';
import { LEDGER_WINDOW, type LedgerWriter } from './ledger-writer.js';
import type { BatchWindow } from './write-batcher.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

interface Waiter {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

/**
 * The usage ledger's writes on SQLite, made on a thread of their own (ledger-worker.ts) with its own connection:
 * report rows, counted marks and last-used times, gathered per window into one transaction. Each promise settles
 * once its write is committed, so an acknowledgement still means "durable". Should the thread die, what it held
 * fails (the reports are retried from the proxies' spools) and the next write starts a new one.
 */
export class SqliteLedgerWriter implements LedgerWriter {
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiter>();
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly log: Logger,
    /** Hears the duration (seconds) of each committed window. */
    private readonly onWritten: (seconds: number) => void = () => undefined,
    private readonly window: BatchWindow = LEDGER_WINDOW,
  ) {}

  /** Starts the thread now rather than at the first write. */
  start(): void {
    this.thread();
  }

  /** Writes a report's row once per request id; resolves, once committed, with the row as the report found it. */
  record(entry: LedgerEntry): Promise<RowState> {
    return this.write({ kind: 'record', entry }) as Promise<RowState>;
  }

  /** Marks a row counted by `by` (an attempt id, or 1 for a rebuild) unless it is counted already. */
  async markCounted(requestId: string, by: number): Promise<void> {
    await this.write({ kind: 'mark', requestId, by });
  }

  /** Last-used times of keys (written at most once a minute per key). */
  async touchKeys(lastUsed: ReadonlyMap<string, number>): Promise<void> {
    if (lastUsed.size > 0) await this.write({ kind: 'touch', lastUsed: [...lastUsed] });
  }

  /** The figure a lost used counter is rebuilt from, rows waiting in the window included. */
  seed(accountId: string, startMs: number, endMs: number): Promise<LedgerSeed> {
    return this.send({ op: 'seed', accountId, startMs, endMs }) as Promise<LedgerSeed>;
  }

  /** Commits what waits for its window now. */
  async flush(): Promise<void> {
    if (this.worker !== undefined) await this.send({ op: 'flush' });
  }

  /** Commits what waits, then closes the connection and ends the thread. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const worker = this.worker;
    if (worker === undefined) return;
    await this.send({ op: 'close' }, worker);
    await worker.terminate();
    this.worker = undefined;
  }

  private write(write: LedgerWrite): Promise<unknown> {
    return this.send({ op: 'write', write });
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
    const data: LedgerWorkerData = { file: this.file, window: this.window };
    const worker = new Worker(new URL('./ledger-worker.js', import.meta.url), { workerData: data });
    worker.on('message', (reply: LedgerWorkerReply) => {
      if ('written' in reply) {
        this.onWritten(reply.written);
        return;
      }
      const w = this.waiting.get(reply.id);
      if (w === undefined) return;
      this.waiting.delete(reply.id);
      if (reply.ok) w.resolve(reply.value);
      else w.reject(new Error(`ledger write failed: ${reply.message}`));
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

