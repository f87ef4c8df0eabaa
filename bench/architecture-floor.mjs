// `npm run bench:floor`: what the customer's architecture costs on this machine before any of the product's work,
// side by side with the gateway. Arms, alternating in rounds:
//   direct    the fast mock upstream (bench/fast-mock.mjs)
//   skeleton  the architecture and nothing else (bench/skeleton/): an HTTP proxy that reads the body, asks a policy
//             process on one bidirectional gRPC stream, which runs one Redis script per message, then forwards with
//             undici, relays (a stream chunk by chunk), and reports on the stream
//   gateway   this gateway as `npm run bench` runs it (live key, privacy off, counters on Redis)
//   gateway-uds  (BENCH_UDS=1) a second proxy of the same gateway dialling the same policy service over a Unix
//             domain socket (POLICY_ADDR=unix:///…) instead of TCP
//   gateway-wN  (BENCH_PROXY_WORKERS=N) a second proxy of the same gateway as N cluster workers sharing its port
//             (PROXY_WORKERS=N); its proxy CPU is the primary's and every worker's, read per process
//   gateway-tokenise  (BENCH_TOKENISE=1) the gateway's same processes with a second key whose privacy mode is
//             tokenise (the body's e-mail address tokenised on the way out, restored in the answer): what privacy
//             costs against the gateway arm's privacy off
// Each round runs, per arm: requests one at a time (latency), streamed requests one at a time (time to first
// token: the first chunk holding a content_block_delta), then 16 in flight for a fixed time (requests/s). Around
// each phase the CPU time of each of the arm's processes is read from /proc/<pid>/stat, so CPU µs per request is
// per process. Latency figures are added over direct at the same percentile; the gap between skeleton and gateway
// is the product's own work on the path of a request, the skeleton's the floor any build of this design pays here.
//
//   node bench/architecture-floor.mjs [--cpu-prof]
//   knobs: BENCH_ROUNDS (6), BENCH_PER_ROUND (400), BENCH_CONCURRENCY (16), BENCH_CONCURRENT_MS (2500), BENCH_UDS (0),
//          BENCH_PROXY_WORKERS (1: no workers arm), BENCH_TOKENISE (0)
// --cpu-prof: the skeleton's and the gateway's proxies and policy services write V8 CPU profiles; each one's busy
// time by area and top self time are printed.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { RedisServerProcess } from '@gateway/policy/test-support/redis';
import { TestGateway, createKey } from '../test/dist/src/harness/gateway.js';
import { POLICY_AREAS, PROXY_AREAS, busyTimeByArea, topSelfTime } from './profile-top.mjs';
import { intFromEnv, machine, percentile, processCpuMs } from './stats.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = intFromEnv('BENCH_ROUNDS', 6, 1);
const PER_ROUND = intFromEnv('BENCH_PER_ROUND', 400, 1);
const CONCURRENCY = intFromEnv('BENCH_CONCURRENCY', 16, 1);
const CONCURRENT_MS = intFromEnv('BENCH_CONCURRENT_MS', 2500, 100);
const CPU_PROF = process.argv.includes('--cpu-prof');
const UDS = process.env.BENCH_UDS === '1';
const WORKERS = intFromEnv('BENCH_PROXY_WORKERS', 1, 1);
const TOKENISE = process.env.BENCH_TOKENISE === '1';
const MESSAGE = { model: 'alpha-sonnet-5', max_tokens: 64, messages: [{ role: 'user', content: 'Please summarise the attached meeting notes in three bullet points and send them to jane.doe@example.com.' }] };
const BODY = JSON.stringify(MESSAGE);
const STREAM_BODY = JSON.stringify({ ...MESSAGE, stream: true });

