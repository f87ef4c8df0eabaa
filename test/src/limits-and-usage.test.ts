import { expect } from 'chai';
import Anthropic from '@anthropic-ai/sdk';
import { TestGateway, createKey, type CreatedKey } from './harness/gateway.js';
import { awayFromMinuteEdge, sleep } from './harness/clock.js';
import { waitForLedger } from './harness/ledger.js';

const hello = { model: 'alpha-sonnet-5', max_tokens: 16, messages: [{ role: 'user' as const, content: 'hello' }] };

async function post(gw: TestGateway, key: string, headers: Record<string, string> = {}, body: unknown = hello) {
  return fetch(gw.url('/v1/messages'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key, ...headers },
    body: JSON.stringify(body),
  });
}

describe('limits (in-process counters)', function () {
  let gw: TestGateway;
  before(async function () {
    gw = await new TestGateway().start();
  });
  after(async () => gw.stop());

  it('admits exactly the per-minute limit, then 429 with retry-after and the window headers', async function () {
    await awayFromMinuteEdge();
    const k = await createKey(gw, { plan: { name: 'rpm3', rpm: 3 } });
    const remaining: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const r = await post(gw, k.key);
      expect(r.status).to.equal(200);
      remaining.push(r.headers.get('compat-ratelimit-requests-remaining') ?? '');
      await r.arrayBuffer();
    }
    expect(remaining).to.deep.equal(['2', '1', '0']);
    const refused = await post(gw, k.key);
    expect(refused.status).to.equal(429);
    const body = (await refused.json()) as { error: { type: string } };
    expect(body.error.type).to.equal('rate_limit_error');
    const retryAfter = Number(refused.headers.get('retry-after'));
    const secondsLeft = 60 - Math.floor((Date.now() % 60_000) / 1000);
    expect(retryAfter).to.be.within(1, 60);
    expect(Math.abs(retryAfter - secondsLeft)).to.be.at.most(2);
    expect(refused.headers.get('compat-ratelimit-requests-limit')).to.equal('3');
    expect(refused.headers.get('compat-ratelimit-requests-remaining')).to.equal('0');
    const reset = Date.parse(refused.headers.get('compat-ratelimit-requests-reset') ?? '');
    expect(reset % 60_000).to.equal(0);
    expect(reset - Date.now()).to.be.within(0, 60_000);

    // GET /v1/usage is never counted nor refused for rate
    const usage = await fetch(gw.url('/v1/usage'), { headers: { 'x-api-key': k.key } });
    expect(usage.status).to.equal(200);
    const u = (await usage.json()) as { rate_limit: { requests_per_minute: number; remaining: number } };
    expect(u.rate_limit).to.deep.include({ requests_per_minute: 3, remaining: 0 });
    // GET /v1/models counts, so it is refused too
    expect((await fetch(gw.url('/v1/models'), { headers: { 'x-api-key': k.key } })).status).to.equal(429);
  });

  it('does not count refused requests (401, 403, 400) in the window', async function () {
    await awayFromMinuteEdge();
    const k = await createKey(gw, { plan: { name: 'rpm2', rpm: 2, models: 'alpha-sonnet-5' } });
    await (await post(gw, k.key, {}, { ...hello, model: 'alpha-haiku-4-5' })).arrayBuffer(); // 403 model
    await (await post(gw, k.key, {}, { model: 'alpha-sonnet-5' })).arrayBuffer(); // 400
    const ok = await post(gw, k.key);
    expect(ok.status).to.equal(200);
    expect(ok.headers.get('compat-ratelimit-requests-remaining')).to.equal('1');
  });

  it('keeps test traffic in windows of its own, apart from live traffic', async function () {
    await awayFromMinuteEdge();
    const test = await createKey(gw, { plan: { name: 'rpm1', rpm: 1 } });
    const live = await createKey(gw, { account: test.account_id, env: 'live' });
    expect((await post(gw, test.key)).status).to.equal(200);
    expect((await post(gw, test.key)).status).to.equal(429);
    const models = await fetch(gw.url('/v1/models'), { headers: { 'x-api-key': live.key } });
    expect(models.status).to.equal(200);
    expect(models.headers.get('compat-ratelimit-requests-remaining')).to.equal('0');
  });

  it('holds a concurrency slot for a slow_stream: exactly C run at once, then slots free again', async function () {
    this.timeout(20_000);
    const k = await createKey(gw, { plan: { name: 'conc2', concurrency: 2 } });
    const client = new Anthropic({ apiKey: k.key, baseURL: gw.baseURL, maxRetries: 0 });
    const slow = () => client.messages.stream(hello, { headers: { 'x-gateway-test-scenario': 'slow_stream' } }).finalMessage();
    const running = [slow(), slow()];
    await sleep(500);
    const third = await client.messages.create(hello).catch((e: unknown) => e);
    expect(third).to.be.instanceOf(Anthropic.RateLimitError);
    expect((third as Error).message).to.contain('Concurrency');
    const done = await Promise.all(running);
    expect(done.map((m) => m.stop_reason)).to.deep.equal(['end_turn', 'end_turn']);
    const after = await client.messages.create(hello);
    expect(after.type).to.equal('message');
  });

  it('gives the slot back before the next request: 500 back-to-back requests at concurrency 1 never see a 429', async function () {
    this.timeout(120_000);
    // The report that frees a request's slot travels on the proxy's ordered decision stream ahead of the next
    // decision, so the response ends as soon as the upstream's does and the slot is still free in time.
    const k = await createKey(gw, { plan: { name: 'conc1-seq', concurrency: 1, rpm: 10_000 } });
    const client = new Anthropic({ apiKey: k.key, baseURL: gw.baseURL, maxRetries: 0 });
    const requestIds: string[] = [];
    for (let i = 0; i < 500; i += 1) {
      let requestId: string | null | undefined;
      if (i % 3 === 0) {
        const stream = client.messages.stream(hello);
        const { response } = await stream.withResponse();
        await stream.finalMessage();
        requestId = response.headers.get('request-id');
      } else if (i % 3 === 1) {
        requestId = (await client.messages.create(hello).withResponse()).request_id;
      } else {
        const err = await client.messages.create(hello, { headers: { 'x-gateway-test-scenario': 'overloaded_error' } }).catch((e: unknown) => e);
        expect(err, `request ${i}`).to.be.instanceOf(Anthropic.OverloadedError);
        requestId = (err as InstanceType<typeof Anthropic.APIError>).requestID;
      }
      expect(requestId, `request ${i}`).to.be.a('string');
      requestIds.push(requestId as string);
    }
    // Every one of them is reported, once.
    const rows = await waitForLedger(gw, (r) => requestIds.every((id) => r.some((row) => row.request_id === id)));
    expect(rows.filter((row) => requestIds.includes(row.request_id))).to.have.length(500);
  });

  it('releases the slot when the client disconnects mid-stream', async function () {
    this.timeout(20_000);
    const k = await createKey(gw, { plan: { name: 'conc1', concurrency: 1 } });
    const controller = new AbortController();
    const res = await post(gw, k.key, { 'x-gateway-test-scenario': 'slow_stream' }, { ...hello, stream: true });
    const reader = res.body?.getReader();
    await reader?.read();
    expect((await post(gw, k.key)).status).to.equal(429);
    await reader?.cancel();
    controller.abort();
    let status = 0;
    for (let i = 0; i < 20 && status !== 200; i += 1) {
      await sleep(100);
      status = (await post(gw, k.key)).status;
    }
    expect(status).to.equal(200);
  });

  it('refuses a live key whose allowance is used up with 402 quota_exceeded, x-should-retry: false', async function () {
    const k = await createKey(gw, { plan: { name: 'empty', allowance: 0 }, env: 'live' });
    const r = await post(gw, k.key);
    expect(r.status).to.equal(402);
    expect(r.headers.get('x-should-retry')).to.equal('false');
    const body = (await r.json()) as { error: { type: string } };
    expect(body.error.type).to.equal('quota_exceeded');
  });
});

