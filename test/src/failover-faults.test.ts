/*
 * Failover under the gateway's own faults and under a full outage of route 1 (CONTRACT.md "Routes and failover"):
 * with every request failing over from route 1 to route 2, a policy replica killed and Redis restarted empty
 * change nothing in metering (one ledger row per upstream call served, counters = ledger); and with route 1 down
 * and its breaker kept shut, the retry budget bounds the retries to the second route; UPSTREAM_MAX_ATTEMPTS bounds
 * the attempts below the number of routes.
 */
import { expect } from 'chai';
import { RedisServerProcess } from '@gateway/policy/test-support/redis';
import { startMessagesFake, type MessagesFake } from './fakes/index.js';
import { TestGateway, createKey, startService, type CreatedKey, type ServiceProcess } from './harness/gateway.js';
import { waitForLedger } from './harness/ledger.js';
import { sleep } from './harness/clock.js';

const hello = { model: 'alpha-sonnet-5', max_tokens: 16, messages: [{ role: 'user' as const, content: 'hello' }] };
/** alpha-sonnet-5's eu routes in the shipped catalogue: route 1, then route 2. */
const ROUTE_1 = 'eu-central-1';
const ROUTE_2 = 'eu-west-1';
const UNITS = 150;

/** Route 1 answers 503 to everything; the other routes serve, billed 100 + 50 tokens, a little slowly. */
function failRoute1(fake: MessagesFake): void {
  fake.setBehaviour((r) => (r.region === ROUTE_1
    ? { errorBefore: { status: 503 } }
    : { usage: { input_tokens: 100, output_tokens: 50 }, latencyMs: 15, gapMs: 2, chunkSize: 4 }));
}

interface Answer {
  status: number;
  shouldRetry: string | null;
  complete: boolean;
  id: string;
}

describe('failover while a policy replica dies and Redis restarts: metering unchanged', function () {
  this.timeout(60_000);
  let redis: RedisServerProcess;
  let fake: MessagesFake;
  let gw: TestGateway;
  let second: ServiceProcess;
  let proxy: ServiceProcess;
  let keys: CreatedKey[];

  before(async function () {
    redis = await RedisServerProcess.start();
    fake = await startMessagesFake({ apiKey: 'up' });
    failRoute1(fake);
    gw = await new TestGateway({
      redis: { url: redis.url, keyPrefix: 'gw:' },
      env: {
        UPSTREAM_URL: `${fake.url}/{region}/v1`,
        UPSTREAM_API_KEY: 'up',
        // Route 1 stays closed and the budget out of the way: every request here fails over, which is the point.
        ROUTE_FAILURE_THRESHOLD: '1000',
        UPSTREAM_RETRY_BUDGET_MIN: '1000000',
        LEASE_TTL_MS: '3000',
      },
      proxies: 0,
    }).start();
    second = startService('policy-2', 'policy/dist/src/main.js', { ...gw.env, POLICY_ADDR: '127.0.0.1:0' });
    const secondPort = (await second.waitFor((l) => l.msg === 'policy service listening'))['port'] as number;
    proxy = startService('proxy', 'proxy/dist/src/main.js', { ...gw.env, POLICY_TARGET: `127.0.0.1:${gw.policyPort},127.0.0.1:${secondPort}` });
    gw.ports.push((await proxy.waitFor((l) => l.msg === 'proxy listening'))['port'] as number);
    keys = [];
    for (let i = 0; i < 4; i += 1) keys.push(await createKey(gw, { env: 'live', plan: { name: `fo-${i}`, concurrency: 20, rpm: 100_000 } }));
    for (let i = 0; i < 100 && (await fetch(gw.url('/readyz'))).status !== 200; i += 1) await sleep(100);
  });
  after(async () => {
    await proxy?.stop();
    await second?.stop();
    await gw?.stop();
    await fake?.close();
    await redis?.dispose();
  });

  it('one ledger row per upstream call served, each from route 2 once; counters = ledger; refusals only retryable 503s', async function () {
    const answers: Answer[] = [];
    let stop = false;
    const clients = [0, 1, 2, 3].map(async (c) => {
      for (let i = 0; !stop; i += 1) {
        const stream = (i + c) % 2 === 1;
        const key = keys[(i + c) % keys.length] as CreatedKey;
        const r = await fetch(gw.url('/v1/messages'), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key.key },
          body: JSON.stringify({ ...hello, ...(stream ? { stream: true } : {}) }),
        });
        const text = await r.text();
        answers.push({ status: r.status, shouldRetry: r.headers.get('x-should-retry'), complete: !stream || r.status !== 200 || text.includes('event: message_stop'), id: r.headers.get('request-id') ?? '' });
      }
    });
    await sleep(500);
    // A replica dies in the middle of failovers; then Redis goes away and comes back empty.
    await second.stop('SIGKILL');
    await sleep(400);
    await redis.stop();
    // Long enough that decisions fail while it is down (fail closed), not only wait for it.
    await sleep(800);
    await redis.start();
    await sleep(1_200);
    stop = true;
    await Promise.all(clients);

    const served = answers.filter((a) => a.status === 200);
    for (const a of answers.filter((x) => x.status !== 200)) expect(a, 'a refusal').to.deep.include({ status: 503, shouldRetry: 'true' });
    expect(served.filter((a) => !a.complete), 'streams cut').to.deep.equal([]);
    expect(served.length).to.be.above(20);
    // The faults were felt: requests decided while Redis was down were refused (fail closed), retryably.
    expect(answers.some((a) => a.status === 503), 'a refusal while Redis was down').to.equal(true);
    // Every request that reached the platform tried route 1 first and was served by route 2, once.
    const calls = (region: string) => fake.requests.filter((r) => r.region === region);
    expect(calls(ROUTE_2).length, 'route 2 calls = requests served').to.equal(served.length);
    expect(calls(ROUTE_1).length, 'route 1 tried once per request served').to.equal(served.length);
    expect(fake.requests.length).to.equal(2 * served.length);

    const ids = new Set(keys.map((k) => k.id));
    const rows = (await waitForLedger(gw, (all) => all.filter((r) => ids.has(r.key_id)).length >= served.length, 15_000)).filter((r) => ids.has(r.key_id));
    expect(rows.map((r) => r.request_id).sort(), 'one row per request served, none twice').to.deep.equal(served.map((a) => a.id).sort());
    for (const r of rows) expect(r, r.request_id).to.include({ call_region: ROUTE_2, platform: 'messages', residency: 'eu', billable_units: UNITS });

    // The counters, rebuilt from the ledger after Redis came back empty, agree with it (read until they do, 10 s).
    const units = keys.map((k) => rows.filter((r) => r.key_id === k.id).reduce((n, r) => n + r.billable_units, 0));
    const usedNow = (): Promise<number[]> => Promise.all(keys.map(async (k) =>
      ((await (await fetch(gw.url('/v1/usage'), { headers: { 'x-api-key': k.key } })).json()) as { tokens: { used: number } }).tokens.used));
    let used = await usedNow();
    for (const deadline = Date.now() + 10_000; used.some((u, i) => u !== units[i]) && Date.now() < deadline;) {
      await sleep(200);
      used = await usedNow();
    }
    expect(used).to.deep.equal(units);
  });
});

