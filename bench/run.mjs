// `npm run bench`: the gateway side by side with its peers, in one run, on this machine. Arms:
//   direct    the fast mock upstream itself (bench/fast-mock.mjs): the floor every other arm is measured from
//   nginx     a plain reverse proxy (proxy_buffering off, keep-alive upstream, one worker), Debian's nginx-light
//   portkey   Portkey's open-source gateway (@portkey-ai/gateway from npm, custom host = the mock)
//   gateway   this gateway: a live key, privacy off, counters on Redis (a disposable redis-server), full path
//   tokenise  the same gateway with a live key in tokenise mode (the prompt carries an email address)
//   traced    a second gateway as `gateway` with OpenTelemetry tracing on, sampled 100 %, exporting OTLP/HTTP to a
//             local sink that accepts every export (a collector that keeps up); `gateway` has tracing off
// Every arm gets the same request; rounds alternate the arms (rotating their order) so load from elsewhere on a
// shared machine hits them alike. Figures are *added* over direct (arm − direct at the same percentile).
//
//   node bench/run.mjs [--quick] [--cpu-prof]
//
// --quick: fewer samples (about a minute). --cpu-prof: the gateway's processes write V8 CPU profiles to
// bench/results/profiles and their top self-time functions are printed. Results: a markdown table on stdout and
// bench/results/latest.json; each process's output in bench/results/logs (all git-ignored). Installs report on
// stderr, so stdout is the table alone. Missing peers are installed: nginx-light with apt-get (as root),
// Portkey into bench/.peers with npm (git-ignored), never as project dependencies.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { Pool } from 'undici';
import { startTraceSink } from './trace-sink.mjs';
import { startChild as startSharedChild } from './child-process.mjs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { RedisServerProcess } from '@gateway/policy/test-support/redis';
import { TestGateway, createKey } from '../test/dist/src/harness/gateway.js';
import { fmt, machine, percentile, processCpuMs } from './stats.mjs';
import { topSelfTime } from './profile-top.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const QUICK = process.argv.includes('--quick');
const CPU_PROF = process.argv.includes('--cpu-prof');
const CFG = QUICK
  ? { warmupSeconds: 3, warmup: 100, rounds: 2, perRound: 60, loadSeconds: 1.5, loadRounds: 2, streams: 300 }
  : { warmupSeconds: 5, warmup: 300, rounds: 4, perRound: 150, loadSeconds: 3, loadRounds: 3, streams: 1000 };
const IN_FLIGHT = 16;
const RESULTS = join(ROOT, 'bench/results');
const PROMPT = 'Please summarise the attached meeting notes in three bullet points and send them to jane.doe@example.com.';
const BODY = JSON.stringify({ model: 'alpha-sonnet-5', max_tokens: 64, messages: [{ role: 'user', content: PROMPT }] });
const STREAM_BODY = JSON.stringify({ model: 'alpha-sonnet-5', max_tokens: 64, stream: true, messages: [{ role: 'user', content: PROMPT }] });
const SLOW_BODY = JSON.stringify({ model: 'alpha-sonnet-5', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'bench-slow' }] });

const cleanups = [];
async function cleanup() {
  while (cleanups.length > 0) await Promise.resolve(cleanups.pop()()).catch(() => undefined);
}
process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));

const log = (msg) => process.stderr.write(`${msg}\n`);

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

/** startChild (bench/child-process.mjs) with this bench's log folder, clean-up list and the repository as cwd. */
const startChild = (name, cmd, args, { env, ready, cwd = ROOT }) =>
  startSharedChild(name, cmd, args, { env, ready, cwd, logDir: join(RESULTS, 'logs'), cleanups });

