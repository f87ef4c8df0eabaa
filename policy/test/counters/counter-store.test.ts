import { MemoryCounterStore } from '../../src/counters/memory-counter-store.js';
import { createRedisClient, waitUntilReady } from '../../src/counters/redis-connection.js';
import { RedisCounterStore } from '../../src/counters/redis-counter-store.js';
import type { UsageSource } from '../../src/counters/counter-store.js';
import { startTestRedis, startTestRedisCluster, type TestRedis } from '../support/redis-harness.js';
import { describeCounterStore, type CounterStoreBackend } from './counter-store-suite.js';

describeCounterStore('in-process', async () => ({
  async create(source) {
    return {
      store: new MemoryCounterStore(source),
      // The in-process store loses its counters when the process restarts: a new store over the same ledger.
      loseData: async () => new MemoryCounterStore(source),
    };
  },
  async dispose() {},
}));

describeCounterStore('Redis', async () => redisBackend(await startTestRedis()));
describeCounterStore('Redis Cluster', async () => redisBackend(await startTestRedisCluster()));

function redisBackend(redis: TestRedis): CounterStoreBackend {
  return {
    async create(source: UsageSource) {
      const client = createRedisClient(redis.url);
      client.on('error', () => undefined);
      if (!(await waitUntilReady(client, 5_000))) throw new Error(`test Redis at ${redis.url} is not ready`);
      const store = new RedisCounterStore(client, source, { keyPrefix: redis.keyPrefix });
      return {
        store,
        async loseData() {
          await redis.flush();
          return store;
        },
      };
    },
    dispose: () => redis.dispose(),
  };
}
