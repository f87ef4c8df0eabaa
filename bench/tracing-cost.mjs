// `npm run bench:tracing-cost`: what tracing costs per request, and nothing else. Two gateways side by side on
// one fast mock upstream: `off` (no OTEL_* endpoint: no SDK loaded) and `on` (sampled 100 %, OTLP/HTTP to a local
// sink that takes every export, as a collector that keeps up). Rounds alternate the arms, IN_FLIGHT requests in
// flight each, and each process's CPU time (/proc) is divided by the requests answered: on a shared machine CPU
// per request is steadier than throughput. Figures are printed as a range over the rounds and the median.
//
//   node bench/tracing-cost.mjs [--cpu-prof]
//
// TRACING_COST_ROUNDS (default 6) rounds of TRACING_COST_REQUESTS (default 2000) requests per arm, after a warm-up
// of 2000 per arm. --cpu-prof: both arms' proxy and policy write V8 CPU profiles (bench/results/profiles-tracing/
// ARM) and, for each, the CPU spent in the OpenTelemetry packages, async_hooks and the tracing modules is printed
// (for the off arm it should be nil), with the traced arm's top self-time functions. Profiling slows the arms, so
// the CPU table of a profiled run is not the cost; run without it for that. Requests go through 16 keep-alive
// connections; any status but 200 is counted and reported.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { startTraceSink } from './trace-sink.mjs';
import { startChild as startSharedChild } from './child-process.mjs';
import { RedisServerProcess } from '@gateway/policy/test-support/redis';
import { TestGateway, createKey } from '../test/dist/src/harness/gateway.js';
import { fmt, intFromEnv, machine, percentile, processCpuMs } from './stats.mjs';
import { topSelfTime } from './profile-top.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CPU_PROF = process.argv.includes('--cpu-prof');
const ROUNDS = intFromEnv('TRACING_COST_ROUNDS', 6, 1);
const PER_ROUND = intFromEnv('TRACING_COST_REQUESTS', 2000, 1);
const WARMUP = 2000;
const IN_FLIGHT = 16;
const RESULTS = join(ROOT, 'bench/results');
const BODY = JSON.stringify({ model: 'alpha-sonnet-5', max_tokens: 64, messages: [{ role: 'user', content: 'Summarise the notes in three bullet points.' }] });

const cleanups = [];
const cleanup = async () => {
  while (cleanups.length > 0) await Promise.resolve(cleanups.pop()()).catch(() => undefined);
};
process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));
const log = (msg) => process.stderr.write(`${msg}\n`);

/** A node child (bench/child-process.mjs) with this bench's log folder and clean-up list. */
const startChild = (name, args, env, ready) =>
  startSharedChild(name, process.execPath, args, { env, ready, cwd: ROOT, logDir: join(RESULTS, 'logs'), cleanups });