/** Resolves once something accepts connections on the port. */
async function waitForPort(port, name) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const ok = await new Promise((r) => {
      const req = request({ host: '127.0.0.1', port, path: '/', method: 'GET' }, (res) => {
        res.resume();
        r(true);
      });
      req.on('error', () => r(false));
      req.end();
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} is not listening on ${port}`);
}

// ---------------------------------------------------------------------------------------------- the arms

async function startMock() {
  const { match } = await startChild('mock', process.execPath, ['bench/fast-mock.mjs'], { ready: /^\{"port":(\d+)\}$/ });
  return Number(match[1]);
}

function ensureNginx() {
  const has = () => ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
  if (has() === undefined) {
    log('installing nginx-light (apt-get)…');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    // A fresh machine may have no package lists yet.
    execFileSync('apt-get', ['update', '-q'], { stdio: ['ignore', 2, 2], env });
    execFileSync('apt-get', ['install', '-y', '-q', 'nginx-light'], { stdio: ['ignore', 2, 2], env });
  }
  const bin = has();
  if (bin === undefined) throw new Error('nginx could not be installed');
  return bin;
}

async function startNginx(mockPort) {
  const bin = ensureNginx();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bench-nginx-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'nginx.conf'), `
worker_processes 1;
error_log ${dir}/error.log warn;
pid ${dir}/nginx.pid;
events { worker_connections 8192; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  upstream mock { server 127.0.0.1:${mockPort}; keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    keepalive_requests 1000000;
    location / {
      proxy_pass http://mock;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
      proxy_read_timeout 120s;
    }
  }
}
`);
  const { child } = await startChild('nginx', bin, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {});
  await waitForPort(port, 'nginx');
  // The master and its worker(s): the worker does the proxying.
  const pids = () => [child.pid, ...execFileSync('ps', ['-o', 'pid=', '--ppid', String(child.pid)]).toString().split('\n').map(Number).filter((n) => n > 0)];
  return { port, pids };
}

function ensurePortkey() {
  const peers = join(ROOT, 'bench/.peers');
  const entry = join(peers, 'node_modules/@portkey-ai/gateway/build/start-server.js');
  if (!existsSync(entry)) {
    log('installing @portkey-ai/gateway into bench/.peers (npm)…');
    mkdirSync(peers, { recursive: true });
    if (!existsSync(join(peers, 'package.json'))) writeFileSync(join(peers, 'package.json'), '{"private":true}\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', peers, '@portkey-ai/gateway@1'], { stdio: ['ignore', 2, 2] });
  }
  return entry;
}

async function startPortkey() {
  const entry = ensurePortkey();
  const port = await freePort();
  // NODE_ENV=production: no web UI. It listens on every interface (it has no host option); nothing is sent to
  // it but from this script on loopback.
  const { child } = await startChild('portkey', process.execPath, ['--import', join(ROOT, 'bench/portkey-fetch-shim.mjs'), entry, `--port=${port}`, '--headless'], {
    env: { NODE_ENV: 'production', TRUSTED_CUSTOM_HOSTS: '127.0.0.1' },
  });
  await waitForPort(port, 'portkey');
  return { port, pids: () => [child.pid] };
}

async function startGateway(mockPort, extraEnv = {}) {
  const redis = await RedisServerProcess.start();
  cleanups.push(() => redis.stop());
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-gateway-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const profDir = join(RESULTS, 'profiles');
  // Profiles of the first gateway only (the traced one would otherwise clear its directory).
  const profile = CPU_PROF && Object.keys(extraEnv).length === 0;
  if (profile) {
    rmSync(profDir, { recursive: true, force: true });
    mkdirSync(profDir, { recursive: true });
  }
  const node = (script) => [...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), script];
  const env = {
    GATEWAY_DATA_DIR: dataDir,
    REDIS_URL: redis.url,
    METRICS_PORT: '0',
    MAX_CONNECTIONS: '50000',
    MAX_CONNECTIONS_PER_SOURCE: '20000',
    // Two gateways run side by side (gateway and traced): each admin port a free one.
    ADMIN_PORT: '0',
    ...extraEnv,
  };
  const policy = await startChild('policy', process.execPath, node('policy/dist/src/main.js'), {
    env: { ...env, POLICY_ADDR: '127.0.0.1:0' },
    ready: /"port":(\d+).*"policy service listening"/,
  });
  const policyPort = Number(policy.match[1]);
  const proxy = await startChild('proxy', process.execPath, node('proxy/dist/src/main.js'), {
    env: { ...env, POLICY_ADDR: `127.0.0.1:${policyPort}`, PORT: '0', UPSTREAM_URL: `http://127.0.0.1:${mockPort}/v1`, UPSTREAM_API_KEY: 'bench' },
    ready: /"port":(\d+).*"proxy listening"/,
  });
  const ctl = new TestGateway({ dataDir });
  const plan = { name: 'bench', rpm: 100_000_000, concurrency: 100_000, allowance: 1_000_000_000_000 };
  const off = await createKey(ctl, { env: 'live', privacy: 'off', plan });
  const tokenise = await createKey(ctl, { env: 'live', privacy: 'tokenise', account: off.account_id });
  const redisPid = Number(/process_id:(\d+)/.exec(execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', new URL(redis.url).port, 'INFO', 'server']).toString())?.[1]);
  const pids = { proxy: proxy.child.pid, policy: policy.child.pid, redis: redisPid };
  return { port: Number(proxy.match[1]), keys: { off: off.key, tokenise: tokenise.key }, pids, profDir, stop: () => cleanup() };
}

// ------------------------------------------------------------------------------------------- the client

// The client is undici (a keep-alive pool per arm): about half the CPU per request of node:http's Agent, which
// used 92-99% of a core at 16 in flight and so capped the fastest arms and starved the others of CPU.
function armClient(name, port, headers, pids) {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: IN_FLIGHT, keepAliveTimeout: 60_000 });
  cleanups.push(() => pool.destroy());
  return { name, port, headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...headers }, pool, pids };
}

