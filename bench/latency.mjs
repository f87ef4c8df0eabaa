// Latency the gateway adds to a live request: the same request sent straight to the Messages fake, through a
// bare node:http pass-through proxy, and through the gateway (proxy + policy service, live key, privacy off),
// all in the same run, one request in flight, the three paths interleaved request by request so that load from
// elsewhere on the machine hits them alike. Run with `npm run bench:latency` (builds first); see
// docs/benchmarks.md for what the figures mean.
//
// The fake and the bare proxy run as child processes of this script (`latency.mjs fake`, `latency.mjs
// bare-proxy PORT`), so the measuring client shares its event loop with neither; the gateway is started with the
// test harness. Every client request is a plain fetch, identical on all three paths but for the URL.
//
// It also reports the CPU time (Linux /proc) the bare proxy, the gateway's proxy and its policy service spent
// per request, which says more than wall-clock time about where the gateway's cost goes on a busy machine.
//
// Knobs (env): BENCH_SAMPLES per path for the unpaced scenarios (default 300), BENCH_SAMPLES_PACED per path for
// the paced stream (default 60), BENCH_WARMUP per path and scenario (default 50; 5 for the paced one),
// BENCH_DELTAS text deltas per response (default 40), BENCH_GAP_MS between stream events in the paced scenario
// (default 5), BENCH_PROMPT_BYTES size of the user message (default 1000).
import { spawn } from 'node:child_process';
import { createServer, request, Agent } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { TICKS_PER_SECOND, fmt, intFromEnv, machine, printTable, processCpuMs, summarise } from './stats.mjs';

const SELF = fileURLToPath(import.meta.url);
const CHUNK = 12;
const HOST = '127.0.0.1';

/** Child role: the Messages fake; text and pacing come from the request ("bench deltas=N gap=M ..."). */
async function runFake() {
  const { startMessagesFake, lastUserText } = await import('../test/dist/src/fakes/index.js');
  const fake = await startMessagesFake({ host: HOST, maxRecorded: 1 });
  fake.setBehaviour((req) => {
    const m = /^bench deltas=(\d+) gap=(\d+)/.exec(lastUserText(req.body));
    const deltas = Number(m?.[1] ?? 40);
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(Math.ceil((deltas * CHUNK) / 45)).slice(0, deltas * CHUNK);
    return { content: [{ type: 'text', text }], chunkSize: CHUNK, gapMs: Number(m?.[2] ?? 0), pingAfterStart: true };
  });
  announce(fake.port);
}

/** Child role: the least a proxy can do. Pipes the request to the fake and the response back, keep-alive. */
function runBareProxy(upstreamPort) {
  const agent = new Agent({ keepAlive: true });
  const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host']);
  const strip = (headers) => Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP.has(k)));
  const server = createServer((req, res) => {
    const up = request({ host: HOST, port: upstreamPort, method: req.method, path: req.url, headers: strip(req.headers), agent }, (ur) => {
      res.writeHead(ur.statusCode ?? 502, strip(ur.headers));
      res.flushHeaders();
      ur.pipe(res);
    });
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, HOST, () => announce(server.address().port));
}

/** A child tells its parent its port on stdout and ends when the parent goes away (its stdin closes). */
function announce(port) {
  process.stdout.write(`${JSON.stringify({ port })}\n`);
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}

/** Starts this script in a child role; resolves with its port and a stop function. */
function startChild(args) {
  const child = spawn(process.execPath, [SELF, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.stdin.end();
    child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once('line', (line) => resolve({ port: JSON.parse(line).port, pid: child.pid, stop }));
    void exited.then((code) => reject(new Error(`bench child ${args[0]} exited (${code}) before it was ready`)));
  });
}

/** One request; ms to the response headers, to the first body byte (or first content_block_delta), to the end. */
async function measure(url, apiKey, body, stream) {
  const t0 = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' },
    body,
  });
  const headers = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}: ${await res.text()}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let first = Number.NaN;
  let tail = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    if (!Number.isNaN(first)) continue;
    if (!stream) {
      first = performance.now() - t0;
      continue;
    }
    const text = tail + decoder.decode(value, { stream: true });
    if (text.includes('event: content_block_delta')) first = performance.now() - t0;
    else tail = text.slice(-32);
  }
  const total = performance.now() - t0;
  if (stream && Number.isNaN(first)) throw new Error(`${url}: the stream had no content_block_delta`);
  return { headers, first, total, bytes };
}

