import cluster, { type Worker } from 'node:cluster';
import { clusterMetricsSource, serveMetrics, type GatewayConfig, type Logger } from '@gateway/shared';
import { isClusterMessage, type PeersAnswer } from './cluster-messages.js';

/** How long the primary waits for a worker's readiness answer (it may wait up to 0.5 s for its stream, then a Health call). */
const READY_TIMEOUT_MS = 2_500;
/** A worker that dies this soon after it started is restarted after a growing pause, not in a tight loop. */
const QUICK_DEATH_MS = 10_000;
const RESTART_PAUSE_MIN_MS = 250;
const RESTART_PAUSE_MAX_MS = 30_000;

export interface RunningPrimary {
  port: number;
  metricsPort: number;
  /** Forwards SIGTERM to every worker (each drains as one proxy does) and resolves when all have exited. */
  stop(): Promise<void>;
}

interface Slot {
  worker: Worker | undefined;
  listening: boolean;
  startedAt: number;
  pauseMs: number;
  restart: NodeJS.Timeout | undefined;
}

/**
 * The proxy's primary when PROXY_WORKERS > 1 (CONTRACT.md "Processes and sockets"): forks the workers, which share
 * PORT through the cluster module's round-robin (the primary accepts and hands each connection to a worker;
 * Node 20 has no reusePort), restarts a worker that dies, answers `/metrics` once for all of them on
 * METRICS_PORT, and on stop forwards SIGTERM so the drain covers every worker. It loads no model and serves no
 * request: its memory stays that of a bare Node process.
 */
export async function runPrimary(config: GatewayConfig, log: Logger, workers: number): Promise<RunningPrimary> {
  cluster.schedulingPolicy = cluster.SCHED_RR;
  const slots: Slot[] = Array.from({ length: workers }, () => ({ worker: undefined, listening: false, startedAt: 0, pauseMs: 0, restart: undefined }));
  let stopping = false;
  let started = false;
  let port = 0;
  let readyQueries = 0;
  const readyWaiters = new Map<number, (ready: boolean) => void>();
  let everyoneListening: () => void = () => undefined;
  let startFailed: (err: Error) => void = () => undefined;
  const listening = new Promise<void>((resolve, reject) => {
    everyoneListening = resolve;
    startFailed = reject;
  });
  let allExited: () => void = () => undefined;
  const exited = new Promise<void>((resolve) => (allExited = resolve));
  let uncleanExits = 0;

  const fork = (slot: Slot, index: number): void => {
    slot.restart = undefined;
    slot.listening = false;
    slot.startedAt = Date.now();
    const worker = cluster.fork();
    slot.worker = worker;
    worker.on('listening', (address) => {
      slot.listening = true;
      if (port === 0) port = address.port;
      log.info({ slot: index + 1, worker: worker.id, pid: worker.process.pid }, 'proxy worker listening');
      if (!started && slots.every((s) => s.listening)) {
        started = true;
        everyoneListening();
      }
    });
    worker.on('message', (m: unknown) => {
      if (!isClusterMessage(m)) return;
      if (m.gw === 'peers?') void answerPeers(worker, m.id);
      else if (m.gw === 'ready') {
        readyWaiters.get(m.id)?.(m.ready);
        readyWaiters.delete(m.id);
      }
    });
    worker.on('exit', (code, signal) => {
      slot.worker = undefined;
      slot.listening = false;
      if (stopping) {
        // (a worker still starting has no SIGTERM handler yet: ended by the signal, it had nothing to drain)
        if (code !== 0 && signal !== 'SIGTERM') uncleanExits += 1;
        if (slots.every((s) => s.worker === undefined)) allExited();
        return;
      }
      if (!started) {
        startFailed(new Error(`proxy worker ${index + 1} exited (${signal ?? code}) before it listened`));
        return;
      }
      // Its spool file is left behind under its pid: the next replay of any worker adopts it (usage-spool.ts).
      slot.pauseMs = Date.now() - slot.startedAt < QUICK_DEATH_MS ? Math.min(RESTART_PAUSE_MAX_MS, Math.max(RESTART_PAUSE_MIN_MS, slot.pauseMs * 2)) : 0;
      log.error({ slot: index + 1, worker: worker.id, pid: worker.process.pid, code, signal, restart_in_ms: slot.pauseMs }, 'proxy worker died; starting another');
      slot.restart = setTimeout(() => fork(slot, index), slot.pauseMs);
    });
  };

  /** Whether one worker says it is ready (false when it does not answer in time). */
  const askReady = (worker: Worker): Promise<boolean> => {
    const id = readyQueries++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        readyWaiters.delete(id);
        resolve(false);
      }, READY_TIMEOUT_MS);
      readyWaiters.set(id, (ready) => {
        clearTimeout(timer);
        resolve(ready);
      });
      if (worker.isConnected()) worker.send({ gw: 'ready?', id });
    });
  };

  /** A worker's /readyz asks about the others: ready only when every slot has a listening worker that is ready. */
  const answerPeers = async (asker: Worker, id: number): Promise<void> => {
    const others = slots.filter((s) => s.worker !== asker);
    const answers = await Promise.all(others.map((s) => (s.worker !== undefined && s.listening ? askReady(s.worker) : Promise.resolve(false))));
    const readyOthers = answers.filter((a) => a).length;
    const answer: PeersAnswer = { gw: 'peers', id, ready: readyOthers === others.length, workersReady: readyOthers + 1, workers };
    if (asker.isConnected()) asker.send(answer);
  };

  // Before the workers: a metrics port that cannot be bound stops the start with nothing forked.
  const metricsServer = await serveMetrics(clusterMetricsSource(), config.metricsHost, config.metricsPort);
  slots.forEach((slot, i) => fork(slot, i));
  try {
    await listening;
  } catch (err) {
    stopping = true;
    for (const s of slots) s.worker?.process.kill('SIGTERM');
    metricsServer.server.close();
    throw err;
  }
  log.info({ port, metrics_port: metricsServer.port, workers }, 'proxy listening');

  return {
    port,
    metricsPort: metricsServer.port,
    async stop() {
      stopping = true;
      for (const s of slots) if (s.restart !== undefined) clearTimeout(s.restart);
      const running = slots.filter((s) => s.worker !== undefined);
      log.info({ workers: running.length }, 'draining every proxy worker');
      if (running.length === 0) allExited();
      // Each worker drains as a single proxy does (readiness false, grace, running requests finish, usage reported
      // or spooled), then exits; a worker that also got the signal from its process group notes it once.
      for (const s of running) s.worker?.process.kill('SIGTERM');
      await exited;
      metricsServer.server.close();
      if (uncleanExits > 0) throw new Error(`${uncleanExits} proxy worker exit(s) were not clean`);
    },
  };
}
