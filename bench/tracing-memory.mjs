// `npm run bench:tracing-memory`: the proxy's and the policy service's memory over 10,000 traced requests (sampled 100 %) while the trace
// collector is down or never answers: the SDK's queue is bounded (OTEL_BSP_MAX_QUEUE_SIZE), so their RSS and the
// proxy's heap stay flat and every request is still served. Prints RSS and heap after each tenth of the requests.
//
//   node bench/tracing-memory.mjs [--requests N] [--collector down|blackhole|off] [--heap-cap MB]
//
// off: no endpoint, tracing off: the same processes' memory without tracing, to compare with. --heap-cap: both
// processes run with --max-old-space-size=MB, so V8 collects before its heap grows past it: what stays in use is
// the live set, and anything that kept growing would end the process (out of memory) within the run.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { Pool } from 'undici';
import { TestGateway, createKey } from '../test/dist/src/harness/gateway.js';
import { fmt, machine } from './stats.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : process.argv[i + 1];
};
const REQUESTS = Number(arg('--requests', '10000'));
const COLLECTOR = arg('--collector', 'down');
const HEAP_CAP = arg('--heap-cap', '');
const IN_FLIGHT = 16;
const BODY = JSON.stringify({ model: 'alpha-sonnet-5', max_tokens: 64, messages: [{ role: 'user', content: 'Hello there, how are you today?' }] });

const mock = spawn(process.execPath, ['bench/fast-mock.mjs'], { stdio: ['ignore', 'pipe', 'inherit'] });
const mockPort = await new Promise((resolve) => createInterface({ input: mock.stdout }).once('line', (l) => resolve(JSON.parse(l).port)));

// down: a port that was free a moment ago; blackhole: a server that reads every export and never answers.
const held = [];
const collector = createServer((req, res) => {
  req.resume();
  held.push(res);
});
await new Promise((r) => collector.listen(0, '127.0.0.1', r));
const endpoint = `http://127.0.0.1:${collector.address().port}`;
if (COLLECTOR === 'down') await new Promise((r) => collector.close(r));

const tracing = COLLECTOR === 'off' ? {} : { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_SAMPLER: 'always_on' };
const cap = HEAP_CAP === '' ? {} : { NODE_OPTIONS: `--max-old-space-size=${Number(HEAP_CAP)}` };
const gw = await new TestGateway({
  env: { UPSTREAM_URL: `http://127.0.0.1:${mockPort}/v1`, UPSTREAM_API_KEY: 'bench', ...tracing, ...cap },
}).start();
const key = await createKey(gw, { env: 'live', plan: { name: 'mem', rpm: 100_000_000, concurrency: 100_000, allowance: 1_000_000_000_000 } });
const proxyPid = gw.proxiesRunning[0].child.pid;
const policyPid = gw.policy.child.pid;
const metricsPort = await (async () => (await gw.proxiesRunning[0].waitFor((l) => l.msg === 'proxy listening'))['metrics_port'])().catch(() => undefined);
const policyMetricsPort = await (async () => (await gw.policy.waitFor((l) => l.msg === 'policy service listening'))['metrics_port'])().catch(() => undefined);

const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
const heapMb = async (port) => {
  if (port === undefined) return NaN;
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return Number(/^nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\S+)/m.exec(text)?.[1]) / 1024 / 1024;
};

const pool = new Pool(`http://127.0.0.1:${gw.ports[0]}`, { connections: IN_FLIGHT });
let sent = 0;
let done = 0;
let ok = 0;
const rows = [];
const step = Math.max(1, Math.floor(REQUESTS / 10));
const started = Date.now();
async function worker() {
  while (sent < REQUESTS) {
    sent += 1;
    const res = await pool.request({ path: '/v1/messages', method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key.key, 'anthropic-version': '2023-06-01' }, body: BODY });
    await res.body.arrayBuffer();
    if (res.statusCode === 200) ok += 1;
    done += 1;
    if (done % step === 0) rows.push({ requests: done, rss: rssMb(proxyPid), heap: await heapMb(metricsPort), policyRss: rssMb(policyPid), policyHeap: await heapMb(policyMetricsPort) });
  }
}
await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
const seconds = (Date.now() - started) / 1000;
await pool.close();
for (const res of held) res.destroy();
collector.close();
await gw.stop();
mock.kill();

process.stdout.write(`tracing memory, collector ${COLLECTOR}${HEAP_CAP === '' ? '' : `, old space capped at ${HEAP_CAP} MB`}, ${REQUESTS} requests at ${IN_FLIGHT} in flight, ${new Date().toISOString().slice(0, 10)}, ${JSON.stringify(machine())}\n`);
process.stdout.write(`${ok} of ${REQUESTS} answered 200 in ${fmt(seconds, 1)} s\n\n| requests | proxy RSS MB | proxy heap used MB | policy RSS MB | policy heap used MB |\n|---|---|---|---|---|\n`);
for (const r of rows) process.stdout.write(`| ${r.requests} | ${fmt(r.rss, 1)} | ${fmt(r.heap, 1)} | ${fmt(r.policyRss, 1)} | ${fmt(r.policyHeap, 1)} |\n`);