const cleanups = [];
const children = [];
/** Starts a node child from the repository root; resolves with its pid, the match of `ready` on its stdout and what it wrote until then. */
function start(script, env, ready, execArgv = []) {
  return new Promise((resolveReady, reject) => {
    const child = spawn(process.execPath, [...execArgv, script], { cwd: ROOT, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(child);
    let seen = '';
    child.stdout.on('data', (d) => {
      seen += d;
      const m = ready.exec(seen);
      if (m === null) return;
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolveReady({ port: Number(m[1]), pid: child.pid, seen });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited (${code})`)));
  });
}

/** CPU ms of each named process, read now. */
const cpuOf = (procs) => Object.fromEntries(procs.map((p) => [p.name, (p.pids ?? [p.pid]).reduce((ms, pid) => ms + processCpuMs(pid), 0)]));

async function main() {
  const profDir = mkdtempSync(join(tmpdir(), 'bench-floor-prof-'));
  if (!CPU_PROF) cleanups.push(() => rmSync(profDir, { recursive: true, force: true }));
  const prof = (name) => (CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${join(profDir, name)}`] : []);
  const mock = await start('bench/fast-mock.mjs', {}, /"port":(\d+)/);
  const upstream = `http://127.0.0.1:${mock.port}`;

  const skeletonRedis = await RedisServerProcess.start();
  cleanups.push(() => skeletonRedis.stop());
  const skeletonPolicy = await start('bench/skeleton/policy.mjs', { REDIS_URL: skeletonRedis.url }, /"port":(\d+)/, prof('skeleton-policy'));
  const skeleton = await start('bench/skeleton/proxy.mjs', { POLICY_PORT: String(skeletonPolicy.port), UPSTREAM_ORIGIN: upstream }, /"port":(\d+)/, prof('skeleton'));

  const redis = await RedisServerProcess.start();
  cleanups.push(() => redis.stop());
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-floor-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { GATEWAY_DATA_DIR: dataDir, REDIS_URL: redis.url, METRICS_PORT: '0', ADMIN_PORT: '0' };
  const socket = join(dataDir, 'policy.sock');
  const policy = await start('policy/dist/src/main.js', { ...env, POLICY_ADDR: UDS ? `unix://${socket},127.0.0.1:0` : '127.0.0.1:0' }, /"port":(\d+).*"policy service listening"/, prof('policy'));
  const proxyEnv = { ...env, PORT: '0', UPSTREAM_URL: `${upstream}/v1`, UPSTREAM_API_KEY: 'bench' };
  const proxy = await start('proxy/dist/src/main.js', { ...proxyEnv, POLICY_ADDR: `127.0.0.1:${policy.port}` }, /"port":(\d+).*"proxy listening"/, prof('gateway'));
  const udsProxy = UDS ? await start('proxy/dist/src/main.js', { ...proxyEnv, POLICY_ADDR: `unix://${socket}` }, /"port":(\d+).*"proxy listening"/) : undefined;
  const workersProxy = WORKERS > 1 ? await start('proxy/dist/src/main.js', { ...proxyEnv, PROXY_WORKERS: String(WORKERS), POLICY_ADDR: `127.0.0.1:${policy.port}` }, /"port":(\d+)[^\n]*"proxy listening"/) : undefined;
  // The primary only hands connections over; each worker's CPU is read from its own /proc/<pid>/stat.
  const workerPids = workersProxy === undefined ? [] : [...workersProxy.seen.matchAll(/"pid":(\d+)[^\n]*"proxy worker listening"/g)].map((m) => Number(m[1]));
  const plan = { name: 'bench', rpm: 100_000_000, concurrency: 100_000, allowance: 1_000_000_000_000 };
  const key = await createKey(new TestGateway({ dataDir }), { env: 'live', privacy: 'off', plan });
  const tokeniseKey = TOKENISE ? await createKey(new TestGateway({ dataDir }), { env: 'live', privacy: 'tokenise', plan: { ...plan, name: 'bench-tokenise' } }) : undefined;

  const arms = [
    { name: 'direct', port: mock.port, headers: {}, procs: [{ name: 'mock', pid: mock.pid }] },
    { name: 'skeleton', port: skeleton.port, headers: {}, procs: [{ name: 'proxy', pid: skeleton.pid }, { name: 'policy', pid: skeletonPolicy.pid }] },
    { name: 'gateway', port: proxy.port, headers: { 'x-api-key': key.key }, procs: [{ name: 'proxy', pid: proxy.pid }, { name: 'policy', pid: policy.pid }] },
    ...(udsProxy === undefined ? [] : [{ name: 'gateway-uds', port: udsProxy.port, headers: { 'x-api-key': key.key }, procs: [{ name: 'proxy', pid: udsProxy.pid }, { name: 'policy', pid: policy.pid }] }]),
    ...(workersProxy === undefined ? [] : [{
      name: `gateway-w${WORKERS}`, port: workersProxy.port, headers: { 'x-api-key': key.key },
      procs: [{ name: 'proxy', pids: [workersProxy.pid, ...workerPids] }, { name: 'primary', pid: workersProxy.pid }, ...workerPids.map((pid, i) => ({ name: `worker-${i + 1}`, pid })), { name: 'policy', pid: policy.pid }],
    }]),
    ...(tokeniseKey === undefined ? [] : [{ name: 'gateway-tokenise', port: proxy.port, headers: { 'x-api-key': tokeniseKey.key }, procs: [{ name: 'proxy', pid: proxy.pid }, { name: 'policy', pid: policy.pid }] }]),
  ].map((a) => ({
    ...a,
    pool: new Pool(`http://127.0.0.1:${a.port}`, { connections: CONCURRENCY }),
    ms: [], ttft: [], streamMs: [], rps: [], errors: 0, sent: 0,
    cpu: { seq: { n: 0, ms: {} }, conc: { n: 0, ms: {} } },
  }));
  cleanups.push(() => Promise.all(arms.map((a) => a.pool.close())));
  const headersOf = (arm) => ({ 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...arm.headers });
  const send = async (arm) => {
    arm.sent += 1;
    const t0 = performance.now();
    const res = await arm.pool.request({ path: '/v1/messages', method: 'POST', headers: headersOf(arm), body: BODY });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${arm.name} answered ${res.statusCode}`);
    return performance.now() - t0;
  };
  const sendStreamed = async (arm) => {
    arm.sent += 1;
    const t0 = performance.now();
    const res = await arm.pool.request({ path: '/v1/messages', method: 'POST', headers: headersOf(arm), body: STREAM_BODY });
    let ttft = Number.NaN;
    let seen = '';
    for await (const chunk of res.body) {
      if (Number.isNaN(ttft)) {
        seen += chunk;
        if (seen.includes('content_block_delta')) ttft = performance.now() - t0;
      }
    }
    if (res.statusCode !== 200 || Number.isNaN(ttft)) throw new Error(`${arm.name} answered ${res.statusCode} to a stream`);
    return { ttft, total: performance.now() - t0 };
  };
  /** Runs `phase` and adds the CPU each of the arm's processes used to `into`, with the requests it made. */
  const measured = async (arm, into, phase) => {
    const before = cpuOf(arm.procs);
    const n = await phase();
    const after = cpuOf(arm.procs);
    into.n += n;
    for (const p of arm.procs) into.ms[p.name] = (into.ms[p.name] ?? 0) + after[p.name] - before[p.name];
  };
  const concurrently = async (arm) => {
    let done = 0;
    const t0 = performance.now();
    const until = t0 + CONCURRENT_MS;
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        try {
          await send(arm);
          done += 1;
        } catch {
          arm.errors += 1;
        }
      }
    }));
    arm.rps.push((done * 1000) / (performance.now() - t0));
    return done;
  };

  process.stderr.write(`bench:floor: warming up, then ${ROUNDS} rounds per arm of ${PER_ROUND} sequential, ${PER_ROUND / 2} streamed and ${CONCURRENT_MS} ms at ${CONCURRENCY} in flight\n`);
  for (const arm of arms) {
    const until = performance.now() + 2000;
    while (performance.now() < until) await Promise.all(Array.from({ length: CONCURRENCY }, () => send(arm)));
    for (let i = 0; i < 100; i += 1) await send(arm);
    for (let i = 0; i < 100; i += 1) await sendStreamed(arm);
  }
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const arm of arms.map((_, i) => arms[(i + round) % arms.length])) {
      await measured(arm, arm.cpu.seq, async () => {
        for (let i = 0; i < PER_ROUND; i += 1) arm.ms.push(await send(arm));
        return PER_ROUND;
      });
      for (let i = 0; i < PER_ROUND / 2; i += 1) {
        const { ttft, total } = await sendStreamed(arm);
        arm.ttft.push(ttft);
        arm.streamMs.push(total);
      }
      await measured(arm, arm.cpu.conc, () => concurrently(arm));
    }
    process.stderr.write(`bench:floor: round ${round + 1}/${ROUNDS} done\n`);
  }

  const [direct, sk, gw] = arms;
  const uds = arms.find((a) => a.name === 'gateway-uds');
  const workers = arms.find((a) => a.name.startsWith('gateway-w'));
  const tok = arms.find((a) => a.name === 'gateway-tokenise');
  const p = (a, k, q) => percentile(a[k], q);
  const ms = (x) => `${x.toFixed(2)} ms`;
  const usPer = (cpu, name) => (1000 * (cpu.ms[name] ?? Number.NaN)) / cpu.n;
  const sorted = (xs) => [...xs].sort((a, b) => a - b);
  const out = [`bench:floor, ${new Date().toISOString()}, ${JSON.stringify(machine())}`, ''];
  out.push(`1 in flight (${ROUNDS * PER_ROUND} requests, ${ROUNDS * PER_ROUND / 2} streamed, per arm):`, '');
  out.push('| arm | p50 | p99 | added p50 | added p99 | TTFT p50 | TTFT p99 | added TTFT p50 |', '|---|---|---|---|---|---|---|---|');
  for (const a of arms) {
    out.push(`| ${a.name} | ${ms(p(a, 'ms', 0.5))} | ${ms(p(a, 'ms', 0.99))} | ${ms(p(a, 'ms', 0.5) - p(direct, 'ms', 0.5))} | ${ms(p(a, 'ms', 0.99) - p(direct, 'ms', 0.99))} | ${ms(p(a, 'ttft', 0.5))} | ${ms(p(a, 'ttft', 0.99))} | ${ms(p(a, 'ttft', 0.5) - p(direct, 'ttft', 0.5))} |`);
  }
  out.push('', `${CONCURRENCY} in flight (${ROUNDS} × ${CONCURRENT_MS} ms per arm):`, '');
  out.push('| arm | req/s median | req/s per round (sorted) | errors |', '|---|---|---|---|');
  for (const a of arms) out.push(`| ${a.name} | ${percentile(a.rps, 0.5).toFixed(0)} | ${sorted(a.rps).map((x) => x.toFixed(0)).join(', ')} | ${a.errors} |`);
  out.push('', 'CPU µs per request, per process (/proc/<pid>/stat):', '');
  out.push(`| arm | process | 1 in flight | ${CONCURRENCY} in flight |`, '|---|---|---|---|');
  for (const a of arms) for (const pr of a.procs) out.push(`| ${a.name} | ${pr.name} | ${usPer(a.cpu.seq, pr.name).toFixed(0)} | ${usPer(a.cpu.conc, pr.name).toFixed(0)} |`);
  const ratio = percentile(gw.rps, 0.5) / percentile(sk.rps, 0.5);
  out.push('');
  out.push(`gateway − skeleton: added p50 ${ms(p(gw, 'ms', 0.5) - p(sk, 'ms', 0.5))}, TTFT p50 ${ms(p(gw, 'ttft', 0.5) - p(sk, 'ttft', 0.5))}, proxy CPU ${(usPer(gw.cpu.conc, 'proxy') - usPer(sk.cpu.conc, 'proxy')).toFixed(0)} µs/request at ${CONCURRENCY} in flight; req/s at ${CONCURRENCY} in flight ${ratio.toFixed(2)}× the skeleton's.`);
  if (uds !== undefined) {
    out.push(`gateway-uds − gateway (the policy stream over a Unix domain socket instead of TCP): added p50 ${ms(p(uds, 'ms', 0.5) - p(gw, 'ms', 0.5))}, proxy CPU ${(usPer(uds.cpu.conc, 'proxy') - usPer(gw.cpu.conc, 'proxy')).toFixed(0)} µs/request, policy CPU ${(usPer(uds.cpu.conc, 'policy') - usPer(gw.cpu.conc, 'policy')).toFixed(0)} µs/request at ${CONCURRENCY} in flight; req/s ${(percentile(uds.rps, 0.5) / percentile(gw.rps, 0.5)).toFixed(2)}× the TCP gateway's.`);
  }
  if (workers !== undefined) {
    out.push(`${workers.name} − gateway (${WORKERS} proxy workers sharing the port, against one process): req/s at ${CONCURRENCY} in flight ${(percentile(workers.rps, 0.5) / percentile(gw.rps, 0.5)).toFixed(2)}×, added p50 ${ms(p(workers, 'ms', 0.5) - p(gw, 'ms', 0.5))}, proxy CPU (primary and workers) ${(usPer(workers.cpu.conc, 'proxy') - usPer(gw.cpu.conc, 'proxy')).toFixed(0)} µs/request at ${CONCURRENCY} in flight (the primary's own: ${usPer(workers.cpu.conc, 'primary').toFixed(0)} µs).`);
  }
  if (tok !== undefined) {
    out.push(`gateway-tokenise − gateway (privacy tokenise against off, same processes): added p50 ${ms(p(tok, 'ms', 0.5) - p(gw, 'ms', 0.5))}, proxy CPU ${(usPer(tok.cpu.conc, 'proxy') - usPer(gw.cpu.conc, 'proxy')).toFixed(0)} µs/request at ${CONCURRENCY} in flight; req/s ${(percentile(tok.rps, 0.5) / percentile(gw.rps, 0.5)).toFixed(2)}× privacy off's (the target: ≥ 0.85×), per round ${tok.rps.map((x, i) => (x / gw.rps[i]).toFixed(2)).join(', ')}.`);
  }
  const rows = arms.map((a) => ({
    arm: a.name, p50: p(a, 'ms', 0.5), p99: p(a, 'ms', 0.99), ttftP50: p(a, 'ttft', 0.5), ttftP99: p(a, 'ttft', 0.99),
    rps: a.rps, errors: a.errors,
    cpuUs: Object.fromEntries(a.procs.map((pr) => [pr.name, { seq: usPer(a.cpu.seq, pr.name), conc: usPer(a.cpu.conc, pr.name) }])),
  }));
  out.push(`result: ${JSON.stringify({ rounds: ROUNDS, perRound: PER_ROUND, concurrency: CONCURRENCY, concurrentMs: CONCURRENT_MS, rows })}`);
  process.stdout.write(`${out.join('\n')}\n`);
  if (CPU_PROF) cleanups.push(() => printProfiles(profDir, { skeleton: sk.sent, gateway: gw.sent }));
}

/**
 * After the children have exited (their profiles are written on exit): each process's busy time by area, in µs per
 * request over every request its arm served (warm-up included; the profiler's own cost inflates it), and the
 * functions with the most self time.
 */
function printProfiles(profDir, sent) {
  const processes = [
    { name: 'skeleton', what: 'skeleton proxy', areas: PROXY_AREAS, arm: 'skeleton' },
    { name: 'gateway', what: 'gateway proxy', areas: PROXY_AREAS, arm: 'gateway' },
    { name: 'skeleton-policy', what: 'skeleton policy', areas: POLICY_AREAS, arm: 'skeleton' },
    // The policy service's CPU per request counts only the gateway arm's requests (UDS, workers and tokenise arms
    // share it): run the profile without those arms.
    { name: 'policy', what: 'gateway policy service', areas: POLICY_AREAS, arm: 'gateway' },
  ];
  for (const { name, what, areas, arm } of processes) {
    const files = readdirSync(join(profDir, name)).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(profDir, name, f));
    // A worker thread (the policy service's ledger writer, the proxy's) writes a profile of its own: each is shown.
    const threads = files.map((f) => ({ f, ...busyTimeByArea(f, areas) })).sort((a, b) => b.busyMs - a.busyMs);
    for (const [i, t] of threads.entries()) {
      const us = (share) => ((share * t.busyMs * 1000) / sent[arm]).toFixed(0).padStart(5);
      process.stdout.write(`\n${what}${i === 0 ? '' : `, thread ${i + 1}`} (${t.f}): busy ${((t.busyMs * 1000) / sent[arm]).toFixed(0)} µs per request\n`);
      for (const a of t.areas) process.stdout.write(`${us(a.share)} µs ${(100 * a.share).toFixed(1).padStart(5)}%  ${a.area}\n`);
      if (i === 0) process.stdout.write(`top self time:\n${topSelfTime(t.f, 30).join('\n')}\n`);
    }
  }
}

try {
  await main();
} finally {
  // Each child ends before its Redis and data directory go; one that does not within 10 s is killed.
  await Promise.all(children.reverse().map((c) => new Promise((done) => {
    if (c.exitCode !== null || c.signalCode !== null) return done();
    const kill = setTimeout(() => c.kill('SIGKILL'), 10_000);
    c.once('exit', () => {
      clearTimeout(kill);
      done();
    });
    c.kill('SIGTERM');
  })));
  while (cleanups.length > 0) await Promise.resolve(cleanups.pop()()).catch((err) => process.stderr.write(`${err}\n`));
}
