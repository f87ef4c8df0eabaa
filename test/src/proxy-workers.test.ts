import { expect } from 'chai';
import { request } from 'node:http';
import { startBilledUpstream } from './harness/billed-upstream.js';
import { TestGateway, createKey, type CreatedKey, type LogLine } from './harness/gateway.js';
import { readLedger, waitForLedger } from './harness/ledger.js';
import { sleep } from './harness/clock.js';
import type { MessagesFake } from './fakes/index.js';
import { alive } from './harness/process-alive.js';

const hello = { model: 'alpha-sonnet-5', max_tokens: 16, messages: [{ role: 'user' as const, content: 'Hello workers' }] };

/** One request on a connection of its own (the cluster hands connections, not requests, to its workers). */
function postAlone(gw: TestGateway, key: string, body: unknown, path = '/v1/messages'): Promise<{ status: number; requestId: string; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(
      gw.url(path),
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'x-api-key': key, 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, requestId: String(res.headers['request-id'] ?? ''), text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The sum of a metric's samples whose labels include every `labels` pair. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

const accessLines = (gw: TestGateway, ids: readonly string[]): LogLine[] =>
  (gw.proxiesRunning[0]?.lines ?? []).filter((l) => l.msg === 'request' && ids.includes(String(l['request_id'])));

const metricsPort = (gw: TestGateway): number => gw.proxiesRunning[0]?.lines.find((l) => l.msg === 'proxy listening')?.['metrics_port'] as number;

describe('PROXY_WORKERS=2: one proxy as two cluster workers sharing its port', function () {
  this.timeout(60_000);
  let fake: MessagesFake;
  let gw: TestGateway;
  let live: CreatedKey;

  before(async function () {
    const upstream = await startBilledUpstream();
    fake = upstream.fake;
    gw = await new TestGateway({ proxyWorkers: 2, env: { ...upstream.env, DRAIN_TIMEOUT_MS: '10000' } }).start();
    live = await createKey(gw, { env: 'live', plan: { name: 'workers-plan', concurrency: 20 } });
  });
  after(async () => {
    await gw.stop();
    await fake.close();
  });
  beforeEach(() => fake.reset());

  it('serves requests on both workers, and /metrics sums their counters once for the pod', async function () {
    const k = await createKey(gw, { env: 'test', account: live.account_id });
    const metricsBefore = await (await fetch(`http://127.0.0.1:${metricsPort(gw)}/metrics`)).text();
    const before = sample(metricsBefore, 'gateway_requests_total', { route: 'messages', status: '200', environment: 'test' });
    const ids: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      const r = await postAlone(gw, k.key, hello);
      expect(r.status).to.equal(200);
      ids.push(r.requestId);
    }
    await gw.proxiesRunning[0]?.waitFor(() => accessLines(gw, ids).length === ids.length, 5_000);
    const byWorker = new Map<unknown, number>();
    for (const l of accessLines(gw, ids)) byWorker.set(l['worker'], (byWorker.get(l['worker']) ?? 0) + 1);
    expect(byWorker.size, `requests per worker: ${JSON.stringify([...byWorker])}`).to.equal(2);
    for (const n of byWorker.values()) expect(n).to.be.greaterThan(0);

    // One scrape answers for both workers: each counted only its own requests, the pod's figure is their sum.
    const text = await (await fetch(`http://127.0.0.1:${metricsPort(gw)}/metrics`)).text();
    expect(sample(text, 'gateway_requests_total', { route: 'messages', status: '200', environment: 'test' }) - before).to.equal(8);
    expect(sample(text, 'gateway_request_duration_seconds_count', { route: 'messages' })).to.be.at.least(8);
    // a gauge that is summed (nothing in flight now) and one per worker summed too (reports waiting)
    expect(sample(text, 'gateway_inflight_requests', {})).to.equal(0);
    expect(text).to.contain('gateway_usage_spool_reports');

    // Readiness answers for both workers, whichever one the probe's connection reached.
    for (let i = 0; i < 2; i += 1) {
      const ready = await fetch(gw.url('/readyz'), { headers: { connection: 'close' } });
      expect(ready.status).to.equal(200);
      expect(((await ready.json()) as { workers: unknown }).workers).to.deep.equal({ ready: 2, of: 2 });
    }
  });

  it('replaces a SIGKILLed worker, and the usage it had spooled still reaches the ledger', async function () {
    const proxy = gw.proxiesRunning[0];
    if (proxy === undefined) throw new Error('no proxy');
    fake.setBehaviour({ content: [{ type: 'text', text: 'slow '.repeat(40) }], chunkSize: 5, gapMs: 40, usage: { input_tokens: 11, output_tokens: 40 } });
    // Four streams on connections of their own: both workers serve some.
    const streams = [0, 1, 2, 3].map(() => postAlone(gw, live.key, { ...hello, stream: true }));
    await sleep(500);
    await gw.policy.stop('SIGKILL');
    const done = await Promise.all(streams);
    for (const d of done) expect(d.text).to.contain('message_stop');
    const ids = done.map((d) => d.requestId);
    // Each worker spools the reports the policy service could not take, in its own file.
    await proxy.waitFor(() => proxy.lines.filter((l) => l.msg === 'policy service did not take a usage report; spooling it' && ids.includes(String(l['request_id']))).length === 4, 10_000);
    const spooled = proxy.lines.filter((l) => l.msg === 'policy service did not take a usage report; spooling it' && ids.includes(String(l['request_id'])));
    const victim = spooled[0]?.['pid'] as number;
    const victimReports = spooled.filter((l) => l['pid'] === victim).length;
    expect(victimReports).to.be.greaterThan(0);
    await sleep(300); // past the append's datasync
    process.kill(victim, 'SIGKILL');
    const died = await proxy.waitFor((l) => l.msg === 'proxy worker died; starting another' && l['pid'] === victim);
    const successor = await proxy.waitFor((l) => l.msg === 'proxy worker listening' && l['slot'] === died['slot'] && l['pid'] !== victim, 20_000);
    expect(await readLedger(gw, 'key_id = ?', live.id)).to.have.length(0);

    await gw.startPolicy(gw.policyPort);
    const rows = await waitForLedger(gw, (r) => r.filter((x) => x.key_id === live.id).length === 4, 20_000);
    expect(rows.filter((x) => x.key_id === live.id).map((x) => x.request_id).sort()).to.deep.equal([...ids].sort());
    // The dead worker's file was adopted by a live one (its successor or the other worker). The ledger commits
    // before the acknowledgement reaches the replaying worker, so its log line may come a moment after the rows.
    await proxy.waitFor((l) => l.msg === 'replayed spooled usage reports', 5_000);
    const replayers = proxy.lines.filter((l) => l.msg === 'replayed spooled usage reports').map((l) => l['pid']);
    expect(replayers).to.not.include(victim);
    expect(replayers.length).to.be.greaterThan(0);
    expect(successor['pid']).to.not.equal(victim);
    // and the pod is whole again: both workers ready
    const deadline = Date.now() + 10_000;
    let body: { workers?: unknown } = {};
    while (Date.now() < deadline) {
      const r = await fetch(gw.url('/readyz'), { headers: { connection: 'close' } });
      body = (await r.json()) as { workers?: unknown };
      if (r.status === 200) break;
      await sleep(200);
    }
    expect(body.workers).to.deep.equal({ ready: 2, of: 2 });
    fake.setBehaviour(null);
  });

  it('drains both workers on SIGTERM: running streams finish, usage is recorded, then the primary exits', async function () {
    const proxy = gw.proxiesRunning[0];
    if (proxy === undefined) throw new Error('no proxy');
    fake.setBehaviour({ content: [{ type: 'text', text: 'slow '.repeat(40) }], chunkSize: 5, gapMs: 40, usage: { input_tokens: 7, output_tokens: 40 } });
    const streams = [0, 1, 2, 3].map(() => postAlone(gw, live.key, { ...hello, stream: true }));
    await sleep(500);
    const workersAtSignal = new Set(proxy.lines.filter((l) => l.msg === 'proxy worker listening').map((l) => l['pid']));
    proxy.child.kill('SIGTERM');
    const done = await Promise.all(streams);
    for (const d of done) expect(d.text).to.contain('message_stop');
    expect(await proxy.exited).to.equal(0);
    // every live worker drained (not only the one that got the signal first)
    const drained = new Set(proxy.lines.filter((l) => l.msg === 'draining').map((l) => l['pid']));
    const drainedAtSignal = [...workersAtSignal].filter((pid) => drained.has(pid));
    expect(drainedAtSignal.length).to.equal(2);
    const ids = done.map((d) => d.requestId);
    const rows = await waitForLedger(gw, (r) => ids.every((id) => r.some((x) => x.request_id === id)), 10_000);
    expect(rows.filter((x) => ids.includes(x.request_id)).every((x) => x.input_tokens === 7 && x.output_tokens === 40)).to.equal(true);
    // the accesses of these streams were served by both workers
    expect(new Set(accessLines(gw, ids).map((l) => l['worker'])).size).to.equal(2);
    fake.setBehaviour(null);
  });

  it('leaves no worker behind when the primary is killed outright', async function () {
    const own = await new TestGateway({ proxyWorkers: 2 }).start();
    try {
      const proxy = own.proxiesRunning[0];
      if (proxy === undefined) throw new Error('no proxy');
      const pids = proxy.lines.filter((l) => l.msg === 'proxy worker listening').map((l) => l['pid'] as number);
      expect(pids).to.have.length(2);
      await proxy.stop('SIGKILL');
      // Their channel to the primary closes and Node's cluster ends each worker at once: the port is not held by
      // orphans (requests in flight are cut, as when a single proxy is killed outright).
      const deadline = Date.now() + 10_000;
      while (pids.some(alive) && Date.now() < deadline) await sleep(100);
      expect(pids.filter(alive)).to.deep.equal([]);
    } finally {
      await own.stop();
    }
  });
});
