// Decision throughput and latency of the real policy service over real gRPC, with Redis counters (a disposable
// redis-server this script starts on a free loopback port) against in-process counters as the baseline, both in
// the same run. Run with `npm run bench:decisions` (builds first). See docs/benchmarks.md for what it measures.
//
// Each of CONCURRENCY workers loops: a decision (as the proxy sends it for a live key) → a usage report (as the
// proxy sends it when the response ends, which also frees the concurrency lease), both on the session stream. "decisions/s" counts these
// decide+report cycles per second of wall time; decide and report latencies are timed separately. A third row,
// the gRPC floor, makes two unary Authenticate calls with a malformed key, which the policy service refuses
// without touching any counter: the cost of unary gRPC round trips alone, through the same client and server.
//
// Besides wall-clock figures it reports the CPU time each process spent per cycle (Linux /proc): the policy
// service, redis-server and this client (whose gRPC client is the proxy's). CPU per decision is much less
// sensitive than decisions/s to other load on a shared machine.
//
// Knobs (env): BENCH_REQUESTS per store and level (default 3000), BENCH_WARMUP (default 500),
// BENCH_CONCURRENCY (default 1,16,64), BENCH_ROUNDS (default 4; the stores alternate order each round),
// BENCH_REPLICAS (default 1,2,3): a last table drives N policy replicas on one Redis and one PostgreSQL (a server
// the test harness starts; BENCH_REPLICA_DATABASE=sqlite shares one SQLite file instead) through one client with
// POLICY_TARGET's replica set (keys pinned by rendezvous hashing, 24 keys), at the highest concurrency.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createLogger } from '@gateway/shared';
import { RedisServerProcess } from '@gateway/policy/test-support/redis';
import { GrpcPolicyClient } from '../proxy/dist/src/grpc-policy-client.js';
import { TestGateway, createKey, startService } from '../test/dist/src/harness/gateway.js';
import { TICKS_PER_SECOND, fmt, intFromEnv, intListFromEnv, machine, printTable, processCpuMs, summarise } from './stats.mjs';

const REQUESTS = intFromEnv('BENCH_REQUESTS', 3000, 1);
const WARMUP = intFromEnv('BENCH_WARMUP', 500, 0);
const LEVELS = intListFromEnv('BENCH_CONCURRENCY', [1, 16, 64]);
const ROUNDS = intFromEnv('BENCH_ROUNDS', 4, 1);
const REPLICAS = intListFromEnv('BENCH_REPLICAS', [1, 2, 3]);
const REPLICA_DATABASE = process.env['BENCH_REPLICA_DATABASE'] === 'sqlite' ? 'sqlite' : 'postgres';
const MODEL = 'alpha-sonnet-5';

const log = createLogger('bench', 'silent');
const cleanups = [];
const cleanup = async () => {
  while (cleanups.length > 0) await cleanups.pop()().catch(() => undefined);
};
process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));

/** One policy service (no proxy), a live key whose plan refuses nothing, and a gRPC client to it. */
async function startStore(name, redis) {
  const gw = new TestGateway(redis === undefined ? {} : { redis });
  cleanups.push(() => gw.stop());
  await gw.startPolicy();
  const key = await createKey(gw, {
    env: 'live',
    plan: { name: `bench-${name}`, rpm: 100_000_000, concurrency: 10_000, allowance: 1_000_000_000_000 },
  });
  const client = new GrpcPolicyClient(`127.0.0.1:${gw.policyPort}`, log);
  cleanups.push(async () => client.close());
  return { name, gw, key, client };
}

let seq = 0;
/** Decide then report one request, as the proxy does for a live key; returns both latencies in ms. */
async function cycle(store) {
  const requestId = `req_bench${(seq += 1)}`;
  const t0 = performance.now();
  const d = await store.client.decide({
    caller: { api_key: store.key.key, source_ip: '127.0.0.1', request_id: requestId },
    operation: 'CREATE_MESSAGE',
    model: MODEL,
    stream: true,
    max_tokens: 1024,
    input_tokens_estimate: 250,
  });
  const t1 = performance.now();
  if (d.kind !== 'allow') throw new Error(`${store.name}: decision was ${d.kind}: ${d.error?.message ?? ''}`);
  const g = d.grant;
  await store.client.reportUsage({
    request_id: requestId,
    decision_id: d.decisionId,
    key_id: g.key.key_id,
    account_id: g.key.account_id,
    environment: g.key.environment,
    model: g.model,
    usage: { input_tokens: 200, output_tokens: 120, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    lease_id: g.lease_id,
    reserved_units: g.reserved_units,
    outcome: 'ok',
    finished_unix_ms: Date.now(),
  });
  return [t1 - t0, performance.now() - t1];
}

/**
 * Two round trips with next to nothing behind them: Authenticate with a malformed key is refused on its format,
 * without touching any counter or the database, so this is the cost of two unary gRPC calls through the same
 * client and server (decisions and reports travel on the session stream, which costs less per message).
 */
async function floorCycle(store) {
  const caller = { api_key: 'not-a-key', source_ip: '127.0.0.1', request_id: 'req_floor' };
  const t0 = performance.now();
  await store.client.authenticate(caller);
  const t1 = performance.now();
  await store.client.authenticate(caller);
  return [t1 - t0, performance.now() - t1];
}

/** The pid of the redis-server on this port (only the one this script started is ever asked). */
function redisPid(port) {
  const info = execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'INFO', 'server']).toString();
  return Number(/process_id:(\d+)/.exec(info)?.[1]);
}