/** One request; resolves with [status, ms to the whole response, ms to the first content_block_delta]. */
async function send(arm, body) {
  const t0 = performance.now();
  let first = Number.NaN;
  try {
    const res = await arm.pool.request({ path: '/v1/messages', method: 'POST', headers: arm.headers, body });
    let seen = '';
    for await (const chunk of res.body) {
      if (Number.isNaN(first)) {
        seen += chunk.toString('utf8');
        if (seen.includes('content_block_delta')) first = performance.now() - t0;
      }
    }
    return [res.statusCode, performance.now() - t0, first];
  } catch {
    return [0, performance.now() - t0, first];
  }
}

const rotate = (list, by) => list.map((_, i) => list[(i + by) % list.length]);

/** `perRound` sequential requests per arm per round, arms rotating; returns ms lists per arm. */
async function sequential(arms, body, pick) {
  const out = Object.fromEntries(arms.map((a) => [a.name, []]));
  const errors = Object.fromEntries(arms.map((a) => [a.name, 0]));
  for (let round = 0; round < CFG.rounds; round += 1) {
    for (const arm of rotate(arms, round)) {
      for (let i = 0; i < CFG.perRound; i += 1) {
        const r = await send(arm, body);
        if (r[0] !== 200) errors[arm.name] += 1;
        else out[arm.name].push(pick(r));
      }
    }
  }
  return { ms: out, errors };
}

/** A closed loop of IN_FLIGHT workers per arm for loadSeconds, rounds rotating; latencies, rate, CPU. */
async function loaded(arms) {
  const res = Object.fromEntries(arms.map((a) => [a.name, { ms: [], ok: 0, errors: 0, seconds: 0, cpuMs: {}, clientCpuMs: 0 }]));
  for (let round = 0; round < CFG.loadRounds; round += 1) {
    for (const arm of rotate(arms, round)) {
      const r = res[arm.name];
      const pids = arm.pids();
      const cpu0 = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, processCpuMs(pid)]));
      const self0 = process.cpuUsage();
      const t0 = performance.now();
      const end = t0 + CFG.loadSeconds * 1000;
      await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
        while (performance.now() < end) {
          const [status, ms] = await send(arm, BODY);
          if (status === 200) {
            r.ok += 1;
            r.ms.push(ms);
          } else r.errors += 1;
        }
      }));
      r.seconds += (performance.now() - t0) / 1000;
      const self = process.cpuUsage(self0);
      r.clientCpuMs += (self.user + self.system) / 1000;
      for (const [k, pid] of Object.entries(pids)) r.cpuMs[k] = (r.cpuMs[k] ?? 0) + processCpuMs(pid) - cpu0[k];
    }
  }
  return res;
}

function rssKb(pids) {
  let kb = 0;
  for (const pid of pids) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      /* gone */
    }
  }
  return kb;
}

/**
 * KB of RSS each concurrent slow stream costs the arm's processes: `n` streams opened in two halves, RSS read a
 * second after each half is streaming, and the second half's growth divided by its streams. Read against the
 * first half rather than against the idle process, the figure is not undone by a GC freeing what the load
 * phases before it left behind (a baseline taken before the first stream made it negative in some runs).
 */