describe('GET /v1/usage', function () {
  let gw: TestGateway;
  let key: CreatedKey;
  before(async function () {
    gw = await new TestGateway().start();
    key = await createKey(gw, { plan: { name: 'usage-plan', rpm: 100, concurrency: 4, allowance: 500_000 }, privacy: 'flag' });
  });
  after(async () => gw.stop());

  it('reports the period, plan, key settings, allowance and test traffic from the ledger', async function () {
    const client = new Anthropic({ apiKey: key.key, baseURL: gw.baseURL, maxRetries: 0 });
    await client.messages.create(hello);
    await client.messages.create(hello);
    await client.messages.stream({ ...hello, model: 'alpha-haiku-4-5' }).finalMessage();
    let u: Record<string, unknown> = {};
    for (let i = 0; i < 20; i += 1) {
      const r = await fetch(gw.url('/v1/usage'), { headers: { authorization: `Bearer ${key.key}` } });
      expect(r.status).to.equal(200);
      u = (await r.json()) as Record<string, unknown>;
      if ((u['by_model'] as unknown[]).length === 2) break;
      await sleep(100);
    }
    const now = new Date();
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().replace('.000Z', '+00:00');
    const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().replace('.000Z', '+00:00');
    expect(u['period']).to.deep.equal({ start, end });
    expect(u['plan']).to.equal('usage-plan');
    expect(u['residency']).to.equal('eu');
    expect(u['privacy_mode']).to.equal('flag');
    expect(u['tokens']).to.deep.equal({ allowance: 500_000, used: 0, remaining: 500_000, percent_used: 0, overage_allowed: false });
    expect(u['rate_limit']).to.deep.include({ requests_per_minute: 100, concurrency: 4 });
    const rows = u['by_model'] as Array<{ model: string; requests: number; billable_units: number; cost_gbp: number }>;
    expect(rows.map((r) => [r.model, r.requests, r.cost_gbp])).to.deep.equal([
      ['alpha-haiku-4-5', 1, 0],
      ['alpha-sonnet-5', 2, 0],
    ]);
    expect(rows[1]?.billable_units).to.be.greaterThan(0);
  });
});
