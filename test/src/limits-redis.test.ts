import { expect } from 'chai';
import Anthropic from '@anthropic-ai/sdk';
import { RedisServerProcess, startTestRedis, startTestRedisCluster, type TestRedis } from '@gateway/policy/test-support/redis';
import { startMessagesFake, type MessagesFake } from './fakes/index.js';
import { TestGateway, createKey, startService, type CreatedKey, type ServiceProcess } from './harness/gateway.js';
import { readLedger, waitForLedger } from './harness/ledger.js';
import { awayFromMinuteEdge, sleep } from './harness/clock.js';
import { redisCommand } from './harness/redis-command.js';

const hello = { model: 'alpha-sonnet-5', max_tokens: 16, messages: [{ role: 'user' as const, content: 'hello' }] };

function post(gw: TestGateway, key: string, opts: { proxy?: number; headers?: Record<string, string>; body?: unknown } = {}) {
  return fetch(gw.url('/v1/messages', opts.proxy ?? 0), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key, ...opts.headers },
    body: JSON.stringify(opts.body ?? hello),
  });
}

describe('limits on Redis, shared by several processes', function () {
  this.timeout(60_000);
  let redis: TestRedis;
  let gw: TestGateway;

  before(async function () {
    redis = await startTestRedis();
    gw = await new TestGateway({ redis, proxies: 2, env: { LEASE_TTL_MS: '3000' } }).start();
  });
  after(async () => {
    await gw.stop();
    await redis.dispose();
  });

  it('admits exactly N per minute across two proxies', async function () {
    await awayFromMinuteEdge();
    const k = await createKey(gw, { plan: { name: 'r-rpm5', rpm: 5 } });
    const statuses = await Promise.all(Array.from({ length: 12 }, (_, i) => post(gw, k.key, { proxy: i % 2 }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).to.have.length(5);
    expect(statuses.filter((s) => s === 429)).to.have.length(7);
  });

  it('admits exactly C slow streams of 5×C at once across two proxies, and leaks none', async function () {
    const C = 3;
    const k = await createKey(gw, { plan: { name: 'r-conc3', concurrency: C } });
    const slow = (i: number) =>
      post(gw, k.key, { proxy: i % 2, headers: { 'x-gateway-test-scenario': 'slow_stream' }, body: { ...hello, stream: true } }).then(async (r) => {
        await r.text();
        return r.status;
      });
    const statuses = await Promise.all(Array.from({ length: 5 * C }, (_, i) => slow(i)));
    expect(statuses.filter((s) => s === 200)).to.have.length(C);
    expect(statuses.filter((s) => s === 429)).to.have.length(4 * C);
    // every slot came back: C more run at once again
    const again = await Promise.all(Array.from({ length: C }, (_, i) => slow(i)));
    expect(again).to.deep.equal(Array.from({ length: C }, () => 200));
  });

  it('gives the slot back before the next request on Redis too: 500 back-to-back requests at concurrency 1, no 429', async function () {
    const k = await createKey(gw, { plan: { name: 'r-conc1-seq', concurrency: 1, rpm: 10_000 } });
    const statuses: number[] = [];
    for (let i = 0; i < 500; i += 1) {
      const body = i % 2 === 0 ? { ...hello, stream: true } : hello;
      const r = await post(gw, k.key, { body });
      await r.text();
      statuses.push(r.status);
    }
    expect(statuses.filter((s) => s !== 200)).to.deep.equal([]);
  });

  it('frees the slot and records usage when clients disconnect mid-stream', async function () {
    const k = await createKey(gw, { plan: { name: 'r-conc1', concurrency: 1 } });
    const res = await post(gw, k.key, { proxy: 1, headers: { 'x-gateway-test-scenario': 'slow_stream' }, body: { ...hello, stream: true } });
    const id = res.headers.get('request-id');
    const reader = res.body!.getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    const rows = await waitForLedger(gw, (r) => r.some((x) => x.request_id === id));
    expect(rows.find((x) => x.request_id === id)?.outcome).to.equal('client_disconnect');
    expect((await post(gw, k.key)).status).to.equal(200);
  });

  it('raises an account\'s limit with gatewayctl while running', async function () {
    await awayFromMinuteEdge();
    const k = await createKey(gw, { plan: { name: 'r-rpm1', rpm: 1 } });
    expect((await post(gw, k.key)).status).to.equal(200);
    expect((await post(gw, k.key)).status).to.equal(429);
    await gw.ctl('accounts', 'update', k.account_id, '--rpm', '3');
    await sleep(600);
    const r = await post(gw, k.key);
    expect(r.status).to.equal(200);
    expect(r.headers.get('compat-ratelimit-requests-limit')).to.equal('3');
  });
});

describe('two policy services sharing Redis and SQLite: limits do not multiply with replicas', function () {
  this.timeout(60_000);
  let redis: TestRedis;
  let gw: TestGateway;
  let second: ServiceProcess;
  let secondProxy: ServiceProcess;

  before(async function () {
    redis = await startTestRedis();
    gw = await new TestGateway({ redis }).start();
    second = startService('policy-2', 'policy/dist/src/main.js', { ...gw.env, POLICY_ADDR: '127.0.0.1:0' });
    const port = (await second.waitFor((l) => l.msg === 'policy service listening'))['port'] as number;
    secondProxy = startService('proxy-2', 'proxy/dist/src/main.js', { ...gw.env, POLICY_ADDR: `127.0.0.1:${port}` });
    gw.ports.push((await secondProxy.waitFor((l) => l.msg === 'proxy listening'))['port'] as number);
  });
  after(async () => {
    await secondProxy.stop();
    await second.stop();
    await gw.stop();
    await redis.dispose();
  });

  it('admits exactly N per minute and exactly C at once across both', async function () {
    await awayFromMinuteEdge();
    const k = await createKey(gw, { plan: { name: 'rep', rpm: 4, concurrency: 2 } });
    const slow = (i: number) =>
      post(gw, k.key, { proxy: i % 2, headers: { 'x-gateway-test-scenario': 'slow_stream' } }).then(async (r) => {
        await r.text();
        return r.status;
      });
    const statuses = await Promise.all(Array.from({ length: 6 }, (_, i) => slow(i)));
    expect(statuses.filter((s) => s === 200)).to.have.length(2);
    // the slow ones have ended, so their slots are back: the window (2 left of 4) is what binds now
    const more = await Promise.all(Array.from({ length: 6 }, (_, i) => post(gw, k.key, { proxy: i % 2 }).then((r) => r.status)));
    expect(more.filter((s) => s === 200)).to.have.length(2);
    expect(more.filter((s) => s === 429)).to.have.length(4);
  });
});

describe('the gateway on a 3-master Redis Cluster (REDIS_URL=redis+cluster://…)', function () {
  this.timeout(60_000);
  let cluster: TestRedis;
  let gw: TestGateway;
  before(async function () {
    cluster = await startTestRedisCluster();
    gw = await new TestGateway({ redis: cluster, proxies: 2 }).start();
  });
  after(async () => {
    await gw.stop();
    await cluster.dispose();
  });

  it('enforces windows and slots for accounts spread over the cluster\'s slots', async function () {
    await awayFromMinuteEdge();
    expect(cluster.url.startsWith('redis+cluster://')).to.equal(true);
    const keys = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => createKey(gw, { plan: { name: `cl-${i}`, rpm: 3, concurrency: 1 } })));
    for (const k of keys) {
      // one after another, alternating proxies: exactly the window, then refusals
      const seq: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const r = await post(gw, k.key, { proxy: i % 2 });
        // read each answer to its end before the next: until then the request is in flight and holds the slot
        await r.text();
        seq.push(r.status);
      }
      expect(seq).to.deep.equal([200, 200, 200, 429, 429]);
    }
    // and a slot is a slot: a slow stream holds the only one
    const k = await createKey(gw, { plan: { name: 'cl-slow', concurrency: 1 } });
    const slow = post(gw, k.key, { headers: { 'x-gateway-test-scenario': 'slow_stream' } });
    await sleep(300);
    expect((await post(gw, k.key, { proxy: 1 })).status).to.equal(429);
    expect((await slow).status).to.equal(200);
  });
});