async function rssPerStream(arm, n) {
  const pids = Object.values(arm.pids());
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const reqs = [];
  const open = (count) => new Promise((resolveAll) => {
    let started = 0;
    const timer = setTimeout(() => resolveAll(started), 15_000);
    for (let i = 0; i < count; i += 1) {
      const req = request({ host: '127.0.0.1', port: arm.port, path: '/v1/messages', method: 'POST', agent, headers: { ...arm.headers, 'content-length': Buffer.byteLength(SLOW_BODY) } }, (res) => {
        let seen = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          if (seen === null) return;
          seen += c;
          if (seen.includes('content_block_delta')) {
            seen = null;
            started += 1;
            if (started === count) {
              clearTimeout(timer);
              resolveAll(started);
            }
          }
        });
        res.on('error', () => undefined);
      });
      req.on('error', () => undefined);
      req.end(SLOW_BODY);
      reqs.push(req);
    }
  });
  const settle = () => new Promise((r) => setTimeout(r, 1000));
  const first = await open(Math.floor(n / 2));
  await settle();
  const before = rssKb(pids);
  const second = await open(n - Math.floor(n / 2));
  await settle();
  const during = rssKb(pids);
  for (const req of reqs) req.destroy();
  agent.destroy();
  await new Promise((r) => setTimeout(r, 1500));
  return { streams: first + second, kbPerStream: second === 0 ? Number.NaN : (during - before) / second };
}

// -------------------------------------------------------------------------------------------------- run

