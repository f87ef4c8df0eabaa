// `node bench/failover.mjs` (after `npx tsc -b`): the failover target, through the real processes.
// Route 1 of alpha-sonnet-5's eu tier is on an upstream that refuses every connection; route 2 is the Messages fake.
// 2,000 requests at 16 in flight: how many were served, whether any ran outside the tier, and whether upstream
// calls served = requests metered. Then, with the breaker open, p50 at 1 in flight against alpha-opus-5 (whose
// route 1 is healthy) in the same processes, alternating, so the added cost of a skipped route is measured alone.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startMessagesFake } from '../test/dist/src/fakes/index.js';
import { TestGateway, createKey } from '../test/dist/src/harness/gateway.js';
import { readLedger } from '../test/dist/src/harness/ledger.js';
import { CATALOGUE_FILE } from '../test/dist/src/harness/residency.js';

const REQUESTS = Number(process.env.FAILOVER_REQUESTS ?? 2000);
const IN_FLIGHT = 16;
const SEQUENTIAL = Number(process.env.FAILOVER_SEQUENTIAL ?? 300);
const KEY = 'bench-upstream-key';

const closedPort = () => new Promise((res) => {
  const s = createServer();
  s.listen(0, '127.0.0.1', () => {
    const { port } = s.address();
    s.close(() => res(port));
  });
});
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const fake = await startMessagesFake({ apiKey: KEY });
const dir = mkdtempSync(join(tmpdir(), 'bench-failover-'));
const catalogue = JSON.parse(readFileSync(CATALOGUE_FILE, 'utf8'));
const tierEu = new Set(catalogue.tiers.eu.regions);
catalogue.models.find((m) => m.id === 'alpha-sonnet-5').routes.eu[0].upstream = 'dead';
writeFileSync(join(dir, 'catalogue.json'), JSON.stringify(catalogue));
writeFileSync(join(dir, 'upstreams.json'), JSON.stringify({
  default: { platform: 'messages', url: `${fake.url}/{region}/v1`, api_key: KEY },
  dead: { platform: 'messages', url: `http://127.0.0.1:${await closedPort()}/{region}/v1`, api_key: KEY },
}));
const gw = await new TestGateway({ env: { CATALOGUE_FILE: join(dir, 'catalogue.json'), UPSTREAMS_FILE: join(dir, 'upstreams.json') } }).start();
try {
  const key = await createKey(gw, { env: 'live', plan: { name: 'bench-failover', concurrency: 64, rpm: 1_000_000 } });
  const post = async (model) => {
    const res = await fetch(gw.url('/v1/messages'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key.key },
      body: JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: 'Hello failover' }] }),
    });
    await res.arrayBuffer();
    return { status: res.status, regions: res.headers.get('x-gateway-regions') ?? '', id: res.headers.get('request-id') };
  };

  let next = 0;
  let served = 0;
  let outside = 0;
  const ids = [];
  const started = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (next < REQUESTS) {
      next += 1;
      const r = await post('alpha-sonnet-5');
      if (r.status === 200) {
        served += 1;
        ids.push(r.id);
        if (r.regions.split(',').some((x) => !tierEu.has(x))) outside += 1;
      }
    }
  }));
  const wallS = (performance.now() - started) / 1000;
  const upstreamServed = fake.requests.filter((r) => r.status === 200).length;
  const idSet = new Set(ids);
  let metered = 0;
  for (let i = 0; i < 50; i += 1) {
    metered = (await readLedger(gw)).filter((r) => idSet.has(r.request_id) && r.billable_units > 0).length;
    if (metered >= served) break;
    await new Promise((r) => setTimeout(r, 200));
  }

  // Breaker open on sonnet's route 1: sonnet now goes straight to route 2; opus-5's route 1 is healthy.
  const open = [];
  const healthy = [];
  for (let i = 0; i < SEQUENTIAL; i += 1) {
    for (const [model, into] of i % 2 === 0 ? [['alpha-sonnet-5', open], ['alpha-opus-5', healthy]] : [['alpha-opus-5', healthy], ['alpha-sonnet-5', open]]) {
      const t = performance.now();
      const r = await post(model);
      if (r.status === 200) into.push(performance.now() - t);
    }
  }
  const metrics = await (await fetch(`http://127.0.0.1:${gw.proxiesRunning[0].lines.find((l) => l.msg === 'proxy listening').metrics_port}/metrics`)).text();
  const failovers = Number(/^gateway_upstream_failovers_total\{[^}]*tier="eu"[^}]*\} (\d+)/m.exec(metrics)?.[1] ?? 0);
  const refused = Number(/gateway_upstream_attempts_total\{[^}]*call_region="eu-central-1"[^}]*outcome="refused"[^}]*\} (\d+)/.exec(metrics)?.[1] ?? 0);
  const out = {
    requests: REQUESTS,
    in_flight: IN_FLIGHT,
    served,
    served_pct: Math.round((served / REQUESTS) * 100_000) / 1000,
    served_outside_tier: outside,
    upstream_calls_served: upstreamServed,
    requests_metered: metered,
    failovers,
    route1_refused_attempts: refused,
    wall_seconds: Math.round(wallS * 10) / 10,
    p50_ms_breaker_open: Math.round(pct(open, 50) * 1000) / 1000,
    p50_ms_healthy_route1: Math.round(pct(healthy, 50) * 1000) / 1000,
    added_p50_ms: Math.round((pct(open, 50) - pct(healthy, 50)) * 1000) / 1000,
  };
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
} finally {
  await gw.stop();
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
}
