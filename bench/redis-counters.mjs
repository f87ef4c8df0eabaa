// The policy service's Redis work per request, isolated: 16 requests in flight, each an admit (its decision) and,
// once answered, a settle and a confirm (its report), through RedisCounterStore on a disposable redis-server, as
// the policy service issues them. Prints the client process's CPU and the Redis server's per request, with
// ioredis' auto-pipelining on and off, and a bare RESP client (what a leaner client could reach), alternating.
//   node bench/redis-counters.mjs   knobs: BENCH_REQUESTS (20000), BENCH_ROUNDS (3), BENCH_IN_FLIGHT (16)
import { connect } from 'node:net';
import { Redis } from 'ioredis';
import RedisParser from 'redis-parser';
import { RedisServerProcess } from '@gateway/policy/test-support/redis';
import { RedisCounterStore } from '../policy/dist/src/counters/redis-counter-store.js';
import { waitUntilReady } from '../policy/dist/src/counters/redis-connection.js';
import { intFromEnv, processCpuMs } from './stats.mjs';

const REQUESTS = intFromEnv('BENCH_REQUESTS', 20000, 1);
const ROUNDS = intFromEnv('BENCH_ROUNDS', 3, 1);
const IN_FLIGHT = intFromEnv('BENCH_IN_FLIGHT', 16, 1);
const server = await RedisServerProcess.start();
// The harness keeps its child private; a bench reads its pid for /proc.
const redisPid = server.child.pid;
const source = { load: async () => ({ units: 0, uncounted: [], waiting: [] }), included: () => undefined };
const stores = Object.fromEntries([true, false].map((auto) => {
  // createRedisClient's options, with auto-pipelining as given.
  const client = new Redis(server.url, { connectTimeout: 2000, commandTimeout: 1000, maxRetriesPerRequest: 0, enableAutoPipelining: auto, enableOfflineQueue: false });
  return [auto ? 'auto-pipelining on' : 'auto-pipelining off', { client, store: new RedisCounterStore(client, source) }];
}));
for (const { client } of Object.values(stores)) if (!(await waitUntilReady(client, 5000))) throw new Error('redis not ready');
/**
 * What the Redis client's own work could come down to (bench only, not a product client: no timeouts, reconnects or
 * cluster): the commands RedisCounterStore sends written as RESP, those of one turn in one write, the replies read
 * by redis-parser (ioredis' own parser) into a FIFO of waiters.
 */
function rawClient(port) {
  const socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  const waiters = [];
  const parser = new RedisParser({
    returnReply: (reply) => waiters.shift().resolve(reply),
    returnError: (err) => waiters.shift().reject(err),
  });
  socket.on('data', (chunk) => parser.execute(chunk));
  let queued = '';
  const send = (args) => {
    let cmd = `*${args.length}\r\n`;
    for (const a of args) {
      const v = String(a);
      cmd += `$${Buffer.byteLength(v)}\r\n${v}\r\n`;
    }
    if (queued === '') setImmediate(() => { socket.write(queued); queued = ''; });
    queued += cmd;
    return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
  };
  return {
    ready: new Promise((resolve) => socket.once('connect', resolve)),
    evalsha: (...args) => send(['EVALSHA', ...args]),
    eval: (...args) => send(['EVAL', ...args]),
    mget: (...keys) => send(['MGET', ...keys]),
    get: (key) => send(['GET', key]),
    disconnect: () => socket.destroy(),
  };
}
const raw = rawClient(server.port);
await raw.ready;
stores['raw RESP (bench only)'] = { client: raw, store: new RedisCounterStore(raw, source) };
const period = { accountId: 'acc_bench', periodId: '2026-11-01', periodStartMs: Date.UTC(2026, 10, 1), periodEndMs: Date.UTC(2026, 11, 1) };
let n = 0;
async function request(store) {
  n += 1;
  const id = n;
  const leaseId = `lease_${id}`;
  const nowMs = Date.now();
  const admitted = await store.admit({
    nowMs,
    windows: [{ scope: 'acc_bench:live:rpm', limit: 1e9 }],
    concurrency: { scope: 'acc_bench:live', limit: 1e6, leaseId, ttlMs: 60_000 },
    allowance: { ...period, allowance: 1e15, overageAllowed: false, ceiling: 0, reserveUnits: 0 },
  });
  if (!admitted.ok) throw new Error(`admit refused: ${admitted.reason}`);
  const usage = { period, units: 43, requestId: `req_${id}`, attempt: 2 + id };
  const settled = await store.settle({ scope: 'acc_bench:live', leaseId }, usage, Date.now());
  if (settled.kind !== 'added') throw new Error(`settle answered ${settled.kind}`);
  await store.confirm(usage);
}
try {
  for (let round = 0; round <= ROUNDS; round += 1) {
    for (const [name, { store }] of Object.entries(stores)) {
      const cpu0 = process.cpuUsage();
      const redis0 = processCpuMs(redisPid);
      let left = REQUESTS;
      await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
        while (left > 0) {
          left -= 1;
          await request(store);
        }
      }));
      const cpu = process.cpuUsage(cpu0);
      const redisUs = (processCpuMs(redisPid) - redis0) * 1000;
      // Round 0 warms up.
      if (round > 0) process.stdout.write(`round ${round}, ${name}: client ${((cpu.user + cpu.system) / REQUESTS).toFixed(1)} µs per request, redis-server ${(redisUs / REQUESTS).toFixed(1)} µs\n`);
    }
  }
} finally {
  for (const { client } of Object.values(stores)) client.disconnect();
  await server.stop();
}
