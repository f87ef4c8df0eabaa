import { HealthImplementation } from 'grpc-health-check';
import type * as grpc from '@grpc/grpc-js';
import { POLICY_SERVICE_NAME, type Logger } from '@gateway/shared';
import type { CounterStore } from './counters/counter-store.js';
import type { GatewayStore } from './db/gateway-store.js';

/** Whether the database answers and the counter store is reachable. */
export async function dependenciesOk(store: Pick<GatewayStore, 'ping'>, counters: CounterStore): Promise<{ database_ok: boolean; counter_store_ok: boolean }> {
  const [database_ok, counter_store_ok] = await Promise.all([store.ping(), counters.ping()]);
  return { database_ok, counter_store_ok };
}

/**
 * The standard grpc.health.v1.Health service on POLICY_ADDR (what a Kubernetes gRPC probe calls), for the
 * server as a whole ("") and the Policy service by name: SERVING while the database the decision path writes
 * to and the counter store answer (checked every `intervalMs`), NOT_SERVING when either does not, and from the
 * start of a drain on.
 */
export class PolicyHealth {
  private readonly impl = new HealthImplementation({ '': 'NOT_SERVING', [POLICY_SERVICE_NAME]: 'NOT_SERVING' });
  private timer: NodeJS.Timeout | undefined;
  private draining = false;
  private last: boolean | undefined;

  constructor(
    private readonly store: Pick<GatewayStore, 'ping'>,
    private readonly counters: CounterStore,
    private readonly log: Logger,
  ) {}

  addTo(server: grpc.Server): void {
    this.impl.addToServer(server);
  }

  async start(intervalMs: number): Promise<void> {
    await this.check();
    this.timer = setInterval(() => void this.check(), intervalMs);
    this.timer.unref();
  }

  drain(): void {
    this.draining = true;
    this.set(false);
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
  }

  private async check(): Promise<void> {
    const deps = await dependenciesOk(this.store, this.counters);
    const ok = deps.database_ok && deps.counter_store_ok;
    if (this.last !== ok) this.log[ok ? 'info' : 'warn']({ ...deps }, ok ? 'serving' : 'not serving: a dependency is down');
    this.last = ok;
    if (!this.draining) this.set(ok);
  }

  private set(ok: boolean): void {
    const status = ok ? 'SERVING' : 'NOT_SERVING';
    this.impl.setStatus('', status);
    this.impl.setStatus(POLICY_SERVICE_NAME, status);
  }
}
