// `node bench/routes-ab.mjs` (after `npx tsc -b`): what the route loop costs a key with one healthy route, proxy
// against proxy, side by side in one run. Arms, each a proxy process of its own against one policy service (this
// checkout's) and the bench's fast mock upstream, a live key, privacy off:
//   before   the proxy of the last main before routes (ROUTES_AB_BEFORE, default 9346189: it reads the decision's
//            one route)
//   routes   the proxy of the merge that brought routes (ROUTES_AB_AFTER, default 57c65d7)
//   current  this checkout's proxy
// The older trees are checked out from this repository's history (git archive) and built with this checkout's
// TypeScript, as the rolling-upgrade test builds its previous release. Rounds alternate the arms (rotating their
// order); per round: p50 at 1 in flight (sequential), requests/s at 16 in flight, and the proxy's CPU per request.
// Prints JSON: per arm the median over rounds and the range, and for `routes` and `current` the per-round
// difference from `before` (paired: the same round's load hits all arms). The key's tier has three routes, the
// first healthy: the case every request takes when nothing fails.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { TestGateway, createKey, startService } from '../test/dist/src/harness/gateway.js';
import { processCpuMs } from './stats.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BEFORE = process.env.ROUTES_AB_BEFORE ?? '93461890d6890c89b6e764ba9f67db9324df6f08';
const AFTER = process.env.ROUTES_AB_AFTER ?? '57c65d72bf9112231a93eda9d2cc02e9d91c0975';
const ROUNDS = Number(process.env.ROUTES_AB_ROUNDS ?? 5);
const SEQUENTIAL = Number(process.env.ROUTES_AB_SEQUENTIAL ?? 200);
const CONCURRENT = Number(process.env.ROUTES_AB_CONCURRENT ?? 800);

function build(commit) {
  const root = mkdtempSync(join(tmpdir(), 'bench-routes-ab-'));
  execFileSync('sh', ['-c', `git -C "${ROOT}" archive --format=tar "${commit}" | tar -x -C "${root}"`], { stdio: 'pipe' });
  const modules = join(root, 'node_modules');
  mkdirSync(join(modules, '@gateway'), { recursive: true });
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (name === '@gateway' || name === '.package-lock.json') continue;
    symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
  }
  for (const ws of ['shared', 'policy', 'proxy', 'test', 'privacy']) {
    if (existsSync(join(root, ws))) symlinkSync(join(root, ws), join(modules, '@gateway', ws));
  }
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'shared', 'policy', 'proxy'], { cwd: root, stdio: 'pipe' });
  return root;
}

async function startMock() {
  const child = spawn(process.execPath, [join(ROOT, 'bench/fast-mock.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const rl = createInterface({ input: child.stdout });
  const port = await new Promise((res) => rl.on('line', (l) => {
    const m = /^\{"port":(\d+)\}$/.exec(l);
    if (m) res(Number(m[1]));
  }));
  return { port, stop: () => child.kill('SIGTERM') };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round3 = (x) => Math.round(x * 1000) / 1000;

const roots = [build(BEFORE), build(AFTER)];
const mock = await startMock();
const upstream = { UPSTREAM_URL: `http://127.0.0.1:${mock.port}/v1`, UPSTREAM_API_KEY: 'bench' };
const gw = await new TestGateway({ env: upstream }).start();
const others = [];
try {
  const arms = [{ name: 'current', port: gw.ports[0], pid: gw.proxiesRunning[0].child.pid }];
  for (const [name, root] of [['before', roots[0]], ['routes', roots[1]]]) {
    const p = startService(`proxy-${name}`, join(root, 'proxy/dist/src/main.js'), { ...gw.env, ...upstream, POLICY_ADDR: `127.0.0.1:${gw.policyPort}` });
    others.push(p);
    arms.push({ name, port: (await p.waitFor((l) => l.msg === 'proxy listening'))['port'], pid: p.child.pid });
  }
  const key = await createKey(gw, { env: 'live', plan: { name: 'bench-routes-ab', concurrency: 64, rpm: 10_000_000 } });
  const body = JSON.stringify({ model: 'alpha-sonnet-5', max_tokens: 16, messages: [{ role: 'user', content: 'Hello routes' }] });
  const post = async (port) => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key.key }, body });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${port}: ${res.status}`);
  };
  for (const a of arms) for (let i = 0; i < 50; i += 1) await post(a.port); // warm-up
  const results = Object.fromEntries(arms.map((a) => [a.name, { p50: [], rps: [], cpu: [] }]));
  for (let r = 0; r < ROUNDS; r += 1) {
    const order = arms.map((_, i) => arms[(i + r) % arms.length]);
    for (const a of order) {
      const cpu0 = processCpuMs(a.pid);
      const lat = [];
      for (let i = 0; i < SEQUENTIAL; i += 1) {
        const t = performance.now();
        await post(a.port);
        lat.push(performance.now() - t);
      }
      results[a.name].p50.push(median(lat));
      let next = 0;
      const t0 = performance.now();
      await Promise.all(Array.from({ length: 16 }, async () => {
        while (next < CONCURRENT) {
          next += 1;
          await post(a.port);
        }
      }));
      results[a.name].rps.push(CONCURRENT / ((performance.now() - t0) / 1000));
      // The proxy's own CPU per request (user + system): what load elsewhere on the machine disturbs least.
      results[a.name].cpu.push(((processCpuMs(a.pid) - cpu0) * 1000) / (SEQUENTIAL + CONCURRENT));
    }
  }
  const out = { rounds: ROUNDS, sequential: SEQUENTIAL, concurrent: CONCURRENT, before: BEFORE.slice(0, 7), routes: AFTER.slice(0, 7), arms: {} };
  for (const [name, r] of Object.entries(results)) {
    out.arms[name] = {
      p50_ms_1_in_flight: round3(median(r.p50)), p50_range: [round3(Math.min(...r.p50)), round3(Math.max(...r.p50))],
      rps_16_in_flight: Math.round(median(r.rps)), rps_range: [Math.round(Math.min(...r.rps)), Math.round(Math.max(...r.rps))],
      proxy_cpu_us_per_request: Math.round(median(r.cpu)), cpu_range: [Math.round(Math.min(...r.cpu)), Math.round(Math.max(...r.cpu))],
    };
  }
  // Paired per round against `before` (the same round's load hits both): the median difference and its range.
  for (const name of ['routes', 'current']) {
    const dp = results[name].p50.map((x, i) => x - results.before.p50[i]);
    const rr = results[name].rps.map((x, i) => x / results.before.rps[i]);
    out.arms[name].p50_ms_minus_before = { median: round3(median(dp)), range: [round3(Math.min(...dp)), round3(Math.max(...dp))] };
    out.arms[name].rps_ratio_to_before = { median: round3(median(rr)), range: [round3(Math.min(...rr)), round3(Math.max(...rr))] };
    const dc = results[name].cpu.map((x, i) => x - results.before.cpu[i]);
    out.arms[name].cpu_us_minus_before = { median: Math.round(median(dc)), range: [Math.round(Math.min(...dc)), Math.round(Math.max(...dc))] };
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
} finally {
  for (const p of others) await p.stop();
  await gw.stop();
  mock.stop();
  for (const r of roots) rmSync(r, { recursive: true, force: true });
}