function requestBody(deltas, gapMs, stream, promptBytes) {
  const lead = `bench deltas=${deltas} gap=${gapMs} `;
  const filler = 'Please summarise the quarterly delivery report for the project team and list the open risks. ';
  const content = (lead + filler.repeat(Math.ceil(promptBytes / filler.length))).slice(0, Math.max(lead.length, promptBytes));
  return JSON.stringify({ model: 'alpha-sonnet-5', max_tokens: 1024, stream, messages: [{ role: 'user', content }] });
}

async function main() {
  const SAMPLES = intFromEnv('BENCH_SAMPLES', 300, 1);
  const SAMPLES_PACED = intFromEnv('BENCH_SAMPLES_PACED', 60, 1);
  const WARMUP = intFromEnv('BENCH_WARMUP', 50, 0);
  const DELTAS = intFromEnv('BENCH_DELTAS', 40, 1);
  const GAP_MS = intFromEnv('BENCH_GAP_MS', 5, 0);
  const PROMPT_BYTES = intFromEnv('BENCH_PROMPT_BYTES', 1000, 0);
  const m = machine();
  process.stdout.write(
    `latency bench: nproc=${m.nproc} (${m.cpu}), ${m.memGiB} GiB, node ${m.node}, load ${m.loadavg.join(' ')}\n` +
      `one request in flight; ${DELTAS} text deltas of ${CHUNK} chars per response; prompt ${PROMPT_BYTES} bytes; ` +
      `samples per path: ${SAMPLES} (unpaced), ${SAMPLES_PACED} (paced, gap ${GAP_MS} ms); warm-up ${WARMUP}\n\n`,
  );

  const { TestGateway, createKey } = await import('../test/dist/src/harness/gateway.js');
  const cleanups = [];
  const cleanup = async () => {
    while (cleanups.length > 0) await cleanups.pop()().catch(() => undefined);
  };
  process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));
  try {
    const fake = await startChild(['fake']);
    cleanups.push(fake.stop);
    const bare = await startChild(['bare-proxy', String(fake.port)]);
    cleanups.push(bare.stop);
    const gw = new TestGateway({
      env: { UPSTREAM_URL: `http://${HOST}:${fake.port}/{region}/v1`, UPSTREAM_API_KEY: 'bench-upstream-key' },
    });
    cleanups.push(() => gw.stop());
    await gw.start();
    const key = await createKey(gw, {
      env: 'live',
      plan: { name: 'bench-latency', rpm: 100_000_000, concurrency: 1_000, allowance: 1_000_000_000_000 },
    });

    const paths = [
      { name: 'direct', url: `http://${HOST}:${fake.port}/v1/messages`, apiKey: 'bench-direct-key' },
      { name: 'bare proxy', url: `http://${HOST}:${bare.port}/v1/messages`, apiKey: 'bench-direct-key' },
      { name: 'gateway', url: gw.url('/v1/messages'), apiKey: key.key },
    ];
    const scenarios = [
      { name: 'json', stream: false, gapMs: 0, samples: SAMPLES, warmup: WARMUP },
      { name: 'stream gap 0', stream: true, gapMs: 0, samples: SAMPLES, warmup: WARMUP },
      { name: `stream gap ${GAP_MS}`, stream: true, gapMs: GAP_MS, samples: SAMPLES_PACED, warmup: Math.min(WARMUP, 5) },
    ];

    // Each process serves one path only, so its CPU over a scenario divided by the samples is its cost per request.
    const pids = { 'bare proxy': bare.pid, 'gateway proxy': gw.proxiesRunning[0].child.pid, 'policy service': gw.policy.child.pid };
    const cpu = [];
    const results = [];
    for (const sc of scenarios) {
      const body = requestBody(DELTAS, sc.gapMs, sc.stream, PROMPT_BYTES);
      for (const p of paths) for (let i = 0; i < sc.warmup; i += 1) await measure(p.url, p.apiKey, body, sc.stream);
      const samples = new Map(paths.map((p) => [p.name, { headers: [], first: [], total: [], bytes: 0 }]));
      const cpuBefore = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, processCpuMs(pid)]));
      for (let i = 0; i < sc.samples; i += 1) {
        // Rotate the order so no path always runs right after another.
        for (let j = 0; j < paths.length; j += 1) {
          const p = paths[(i + j) % paths.length];
          const r = await measure(p.url, p.apiKey, body, sc.stream);
          const s = samples.get(p.name);
          s.headers.push(r.headers);
          s.first.push(r.first);
          s.total.push(r.total);
          s.bytes = r.bytes;
        }
      }
      const cpuPerRequest = Object.fromEntries(
        Object.entries(pids).map(([k, pid]) => [k, (processCpuMs(pid) - cpuBefore[k]) / sc.samples]),
      );
      cpu.push({ scenario: sc.name, msPerRequest: cpuPerRequest });
      for (const [path, s] of samples) {
        results.push({
          scenario: sc.name,
          path,
          responseBytes: s.bytes,
          headersMs: summarise(s.headers),
          firstMs: summarise(s.first),
          totalMs: summarise(s.total),
        });
      }
    }

    printTable(
      ['scenario', 'path', 'first p50', 'first p99', 'total p50', 'total p99'],
      results.map((r) => [r.scenario, r.path, fmt(r.firstMs.p50), fmt(r.firstMs.p99), fmt(r.totalMs.p50), fmt(r.totalMs.p99)]),
    );
    process.stdout.write('(ms; "first" = first body byte for json, first content_block_delta for streams)\n\n');

    const added = scenarios.map((sc) => {
      const of = (path) => results.find((r) => r.scenario === sc.name && r.path === path);
      const [direct, bareP, gateway] = [of('direct'), of('bare proxy'), of('gateway')];
      const diff = (a, metric, q) => a[metric][q] - direct[metric][q];
      const row = {};
      for (const metric of ['firstMs', 'totalMs']) {
        for (const q of ['p50', 'p99']) {
          row[`${metric}.${q}`] = { gateway: diff(gateway, metric, q), bare: diff(bareP, metric, q) };
        }
      }
      return { scenario: sc.name, added: row };
    });
    // A ratio of two differences means nothing when the bare proxy adds (next to) nothing, as with a paced stream.
    const ratio = (a) => (a.bare >= 0.25 ? `${fmt(a.gateway / a.bare, 1)}x` : 'n/a');
    printTable(
      ['added vs direct', 'gw first p50', 'gw first p99', 'gw total p50', 'gw total p99', 'bare first p50', 'bare total p50', 'gw÷bare total p50'],
      added.map(({ scenario, added: a }) => [
        scenario,
        fmt(a['firstMs.p50'].gateway),
        fmt(a['firstMs.p99'].gateway),
        fmt(a['totalMs.p50'].gateway),
        fmt(a['totalMs.p99'].gateway),
        fmt(a['firstMs.p50'].bare),
        fmt(a['totalMs.p50'].bare),
        ratio(a['totalMs.p50']),
      ]),
    );
    process.stdout.write('(ms added over the direct path; p99 columns are differences of percentiles, not percentiles of differences)\n\n');
    printTable(
      ['CPU ms per request', ...Object.keys(pids)],
      cpu.map((c) => [c.scenario, ...Object.keys(pids).map((k) => fmt(c.msPerRequest[k]))]),
    );
    process.stdout.write(`(user + system time of each process, from /proc at ${TICKS_PER_SECOND} ticks/s)\n`);
    process.stdout.write(`\nload after: ${machine().loadavg.join(' ')}\n`);
    process.stdout.write(
      `result: ${JSON.stringify({ bench: 'latency', machine: m, deltas: DELTAS, gapMs: GAP_MS, promptBytes: PROMPT_BYTES, results, added, cpu })}\n`,
    );
  } finally {
    await cleanup();
  }
}

const role = process.argv[2];
if (role === 'fake') await runFake();
else if (role === 'bare-proxy') runBareProxy(Number(process.argv[3]));
else await main();