async function startGateway(name, mockPort, extraEnv, profDir) {
  const redis = await RedisServerProcess.start();
  cleanups.push(() => redis.stop());
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-tracing-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const node = (script) => [...(profDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profDir}`]), script];
  const env = { GATEWAY_DATA_DIR: dataDir, REDIS_URL: redis.url, METRICS_PORT: '0', ADMIN_PORT: '0', MAX_CONNECTIONS: '50000', MAX_CONNECTIONS_PER_SOURCE: '20000', ...extraEnv };
  const policy = await startChild(`${name}-policy`, node('policy/dist/src/main.js'), { ...env, POLICY_ADDR: '127.0.0.1:0' }, /"port":(\d+).*"policy service listening"/);
  const proxy = await startChild(`${name}-proxy`, node('proxy/dist/src/main.js'), {
    ...env, POLICY_ADDR: `127.0.0.1:${policy.match[1]}`, PORT: '0', UPSTREAM_URL: `http://127.0.0.1:${mockPort}/v1`, UPSTREAM_API_KEY: 'bench',
  }, /"port":(\d+).*"proxy listening"/);
  const ctl = new TestGateway({ dataDir });
  const plan = { name: 'bench', rpm: 100_000_000, concurrency: 100_000, allowance: 1_000_000_000_000 };
  const key = (await createKey(ctl, { env: 'live', privacy: 'off', plan })).key;
  const redisPid = Number(/process_id:(\d+)/.exec(execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', new URL(redis.url).port, 'INFO', 'server']).toString())?.[1]);
  const pool = new Pool(`http://127.0.0.1:${proxy.match[1]}`, { connections: IN_FLIGHT, keepAliveTimeout: 60_000 });
  cleanups.push(() => pool.destroy());
  const headers = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': key };
  return { name, pool, headers, pids: { proxy: proxy.child.pid, policy: policy.child.pid, redis: redisPid }, children: [proxy.child, policy.child] };
}

/** `n` requests, IN_FLIGHT at a time; CPU ms per process over them and the count of non-200 answers. */
async function drive(arm, n) {
  const cpu0 = Object.fromEntries(Object.entries(arm.pids).map(([k, pid]) => [k, processCpuMs(pid)]));
  let next = 0;
  let errors = 0;
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (next < n) {
      next += 1;
      try {
        const res = await arm.pool.request({ path: '/v1/messages', method: 'POST', headers: arm.headers, body: BODY });
        await res.body.dump();
        if (res.statusCode !== 200) errors += 1;
      } catch {
        errors += 1;
      }
    }
  }));
  const cpu = Object.fromEntries(Object.entries(arm.pids).map(([k, pid]) => [k, processCpuMs(pid) - cpu0[k]]));
  return { cpu, errors };
}

/**
 * ms of a profile's samples spent on tracing: `self`, samples whose own frame is in an OpenTelemetry package or a
 * tracing module or is an async hook (what an AsyncLocalStorage context manager costs on Node 20); `attributed`,
 * also the native and Node-internal work those frames call (each sample goes to the innermost frame of a package
 * or of the gateway's code). V8 inlines small callbacks into their caller, so a step run inside inSpan can show as
 * inSpan's own time: a few ms even with tracing off.
 */