/** CPU ms used so far by the policy service, redis-server and this process. */
function cpuNow(policyPid, redisServerPid) {
  const self = process.cpuUsage();
  return { policy: processCpuMs(policyPid), redis: processCpuMs(redisServerPid), client: (self.user + self.system) / 1000 };
}

/** `total` calls of `fn`, `concurrency` in flight (closed loop); wall time and per-call latencies. */
async function drive(fn, total, concurrency) {
  const samples = [];
  let started = 0;
  const worker = async () => {
    while (started < total) {
      started += 1;
      samples.push(await fn());
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  return { wallMs: performance.now() - t0, samples };
}

async function main() {
  const m = machine();
  process.stdout.write(
    `decision bench: nproc=${m.nproc} (${m.cpu}), ${m.memGiB} GiB, node ${m.node}, load ${m.loadavg.join(' ')}\n` +
      `requests per store and level=${REQUESTS} (in ${ROUNDS} rounds), warm-up=${WARMUP}, concurrency=${LEVELS.join(',')}\n\n`,
  );
  const redisServer = await RedisServerProcess.start();
  cleanups.push(() => redisServer.dispose());
  const redis = { url: redisServer.url, keyPrefix: `gwbench:${randomBytes(4).toString('hex')}:` };
  const stores = [await startStore('memory', undefined), await startStore('redis', redis)];
  const floor = { name: 'grpc-floor', client: stores[0].client, gw: stores[0].gw };
  const redisServerPid = redisPid(redisServer.port);

  for (const s of [...stores, floor]) {
    await drive(() => (s === floor ? floorCycle(s) : cycle(s)), WARMUP, 16);
  }

  const results = [];
  const perRound = Math.ceil(REQUESTS / ROUNDS);
  for (const level of LEVELS) {
    const acc = new Map([...stores, floor].map((s) => [s.name, { wallMs: 0, calls: 0, decide: [], report: [], cpu: { policy: 0, redis: 0, client: 0 } }]));
    for (let round = 0; round < ROUNDS; round += 1) {
      // Alternate which store goes first, so a burst of load from elsewhere cannot favour one of them.
      const order = round % 2 === 0 ? [...stores, floor] : [floor, ...stores.slice().reverse()];
      for (const s of order) {
        const before = cpuNow(s.gw.policy.child.pid, redisServerPid);
        const r = await drive(() => (s === floor ? floorCycle(s) : cycle(s)), perRound, level);
        const after = cpuNow(s.gw.policy.child.pid, redisServerPid);
        const a = acc.get(s.name);
        for (const k of Object.keys(a.cpu)) a.cpu[k] += after[k] - before[k];
        a.wallMs += r.wallMs;
        a.calls += r.samples.length;
        for (const [decide, report] of r.samples) {
          a.decide.push(decide);
          a.report.push(report);
        }
      }
    }
    for (const [name, a] of acc) {
      results.push({
        store: name,
        concurrency: level,
        calls: a.calls,
        perSecond: (a.calls / a.wallMs) * 1000,
        decideMs: summarise(a.decide),
        reportMs: summarise(a.report),
        cpuMicrosPerCycle: Object.fromEntries(Object.entries(a.cpu).map(([k, v]) => [k, (v * 1000) / a.calls])),
      });
    }
  }

  const rows = results.map((r) => [
    r.store,
    String(r.concurrency),
    fmt(r.perSecond, 0),
    fmt(r.decideMs.p50),
    fmt(r.decideMs.p99),
    fmt(r.reportMs.p50),
    fmt(r.reportMs.p99),
  ]);
  printTable(['store', 'in flight', 'decisions/s', 'decide p50 ms', 'decide p99 ms', 'report p50 ms', 'report p99 ms'], rows);
  process.stdout.write('(grpc-floor: the same two round trips as empty RPCs that touch no counter; its "decide" and "report"\ncolumns are the first and second empty call)\n\n');
  printTable(
    ['CPU µs per cycle', 'in flight', 'policy service', 'redis-server', 'client'],
    results.map((r) => [r.store, String(r.concurrency), fmt(r.cpuMicrosPerCycle.policy, 0), fmt(r.cpuMicrosPerCycle.redis, 0), fmt(r.cpuMicrosPerCycle.client, 0)]),
  );
  process.stdout.write(`(user + system time per decide+report cycle, from /proc at ${TICKS_PER_SECOND} ticks/s; the client row is this process)\n\n`);

  const ratios = LEVELS.map((level) => {
    const mem = results.find((r) => r.store === 'memory' && r.concurrency === level);
    const red = results.find((r) => r.store === 'redis' && r.concurrency === level);
    return {
      concurrency: level,
      throughput: red.perSecond / mem.perSecond,
      decideP50: red.decideMs.p50 / mem.decideMs.p50,
      decideP99: red.decideMs.p99 / mem.decideMs.p99,
      policyCpu: red.cpuMicrosPerCycle.policy / mem.cpuMicrosPerCycle.policy,
      policyPlusRedisCpu: (red.cpuMicrosPerCycle.policy + red.cpuMicrosPerCycle.redis) / mem.cpuMicrosPerCycle.policy,
    };
  });
  printTable(
    ['redis / memory', 'decisions/s', 'decide p50', 'decide p99', 'policy CPU', 'policy+redis CPU'],
    ratios.map((r) => [
      `${r.concurrency} in flight`,
      `${fmt(r.throughput)}x`,
      `${fmt(r.decideP50)}x`,
      `${fmt(r.decideP99)}x`,
      `${fmt(r.policyCpu)}x`,
      `${fmt(r.policyPlusRedisCpu)}x`,
    ]),
  );
  const replicaRows = await replicaTable(redisServer, Math.max(...LEVELS));
  process.stdout.write(`\nload after: ${machine().loadavg.join(' ')}\n`);
  process.stdout.write(`result: ${JSON.stringify({ bench: 'decisions', machine: m, requests: REQUESTS, warmup: WARMUP, rounds: ROUNDS, results, ratios, replicas: replicaRows })}\n`);
}

/**
 * Decide+report cycles per second with N policy replicas sharing one Redis and one database, driven through one
 * replica-set client (the proxy's), keys spread over the replicas by rendezvous hashing. The CPU column adds up
 * every replica's and redis-server's time per cycle.
 */
async function replicaTable(redisServer, inFlight) {
  const rows = [];
  for (const n of REPLICAS) {
    const redis = { url: redisServer.url, keyPrefix: `gwrep${n}:${randomBytes(4).toString('hex')}:` };
    const gw = await new TestGateway({ redis, database: REPLICA_DATABASE, proxies: 0 }).start();
    const procs = [gw.policy];
    const addresses = [`127.0.0.1:${gw.policyPort}`];
    for (let i = 1; i < n; i += 1) {
      const p = startService(`policy-${i}`, 'policy/dist/src/main.js', { ...gw.env, POLICY_ADDR: '127.0.0.1:0' });
      procs.push(p);
      addresses.push(`127.0.0.1:${(await p.waitFor((l) => l.msg === 'policy service listening'))['port']}`);
    }
    const keys = [];
    for (let i = 0; i < 24; i += 1) {
      keys.push(await createKey(gw, { env: 'live', plan: { name: `rep${n}-${i}`, rpm: 100_000_000, concurrency: 10_000, allowance: 1_000_000_000_000 } }));
    }
    const client = new GrpcPolicyClient({ kind: 'list', addresses }, log);
    // Wait until every replica's stream is open, so the first cycles are not all pinned to the first one up.
    for (let i = 0; i < 100 && !(await client.readiness()).ready; i += 1) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    let k = 0;
    const store = () => ({ name: `replicas-${n}`, client, key: keys[(k += 1) % keys.length] });
    await drive(() => cycle(store()), WARMUP, inFlight);
    const redisServerPid = redisPid(redisServer.port);
    const cpuOf = () => procs.reduce((sum, p) => sum + processCpuMs(p.child.pid), 0) + processCpuMs(redisServerPid);
    const before = cpuOf();
    const r = await drive(() => cycle(store()), REQUESTS, inFlight);
    const cpuMs = cpuOf() - before;
    rows.push({ replicas: n, inFlight, perSecond: (r.samples.length / r.wallMs) * 1000, decideMs: summarise(r.samples.map((x) => x[0])), cpuMicrosPerCycle: (cpuMs * 1000) / r.samples.length });
    client.close();
    for (const p of procs.slice(1)) await p.stop();
    await gw.stop();
  }
  printTable(
    [`replicas (${REPLICA_DATABASE})`, 'in flight', 'decisions/s', 'decide p50 ms', 'decide p99 ms', 'CPU µs per cycle (replicas + redis)'],
    rows.map((r) => [String(r.replicas), String(r.inFlight), fmt(r.perSecond, 0), fmt(r.decideMs.p50), fmt(r.decideMs.p99), fmt(r.cpuMicrosPerCycle, 0)]),
  );
  return rows;
}

try {
  await main();
} finally {
  await cleanup();
}