describe('allowance on Redis: ledger is the truth, Redis failures fail closed', function () {
  this.timeout(60_000);
  let server: RedisServerProcess;
  let fake: MessagesFake;
  let gw: TestGateway;
  let key: CreatedKey;

  before(async function () {
    server = await RedisServerProcess.start();
    fake = await startMessagesFake({ apiKey: 'up' });
    fake.setBehaviour({ usage: { input_tokens: 100, output_tokens: 50 } });
    gw = await new TestGateway({
      redis: { url: server.url, keyPrefix: 'gw:' },
      env: { UPSTREAM_URL: `${fake.url}/{region}/v1`, UPSTREAM_API_KEY: 'up' },
    }).start();
    key = await createKey(gw, { env: 'live', plan: { name: 'allow-600', allowance: 600 } });
  });
  after(async () => {
    await gw.stop();
    await fake.close();
    await server.dispose();
  });

  const usage = async (k: CreatedKey = key) =>
    (await (await fetch(gw.url('/v1/usage'), { headers: { 'x-api-key': k.key } })).json()) as { tokens: { used: number; remaining: number; percent_used: number } };

  it('refuses once used ≥ allowance, and still does after Redis is flushed and after it restarts empty', async function () {
    const client = new Anthropic({ apiKey: key.key, baseURL: gw.baseURL, maxRetries: 0 });
    for (let i = 0; i < 4; i += 1) await client.messages.create(hello);
    await waitForLedger(gw, (r) => r.filter((x) => x.key_id === key.id).length === 4);
    const before = await usage();
    expect(before.tokens).to.deep.include({ used: 600, remaining: 0, percent_used: 100 });
    const refused = await client.messages.create(hello).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(Anthropic.PaymentRequiredError);

    await redisCommand(server.port, 'FLUSHALL');
    expect((await usage()).tokens).to.deep.equal(before.tokens);
    expect(await client.messages.create(hello).catch((e: unknown) => e)).to.be.instanceOf(Anthropic.PaymentRequiredError);

    await server.stop();
    await server.start();
    await sleep(1500);
    expect(await client.messages.create(hello).catch((e: unknown) => e)).to.be.instanceOf(Anthropic.PaymentRequiredError);
    expect((await usage()).tokens).to.deep.equal(before.tokens);
    expect(await readLedger(gw, 'key_id = ?', key.id)).to.have.length(4);
  });

  it('answers 503 with x-should-retry while Redis is down, and recovers by itself', async function () {
    const k = await createKey(gw, { env: 'test' });
    expect((await post(gw, k.key)).status).to.equal(200);
    await server.stop();
    const down = await post(gw, k.key);
    expect(down.status).to.equal(503);
    expect(down.headers.get('x-should-retry')).to.equal('true');
    expect(((await down.json()) as { error: { type: string } }).error.type).to.equal('api_error');
    expect((await fetch(gw.url('/readyz'))).status).to.equal(503);
    await server.start();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i += 1) {
      await sleep(200);
      status = (await post(gw, k.key)).status;
    }
    expect(status).to.equal(200);
    expect((await fetch(gw.url('/readyz'))).status).to.equal(200);
  });

  it('never lets concurrent requests push spend past allowance + overage ceiling', async function () {
    const k = await createKey(gw, { env: 'live', plan: { name: 'over', allowance: 1000, overage: true, ceiling: 500, concurrency: 50 } });
    fake.setBehaviour({ usage: { input_tokens: 40, output_tokens: 90 }, gapMs: 20, content: [{ type: 'text', text: 'z'.repeat(60) }], chunkSize: 6 });
    const body = { ...hello, max_tokens: 100 };
    const statuses: number[] = [];
    // waves of concurrent requests until the ceiling refuses everything
    for (let wave = 0; wave < 6; wave += 1) {
      const wave_ = await Promise.all(Array.from({ length: 10 }, () => post(gw, k.key, { body }).then(async (r) => {
        await r.text();
        return r.status;
      })));
      statuses.push(...wave_);
    }
    const rows = await waitForLedger(gw, (r) => r.filter((x) => x.key_id === k.id).length === statuses.filter((s) => s === 200).length);
    const spent = rows.filter((x) => x.key_id === k.id).reduce((n, x) => n + x.billable_units, 0);
    expect(statuses.filter((s) => s === 402).length).to.be.greaterThan(0);
    expect(spent).to.be.at.most(1500);
    expect(spent).to.be.greaterThan(1000); // overage was used, not refused at the allowance
    fake.setBehaviour({ usage: { input_tokens: 100, output_tokens: 50 } });
  });
});
