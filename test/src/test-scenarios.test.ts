import { expect } from 'chai';
import Anthropic from '@anthropic-ai/sdk';
import { TestGateway, createKey, type CreatedKey } from './harness/gateway.js';

describe('test-key scenarios (x-gateway-test-scenario)', function () {
  let gw: TestGateway;
  let key: CreatedKey;
  before(async function () {
    gw = await new TestGateway().start();
    key = await createKey(gw);
  });
  after(async () => gw.stop());

  const client = () => new Anthropic({ apiKey: key.key, baseURL: gw.baseURL, maxRetries: 0 });
  const params = { model: 'alpha-sonnet-5', max_tokens: 100, messages: [{ role: 'user' as const, content: 'scenario test' }] };
  const withScenario = (s: string) => ({ headers: { 'x-gateway-test-scenario': s } });

  const errorCases: Array<[string, number, string, new (...a: never[]) => Error]> = [
    ['invalid_request_error', 400, 'invalid_request_error', Anthropic.BadRequestError],
    ['rate_limit_error', 429, 'rate_limit_error', Anthropic.RateLimitError],
    ['quota_exceeded', 402, 'quota_exceeded', Anthropic.PaymentRequiredError],
    ['api_error', 500, 'api_error', Anthropic.InternalServerError],
    ['overloaded_error', 529, 'overloaded_error', Anthropic.OverloadedError],
    ['timeout_error', 504, 'timeout_error', Anthropic.GatewayTimeoutError],
  ];

  for (const [scenario, status, type, cls] of errorCases) {
    it(`${scenario}: ${status} ${type}, streamed or not`, async function () {
      for (const stream of [false, true]) {
        const err = await (stream
          ? client().messages.stream(params, withScenario(scenario)).finalMessage()
          : client().messages.create(params, withScenario(scenario))
        ).catch((e: unknown) => e);
        expect(err, `stream=${stream}`).to.be.instanceOf(cls);
        const e = err as InstanceType<typeof Anthropic.APIError>;
        expect(e.status).to.equal(status);
        expect((e.error as { error: { type: string } }).error.type).to.equal(type);
        expect(e.requestID).to.match(/^req_/);
        // the routing decision was made, as for a live call
        expect(e.headers?.get('x-gateway-model')).to.equal('eu.anthropic.alpha-sonnet-5-v1:0');
      }
    });
  }

  it('quota_exceeded tells clients not to retry; rate_limit_error carries retry-after', async function () {
    const q = (await client().messages.create(params, withScenario('quota_exceeded')).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(q.headers?.get('x-should-retry')).to.equal('false');
    const r = (await client().messages.create(params, withScenario('rate_limit_error')).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(Number(r.headers?.get('retry-after'))).to.be.greaterThan(0);
  });

  it('mid_stream_error: some deltas, then an overloaded_error event, then the end', async function () {
    const stream = client().messages.stream(params, withScenario('mid_stream_error'));
    const texts: string[] = [];
    stream.on('text', (t) => texts.push(t));
    const err = await stream.finalMessage().catch((e: unknown) => e);
    expect(texts.length).to.be.greaterThan(0);
    expect(err).to.be.instanceOf(Anthropic.APIError);
    expect((err as Error).message).to.contain('overloaded_error');
  });

  it('mid_stream_error sends some text first even for a tiny max_tokens', async function () {
    const stream = client().messages.stream({ ...params, max_tokens: 1 }, withScenario('mid_stream_error'));
    const texts: string[] = [];
    stream.on('text', (t) => texts.push(t));
    const err = await stream.finalMessage().catch((e: unknown) => e);
    expect(texts.join('')).to.equal('This ');
    expect((err as Error).message).to.contain('overloaded_error');
  });

  it('mid_stream_error on the raw wire: event: error with the vendor body', async function () {
    const res = await fetch(gw.url('/v1/messages'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key.key, 'x-gateway-test-scenario': 'mid_stream_error' },
      body: JSON.stringify({ ...params, stream: true }),
    });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8');
    const text = await res.text();
    const events = text.split('\n\n').filter((e) => e !== '');
    const last = events.at(-1) as string;
    expect(last.split('\n')[0]).to.equal('event: error');
    const data = JSON.parse(last.split('\n')[1]?.slice('data: '.length) ?? '{}') as { type: string; error: { type: string } };
    expect(data.type).to.equal('error');
    expect(data.error.type).to.equal('overloaded_error');
    expect(text.endsWith('\n\n')).to.equal(true);
    expect(events.some((e) => e.startsWith('event: message_stop'))).to.equal(false);
  });

  it('slow_stream: deltas about 200 ms apart, about 5 s in all, and a complete message', async function () {
    this.timeout(15_000);
    const started = Date.now();
    const stamps: number[] = [];
    const stream = client().messages.stream(params, withScenario('slow_stream'));
    stream.on('text', () => stamps.push(Date.now()));
    const final = await stream.finalMessage();
    const took = Date.now() - started;
    expect(took).to.be.within(4_500, 8_000);
    expect(stamps.length).to.be.within(20, 30);
    expect(final.stop_reason).to.equal('end_turn');
    expect(final.content[0]?.type === 'text' ? final.content[0].text : '').to.contain('You said: scenario test');
  });

  it('refuses an unknown scenario with 400', async function () {
    const err = await client().messages.create(params, withScenario('explode')).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(Anthropic.BadRequestError);
    expect((err as Error).message).to.contain('slow_stream');
  });
});
