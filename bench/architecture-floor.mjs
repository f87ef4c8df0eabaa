// `npm run bench:floor`: what the customer's architecture costs on this machine before any of the product's work,
// side by side with the gateway, one request at a time. Arms, alternating in rounds:
//   direct    the fast mock upstream (bench/fast-mock.mjs)
//   skeleton  the architecture and nothing else (bench/skeleton/): an HTTP proxy that reads the body, asks a policy
//             process on one bidirectional gRPC stream, which runs one Redis script per message, then forwards with
//             undici, relays, and reports on the stream
//   gateway   this gateway as `npm run bench` runs it (live key, privacy off, counters on Redis)
// Figures are added over direct at the same percentile. The gap between skeleton and gateway is the product's own
// work on the path of a request; the skeleton's is the floor any build of this design pays here.
//
//   node bench/architecture-floor.mjs        knobs: BENCH_ROUNDS (8), BENCH_PER_ROUND (500)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { RedisServerProcess } from '@gateway/policy/test-support/redis';
import { TestGateway, createKey } from '../test/dist/src/harness/gateway.js';
import { intFromEnv, machine, percentile } from './stats.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = intFromEnv('BENCH_ROUNDS', 8, 1);
const PER_ROUND = intFromEnv('BENCH_PER_ROUND', 500, 1);
const BODY = JSON.stringify({ model: 'alpha-sonnet-5', max_tokens: 64, messages: [{ role: 'user', content: 'Please summarise the attached meeting notes in three bullet points and send them to jane.doe@example.com.' }] });

const cleanups = [];
const children = [];
/** Starts a node child from the repository root; resolves with the match of `ready` on its stdout. */
function start(script, env, ready) {
  return new Promise((resolveReady, reject) => {
    const child = spawn(process.execPath, [script], { cwd: ROOT, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(child);
    let seen = '';
    child.stdout.on('data', (d) => {
      seen += d;
      const m = ready.exec(seen);
      if (m === null) return;
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolveReady(m);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited (${code})`)));
  });
}

async function main() {
  const mock = await start('bench/fast-mock.mjs', {}, /"port":(\d+)/);
  const upstream = `http://127.0.0.1:${mock[1]}`;

  const skeletonRedis = await RedisServerProcess.start();
  cleanups.push(() => skeletonRedis.stop());
  const skeletonPolicy = await start('bench/skeleton/policy.mjs', { REDIS_URL: skeletonRedis.url }, /"port":(\d+)/);
  const skeleton = await start('bench/skeleton/proxy.mjs', { POLICY_PORT: skeletonPolicy[1], UPSTREAM_ORIGIN: upstream }, /"port":(\d+)/);

  const redis = await RedisServerProcess.start();
  cleanups.push(() => redis.stop());
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-floor-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { GATEWAY_DATA_DIR: dataDir, REDIS_URL: redis.url, METRICS_PORT: '0', ADMIN_PORT: '0' };
  const policy = await start('policy/dist/src/main.js', { ...env, POLICY_ADDR: '127.0.0.1:0' }, /"port":(\d+).*"policy service listening"/);
  const proxy = await start('proxy/dist/src/main.js', { ...env, POLICY_ADDR: `127.0.0.1:${policy[1]}`, PORT: '0', UPSTREAM_URL: `${upstream}/v1`, UPSTREAM_API_KEY: 'bench' }, /"port":(\d+).*"proxy listening"/);
  const key = await createKey(new TestGateway({ dataDir }), { env: 'live', privacy: 'off', plan: { name: 'bench', rpm: 100_000_000, concurrency: 100_000, allowance: 1_000_000_000_000 } });

  const arms = [
    { name: 'direct', port: mock[1], headers: {} },
    { name: 'skeleton', port: skeleton[1], headers: {} },
    { name: 'gateway', port: proxy[1], headers: { 'x-api-key': key.key } },
  ].map((a) => ({ ...a, pool: new Pool(`http://127.0.0.1:${a.port}`, { connections: 16 }), ms: [] }));
  cleanups.push(() => Promise.all(arms.map((a) => a.pool.close())));
  const send = async (arm) => {
    const t0 = performance.now();
    const res = await arm.pool.request({ path: '/v1/messages', method: 'POST', headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...arm.headers }, body: BODY });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${arm.name} answered ${res.statusCode}`);
    return performance.now() - t0;
  };
  process.stderr.write(`bench:floor: warming up, then ${ROUNDS} rounds of ${PER_ROUND} sequential requests per arm\n`);
  for (const arm of arms) {
    const until = performance.now() + 2000;
    while (performance.now() < until) await Promise.all(Array.from({ length: 16 }, () => send(arm)));
    for (let i = 0; i < 200; i += 1) await send(arm);
  }
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const arm of arms.map((_, i) => arms[(i + round) % arms.length])) {
      for (let i = 0; i < PER_ROUND; i += 1) arm.ms.push(await send(arm));
    }
  }
  const direct = arms[0];
  const rows = arms.map((a) => ({
    arm: a.name,
    p50: percentile(a.ms, 0.5),
    p99: percentile(a.ms, 0.99),
    addedP50: percentile(a.ms, 0.5) - percentile(direct.ms, 0.5),
    addedP99: percentile(a.ms, 0.99) - percentile(direct.ms, 0.99),
  }));
  const ms = (x) => `${x.toFixed(2)} ms`;
  const out = [`bench:floor, ${new Date().toISOString()}, ${JSON.stringify(machine())}`, '', '| arm | p50 | p99 | added p50 | added p99 |', '|---|---|---|---|---|'];
  for (const r of rows) out.push(`| ${r.arm} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.addedP50)} | ${ms(r.addedP99)} |`);
  const [, sk, gw] = rows;
  out.push('', `The product's own work on a request's path: ${ms(gw.addedP50 - sk.addedP50)} at p50 (gateway − skeleton).`);
  out.push(`result: ${JSON.stringify({ rounds: ROUNDS, perRound: PER_ROUND, rows })}`);
  process.stdout.write(`${out.join('\n')}\n`);
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
  while (cleanups.length > 0) await Promise.resolve(cleanups.pop()()).catch(() => undefined);
}