describe('the retry budget under a full outage of route 1', function () {
  this.timeout(60_000);
  let fake: MessagesFake;
  let gw: TestGateway;
  let key: CreatedKey;
  let metricsPort = 0;

  before(async function () {
    fake = await startMessagesFake({ apiKey: 'up' });
    failRoute1(fake);
    // The defaults (20% of requests, at least 10 per 10 s), with the breaker kept shut: the budget alone must bound
    // the retries (an open breaker would hide route 1 and leave nothing to retry).
    gw = await new TestGateway({ env: { UPSTREAM_URL: `${fake.url}/{region}/v1`, UPSTREAM_API_KEY: 'up', ROUTE_FAILURE_THRESHOLD: '1000' } }).start();
    metricsPort = gw.proxiesRunning[0]?.lines.find((l) => l.msg === 'proxy listening')?.['metrics_port'] as number;
    key = await createKey(gw, { env: 'live', plan: { name: 'budget', concurrency: 20, rpm: 100_000 } });
  });
  after(async () => {
    await gw?.stop();
    await fake?.close();
  });

  it('retries at most max(10, 20% of requests) within 10 s; the rest answer route 1\'s error', async function () {
    const requests = 60;
    const statuses: number[] = [];
    let next = 0;
    const started = Date.now();
    await Promise.all(Array.from({ length: 6 }, async () => {
      while (next < requests) {
        next += 1;
        const r = await fetch(gw.url('/v1/messages'), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key.key },
          body: JSON.stringify(hello),
        });
        await r.arrayBuffer();
        statuses.push(r.status);
      }
    }));
    // One budget window: the bound below is per 10 s.
    expect(Date.now() - started, 'the requests fit in one 10 s window').to.be.below(9_000);
    const route1 = fake.requests.filter((r) => r.region === ROUTE_1).length;
    const retries = fake.requests.length - route1;
    expect(route1, 'every request tried route 1 first').to.equal(requests);
    expect(retries, 'retries: at least the floor, at most 20% of the requests').to.be.within(10, Math.max(10, 0.2 * requests));
    expect(statuses.filter((s) => s === 200).length, 'each retry served').to.equal(retries);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 529), 'the others: route 1\'s 503 as the vendor\'s 529').to.equal(true);
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const failovers = Number(/^gateway_upstream_failovers_total\{[^}]*tier="eu"[^}]*\} (\d+)/m.exec(text)?.[1] ?? 0);
    expect(failovers).to.equal(retries);
  });
});

describe('UPSTREAM_MAX_ATTEMPTS below the number of routes', function () {
  this.timeout(60_000);
  let fake: MessagesFake;
  let gw: TestGateway;

  before(async function () {
    fake = await startMessagesFake({ apiKey: 'up' });
    gw = await new TestGateway({ env: { UPSTREAM_URL: `${fake.url}/{region}/v1`, UPSTREAM_API_KEY: 'up', UPSTREAM_MAX_ATTEMPTS: '2' } }).start();
  });
  after(async () => {
    await gw?.stop();
    await fake?.close();
  });

  it('stops after two of the tier\'s three routes, with the second\'s error', async function () {
    const key = await createKey(gw, { env: 'live' });
    fake.setBehaviour((r) => ({ errorBefore: { status: r.region === ROUTE_2 ? 500 : 503 } }));
    const r = await fetch(gw.url('/v1/messages'), {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key.key }, body: JSON.stringify(hello),
    });
    expect(r.status).to.equal(502);
    expect(fake.requests.map((x) => x.region)).to.deep.equal([ROUTE_1, ROUTE_2]);
  });
});
