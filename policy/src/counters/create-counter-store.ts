import type { GatewayConfig, Logger } from '@gateway/shared';
import type { CounterStore, UsageSource } from './counter-store.js';
import { MemoryCounterStore } from './memory-counter-store.js';
import { RedisCounterStore } from './redis-counter-store.js';
import { createRedisClient, waitUntilReady, watchConnection } from './redis-connection.js';

/** How long start-up waits for Redis before going on without it. */
const STARTUP_WAIT_MS = 2_000;

/**
 * In-process counters when no Redis is configured; Redis whenever REDIS_URL is set. An unreachable Redis does not
 * stop the service from starting: decisions answer 503 (fail closed) until the client reconnects by itself.
 */
export async function createCounterStore(config: GatewayConfig, source: UsageSource, log: Logger): Promise<CounterStore> {
  if (config.redisUrl === undefined) return new MemoryCounterStore(source);
  const client = createRedisClient(config.redisUrl);
  watchConnection(client, log);
  if (!(await waitUntilReady(client, STARTUP_WAIT_MS))) {
    log.warn('counter store (Redis) unreachable at start; decisions answer 503 until it returns');
  }
  return new RedisCounterStore(client, source, { keyPrefix: config.redisKeyPrefix });
}
