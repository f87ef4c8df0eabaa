import type { PeersAnswer } from './cluster-messages.js';
import { isClusterMessage } from './cluster-messages.js';

/** The other workers' readiness as the primary sees it. */
export type PeersReadiness = Pick<PeersAnswer, 'ready' | 'workersReady' | 'workers'>;

/** How long a worker's /readyz waits for the primary's answer before it counts the others as not ready. */
const PEERS_TIMEOUT_MS = 3_000;

/**
 * A worker's side of the cluster (PROXY_WORKERS > 1): answers the primary's readiness questions with its own
 * readiness, and asks the primary about the other workers, so /readyz (answered by whichever worker the
 * connection went to) is true only when every worker is.
 */
export class WorkerLink {
  private nextId = 0;
  private readonly waiting = new Map<number, (answer: PeersReadiness) => void>();
  private readonly onMessage = (m: unknown): void => {
    if (!isClusterMessage(m)) return;
    if (m.gw === 'ready?') {
      void this.ownReady().then(
        (ready) => this.send({ gw: 'ready', id: m.id, ready }),
        () => this.send({ gw: 'ready', id: m.id, ready: false }),
      );
    } else if (m.gw === 'peers') {
      this.waiting.get(m.id)?.({ ready: m.ready, workersReady: m.workersReady, workers: m.workers });
      this.waiting.delete(m.id);
    }
  };

  constructor(private readonly ownReady: () => Promise<boolean>) {}

  start(): void {
    process.on('message', this.onMessage);
  }

  stop(): void {
    process.off('message', this.onMessage);
  }

  /** The other workers' readiness (not ready when the primary does not answer in time). */
  peers(): Promise<PeersReadiness> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve({ ready: false, workersReady: 0, workers: 0 });
      }, PEERS_TIMEOUT_MS);
      this.waiting.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      this.send({ gw: 'peers?', id });
    });
  }

  private send(m: object): void {
    // The channel is gone once the primary is: the worker is then stopping (shared/src/shutdown.ts).
    if (process.connected) process.send?.(m);
  }
}
