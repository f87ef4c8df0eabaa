import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { OverloadedError, type Logger } from '@gateway/shared';
import type { InflightRegistry } from './inflight-registry.js';
import type { UsageReporter } from './usage-reporter.js';

/**
 * Whether the proxy is draining (read by /readyz and by every response, which then closes its connection),
 * and how many requests it is answering, on any route and at any step.
 */
export class Lifecycle {
  draining = false;
  private active = 0;
  private readonly idleWaiters = new Set<() => void>();

  /** Counts a request until its response closes. */
  track(res: { once(event: 'close', fn: () => void): unknown }): void {
    this.active += 1;
    res.once('close', () => {
      this.active -= 1;
      if (this.active === 0) {
        for (const wake of this.idleWaiters) wake();
        this.idleWaiters.clear();
      }
    });
  }

  get activeRequests(): number {
    return this.active;
  }

  /** Resolves when no request is being answered (at once if none is). */
  whenIdle(): Promise<void> {
    if (this.active === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.add(resolve));
  }
}

export interface DrainParts {
  server: Server;
  lifecycle: Lifecycle;
  inflight: InflightRegistry;
  reporter: UsageReporter;
  log: Logger;
  timeoutMs: number;
  graceMs: number;
}

/** After the drain timeout, how long cut streams get to send their `event: error` and report before exit. */
const CUT_SETTLE_MS = 2_000;

/**
 * The SIGTERM drain of CONTRACT.md "Operating it": readiness false at once; new connections accepted for a
 * short grace (load balancers notice the readiness change), then refused; running requests and streams finish
 * for up to the drain timeout (counted from the signal), after which streams are ended with `event: error`
 * (overloaded_error); every usage report is delivered or spooled before this resolves. Responses sent while
 * draining carry `connection: close`, and idle keep-alive connections are closed, so no connection keeps the
 * process alive. `graceMs` 0 (the supervisor is gone) stops listening at once, freeing the port.
 */
export async function drain(p: DrainParts): Promise<void> {
  const deadline = Date.now() + p.timeoutMs;
  p.lifecycle.draining = true;
  p.log.info({ in_flight: p.lifecycle.activeRequests, timeout_ms: p.timeoutMs }, 'draining');
  if (p.graceMs > 0) await sleep(Math.min(p.graceMs, p.timeoutMs));
  const closed = new Promise<void>((resolve) => p.server.close(() => resolve()));
  p.server.closeIdleConnections();
  const left = Math.max(0, deadline - Date.now());
  const finished = await Promise.race([p.lifecycle.whenIdle().then(() => true), sleep(left).then(() => false)]);
  if (!finished) {
    p.log.warn({ in_flight: p.lifecycle.activeRequests }, 'drain timeout: ending the requests still running');
    p.inflight.abortAll(new OverloadedError('The gateway is shutting down; please retry.'));
    await Promise.race([p.lifecycle.whenIdle(), sleep(CUT_SETTLE_MS)]);
  }
  p.server.closeAllConnections();
  await closed;
  await p.reporter.drain();
}