async function main() {
  if (!existsSync(join(ROOT, 'proxy/dist/src/main.js'))) throw new Error('build first: npm run build (npm run bench does)');
  mkdirSync(RESULTS, { recursive: true });
  const started = Date.now();
  log(`bench: ${QUICK ? 'quick' : 'full'} run${CPU_PROF ? ', with CPU profiles' : ''}`);
  const mockPort = await startMock();
  const mockPid = () => ({});
  const nginx = await startNginx(mockPort);
  const portkey = await startPortkey();
  const gateway = await startGateway(mockPort);
  const gatewayPids = () => gateway.pids;
  const sink = await startTraceSink();
  cleanups.push(sink.close);
  const traced = await startGateway(mockPort, { OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint, OTEL_TRACES_SAMPLER: 'always_on' });
  const arms = [
    armClient('direct', mockPort, { 'x-api-key': 'bench' }, mockPid),
    armClient('nginx', nginx.port, { 'x-api-key': 'bench' }, () => Object.fromEntries(nginx.pids().map((p, i) => [`nginx${i}`, p]))),
    armClient('portkey', portkey.port, { 'x-api-key': 'bench', 'x-portkey-provider': 'anthropic', 'x-portkey-custom-host': `http://127.0.0.1:${mockPort}/v1` }, () => ({ portkey: portkey.pids()[0] })),
    armClient('gateway', gateway.port, { 'x-api-key': gateway.keys.off }, gatewayPids),
    armClient('tokenise', gateway.port, { 'x-api-key': gateway.keys.tokenise }, gatewayPids),
    armClient('traced', traced.port, { 'x-api-key': traced.keys.off }, () => traced.pids),
  ];

  // A Node process reaches its steady speed only after thousands of requests (V8 optimises a function once it has
  // run often): measured on this gateway sequentially, p50 2.4 ms over the first 250 requests, 1.5 ms after 1,000,
  // 1.0 ms from about 4,000 on. A few hundred sequential requests would measure a cold process, so every arm is
  // first driven at IN_FLIGHT for warmupSeconds (thousands of requests, both bodies) and only then measured.
  log('warming up…');
  for (const arm of arms) {
    const end = performance.now() + CFG.warmupSeconds * 1000;
    let sent = 0;
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      while (performance.now() < end) {
        const [status] = await send(arm, (sent += 1) % 2 === 0 ? BODY : STREAM_BODY);
        if (status !== 200) throw new Error(`${arm.name}: warm-up request answered ${status}`);
      }
    }));
    for (let i = 0; i < CFG.warmup; i += 1) {
      const [status] = await send(arm, i % 2 === 0 ? BODY : STREAM_BODY);
      if (status !== 200) throw new Error(`${arm.name}: warm-up request answered ${status}`);
    }
  }
  log('latency, 1 in flight…');
  const one = await sequential(arms, BODY, (r) => r[1]);
  log('time to first token, 1 in flight…');
  const ttft = await sequential(arms, STREAM_BODY, (r) => r[2]);
  log(`${IN_FLIGHT} in flight…`);
  const load = await loaded(arms);
  log(`RSS per concurrent slow stream (${CFG.streams} streams)…`);
  const rss = {};
  for (const arm of arms.filter((a) => !['tokenise', 'direct', 'traced'].includes(a.name))) rss[arm.name] = await rssPerStream(arm, CFG.streams);

  const base = {
    p50: percentile(one.ms.direct, 0.5), p99: percentile(one.ms.direct, 0.99),
    l50: percentile(load.direct.ms, 0.5), l99: percentile(load.direct.ms, 0.99),
    t50: percentile(ttft.ms.direct, 0.5), t99: percentile(ttft.ms.direct, 0.99),
  };
  const rows = arms.map((arm) => {
    const l = load[arm.name];
    const cpuUs = Object.fromEntries(Object.entries(l.cpuMs).map(([k, ms]) => [k, (ms * 1000) / Math.max(1, l.ok)]));
    return {
      arm: arm.name,
      added_p50_1: percentile(one.ms[arm.name], 0.5) - base.p50,
      added_p99_1: percentile(one.ms[arm.name], 0.99) - base.p99,
      added_p50_16: percentile(l.ms, 0.5) - base.l50,
      added_p99_16: percentile(l.ms, 0.99) - base.l99,
      rps_16: l.ok / l.seconds,
      errors: one.errors[arm.name] + ttft.errors[arm.name] + l.errors,
      added_ttft_p50: percentile(ttft.ms[arm.name], 0.5) - base.t50,
      added_ttft_p99: percentile(ttft.ms[arm.name], 0.99) - base.t99,
      cpu_us_per_request: cpuUs,
      cpu_us_total: Object.values(cpuUs).reduce((a, b) => a + b, 0),
      client_cpu_share: l.clientCpuMs / (l.seconds * 1000),
      rss_kb_per_stream: rss[arm.name]?.kbPerStream ?? Number.NaN,
      slow_streams: rss[arm.name]?.streams ?? 0,
      raw: { p50_1: percentile(one.ms[arm.name], 0.5), p99_1: percentile(one.ms[arm.name], 0.99), ttft_p50: percentile(ttft.ms[arm.name], 0.5) },
    };
  });
  const by = Object.fromEntries(rows.map((r) => [r.arm, r]));

  const out = [];
  const date = new Date().toISOString().slice(0, 10);
  out.push(`bench (${QUICK ? 'quick' : 'full'}), ${date}, ${JSON.stringify(machine())}`);
  out.push(`direct: p50 ${fmt(base.p50)} ms, p99 ${fmt(base.p99)} ms at 1 in flight; TTFT p50 ${fmt(base.t50)} ms; ${fmt(by.direct.rps_16, 0)} req/s at ${IN_FLIGHT} in flight`);
  out.push('');
  out.push(`| arm | added p50, 1 in flight | added p99, 1 in flight | added p50 / p99, ${IN_FLIGHT} in flight | req/s, ${IN_FLIGHT} in flight | added TTFT p50 / p99 | CPU µs per request | RSS per slow stream | errors |`);
  out.push('|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const cpu = r.arm === 'direct' ? '-' : `${fmt(r.cpu_us_total, 0)}${Object.keys(r.cpu_us_per_request).length > 1 ? ` (${Object.entries(r.cpu_us_per_request).map(([k, v]) => `${k} ${fmt(v, 0)}`).join(', ')})` : ''}`;
    const mem = Number.isFinite(r.rss_kb_per_stream)
      ? r.rss_kb_per_stream > 0 ? `${fmt(r.rss_kb_per_stream, 1)} KB (${r.slow_streams})` : `n/a: GC (${r.slow_streams})`
      : r.arm === 'tokenise' || r.arm === 'traced' ? 'as gateway' : '-';
    out.push(`| ${r.arm} | ${r.arm === 'direct' ? '0' : fmt(r.added_p50_1)} ms | ${r.arm === 'direct' ? '0' : fmt(r.added_p99_1)} ms | ${r.arm === 'direct' ? '0 / 0' : `${fmt(r.added_p50_16)} / ${fmt(r.added_p99_16)}`} ms | ${fmt(r.rps_16, 0)} | ${r.arm === 'direct' ? '0 / 0' : `${fmt(r.added_ttft_p50)} / ${fmt(r.added_ttft_p99)}`} ms | ${cpu} | ${mem} | ${r.errors} |`);
  }
  const g = by.gateway;
  const check = (label, met, figure) => out.push(`- ${met ? 'met' : 'MISSED'}: ${label} (${figure})`);
  out.push('');
  out.push('Targets ("Money exact at every instant"), gateway arm:');
  check("raw p99 − nginx's raw p99 ≤ 1.5 ms at 1 in flight", g.raw.p99_1 - by.nginx.raw.p99_1 <= 1.5, `${fmt(g.raw.p99_1)} − ${fmt(by.nginx.raw.p99_1)} = ${fmt(g.raw.p99_1 - by.nginx.raw.p99_1)} ms`);
  check('added time to first token p50 ≤ 1.0 ms', g.added_ttft_p50 <= 1.0, `${fmt(g.added_ttft_p50)} ms`);
  check('added p50 ≤ 0.8 ms at 1 in flight', g.added_p50_1 <= 0.8, `${fmt(g.added_p50_1)} ms`);
  check(`req/s at ${IN_FLIGHT} in flight ≥ 2.5× Portkey's`, g.rps_16 >= 2.5 * by.portkey.rps_16, `${fmt(g.rps_16 / by.portkey.rps_16)}×`);
  out.push(`- figures kept from earlier targets: CPU ${fmt(g.cpu_us_total, 0)} µs per request; ${fmt(g.rps_16 / by.nginx.rps_16)}× nginx's req/s; ${g.rss_kb_per_stream > 0 ? `${fmt(g.rss_kb_per_stream, 1)} KB RSS per slow stream` : 'RSS per slow stream not measured (a GC ran; npm run test:soak measures it)'}`);
  check('zero errors', rows.every((r) => r.errors === 0), rows.map((r) => `${r.arm} ${r.errors}`).join(', '));
  const t = by.traced;
  out.push(`- tracing on (traced − gateway, sampled 100 %, ${sink.exports()} exports taken by a local sink): p50 ${fmt(t.added_p50_1 - g.added_p50_1)} ms at 1 in flight, p50 / p99 ${fmt(t.added_p50_16 - g.added_p50_16)} / ${fmt(t.added_p99_16 - g.added_p99_16)} ms at ${IN_FLIGHT} in flight, TTFT p50 ${fmt(t.added_ttft_p50 - g.added_ttft_p50)} ms, req/s ×${fmt(t.rps_16 / g.rps_16)}, CPU ${fmt(t.cpu_us_total - g.cpu_us_total, 0)} µs per request; tracing off is the gateway arm itself (no SDK started)`);
  out.push('');
  // The client's share of a core while it drove each arm: near 100%, that arm's req/s is the client's limit.
  const shares = rows.map((r) => `${r.arm} ${fmt(r.client_cpu_share * 100, 0)}%`).join(', ');
  const bound = rows.filter((r) => r.client_cpu_share > 0.9).map((r) => r.arm);
  out.push(`Load generator, share of one core while driving ${IN_FLIGHT} in flight: ${shares}. Direct served ${fmt(by.direct.rps_16 / Math.max(...rows.filter((r) => r.arm !== 'direct').map((r) => r.rps_16)))}× the fastest proxy arm, so the mock was not the bottleneck. ${bound.length === 0 ? 'The client had headroom for every arm.' : `Client-bound (req/s a lower bound): ${bound.join(', ')}; the client had headroom for the others.`}`);
  out.push(`Run took ${fmt((Date.now() - started) / 1000, 0)} s.`);

  await gateway.stop();
  await traced.stop();
  if (CPU_PROF) {
    for (const file of readdirSync(gateway.profDir).filter((f) => f.endsWith('.cpuprofile'))) {
      out.push('', `Top self time, ${file}:`);
      for (const line of topSelfTime(join(gateway.profDir, file), 15)) out.push(`  ${line}`);
    }
  }
  process.stdout.write(`${out.join('\n')}\n`);
  writeFileSync(join(RESULTS, 'latest.json'), `${JSON.stringify({ date, quick: QUICK, machine: machine(), config: CFG, rows }, null, 1)}\n`);
}

try {
  await main();
} catch (err) {
  log(String(err?.stack ?? err));
  process.exitCode = 1;
} finally {
  await cleanup();
}