const ASYNC_HOOKS = new Set(['promiseInitHook', 'promiseBeforeHook', 'promiseAfterHook', 'promiseResolveHook', 'emitInitNative', 'emitInitScript', 'emitBeforeScript', 'emitAfterScript', 'lookupPublicResource']);
function tracingMs(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const self = new Map();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const isTracing = (f) => /@opentelemetry\/|\/tracing\//.test(f.url) || f.url === 'node:async_hooks' || ASYNC_HOOKS.has(f.functionName);
  let ownUs = 0;
  let attributedUs = 0;
  for (const n of profile.nodes) {
    const t = self.get(n.id) ?? 0;
    if (t === 0) continue;
    if (isTracing(n.callFrame)) ownUs += t;
    for (let id = n.id; id !== undefined; id = parent.get(id)) {
      const f = byId.get(id).callFrame;
      if (isTracing(f)) {
        attributedUs += t;
        break;
      }
      if (/node_modules\/|\/(proxy|policy|shared|privacy)\/dist\//.test(f.url)) break;
    }
  }
  return { self: ownUs / 1000, attributed: attributedUs / 1000 };
}

async function main() {
  const profDir = join(RESULTS, 'profiles-tracing');
  if (CPU_PROF) {
    rmSync(profDir, { recursive: true, force: true });
    for (const arm of ['off', 'on']) mkdirSync(join(profDir, arm), { recursive: true });
  }
  const { match } = await startChild('tracing-mock', ['bench/fast-mock.mjs'], {}, /^\{"port":(\d+)\}$/);
  const mockPort = Number(match[1]);
  const sink = await startTraceSink();
  cleanups.push(sink.close);
  const off = await startGateway('off', mockPort, {}, CPU_PROF ? join(profDir, 'off') : undefined);
  const on = await startGateway('on', mockPort, { OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint, OTEL_TRACES_SAMPLER: 'always_on' }, CPU_PROF ? join(profDir, 'on') : undefined);
  const arms = [off, on];
  log(`warm-up: ${WARMUP} requests per arm`);
  for (const arm of arms) await drive(arm, WARMUP);
  const perRequest = { off: { proxy: [], policy: [], redis: [] }, on: { proxy: [], policy: [], redis: [] } };
  let errors = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const arm of round % 2 === 0 ? arms : [...arms].reverse()) {
      const r = await drive(arm, PER_ROUND);
      errors += r.errors;
      for (const [k, ms] of Object.entries(r.cpu)) perRequest[arm.name][k].push((ms * 1000) / PER_ROUND);
    }
    log(`round ${round + 1}/${ROUNDS}: off proxy ${fmt(perRequest.off.proxy.at(-1), 0)} policy ${fmt(perRequest.off.policy.at(-1), 0)} µs, on proxy ${fmt(perRequest.on.proxy.at(-1), 0)} policy ${fmt(perRequest.on.policy.at(-1), 0)} µs per request`);
  }
  const m = machine();
  const out = [`# tracing cost: CPU µs per request (${ROUNDS} rounds × ${PER_ROUND} requests per arm, ${IN_FLIGHT} in flight, ${sink.exports()} exports taken)`, '',
    `machine: ${m.nproc} cores, ${m.cpu}, node ${m.node}, load average ${m.loadavg.join(' ')}`, '',
    '| process | off: median (range) | on: median (range) | on − off, median of rounds |', '|---|---|---|---|'];
  for (const k of ['proxy', 'policy', 'redis']) {
    const a = perRequest.off[k];
    const b = perRequest.on[k];
    const diffs = b.map((v, i) => v - a[i]);
    out.push(`| ${k} | ${fmt(percentile(a, 0.5), 0)} (${fmt(Math.min(...a), 0)}-${fmt(Math.max(...a), 0)}) | ${fmt(percentile(b, 0.5), 0)} (${fmt(Math.min(...b), 0)}-${fmt(Math.max(...b), 0)}) | ${fmt(percentile(diffs, 0.5), 0)} (${fmt(Math.min(...diffs), 0)}-${fmt(Math.max(...diffs), 0)}) |`);
  }
  out.push('', `non-200 answers: ${errors}`);
  if (CPU_PROF) {
    // SIGTERM makes each process write its profile on its way out.
    await Promise.all([...off.children, ...on.children].map((c) => new Promise((r) => {
      c.once('exit', r);
      c.kill('SIGTERM');
    })));
    const requests = WARMUP + ROUNDS * PER_ROUND;
    for (const arm of arms) {
      // The main thread's profile of each process (a worker thread, the ledger writer's, writes one of its own).
      for (const file of readdirSync(join(profDir, arm.name)).filter((f) => /\.0\.\d+\.cpuprofile$/.test(f))) {
        const who = Object.entries(arm.pids).find(([, pid]) => file.includes(`.${pid}.`))?.[0] ?? '?';
        const path = join(profDir, arm.name, file);
        const ms = tracingMs(path);
        const perRequest = (x) => fmt((x * 1000) / requests, 1);
        out.push('', `## ${arm.name}, ${who}: tracing ${fmt(ms.self, 0)} ms self, ${fmt(ms.attributed, 0)} ms with what it calls (${perRequest(ms.self)} / ${perRequest(ms.attributed)} µs per request over ${requests}); ${file}`);
        if (arm === on) for (const line of topSelfTime(path, 25)) out.push(`    ${line}`);
      }
    }
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

if (process.argv[2] === '--tracing-ms') {
  process.stdout.write(`${JSON.stringify(tracingMs(process.argv[3]))}\n`);
  process.exit(0);
}

main().then(cleanup, async (err) => {
  log(err instanceof Error ? err.stack : String(err));
  await cleanup();
  process.exit(1);
});
