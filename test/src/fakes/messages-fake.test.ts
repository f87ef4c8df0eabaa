import { expect } from 'chai';
import Anthropic from '@anthropic-ai/sdk';
import AnthropicLegacy from 'anthropic-sdk-0x';
import { startMessagesFake, type BehaviourPlan, type MessagesFake } from './index.js';

const KEY = 'sk-fake-upstream-key';
const MODEL = 'alpha-sonnet-5';
const HELLO = { model: MODEL, max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hello there' }] };

interface WireEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Splits a raw SSE body on its blank lines, insisting on the vendor's exact `event:`/`data:` framing. */
function parseWire(text: string): WireEvent[] {
  expect(text).not.to.contain('\r');
  expect(text.endsWith('\n\n')).to.equal(true);
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((chunk) => {
      const m = /^event: ([a-z_]+)\ndata: (.+)$/.exec(chunk);
      expect(m, `malformed SSE event: ${JSON.stringify(chunk)}`).not.to.equal(null);
      const data = JSON.parse(m?.[2] ?? '') as Record<string, unknown>;
      expect(data['type']).to.equal(m?.[1]);
      return { event: m?.[1] ?? '', data };
    });
}

async function rawPost(fake: MessagesFake, body: unknown, headers: Record<string, string> = {}, path = '/v1/messages') {
  const res = await fetch(`${fake.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': KEY, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { res, text: await res.text() };
}

describe('fakes: Messages-API upstream', function () {
  let fake: MessagesFake;
  const sdk = (opts: { apiKey?: string; baseURL?: string; timeout?: number } = {}) =>
    new Anthropic({ apiKey: KEY, baseURL: fake.url, maxRetries: 0, ...opts });

  before(async () => {
    fake = await startMessagesFake({ apiKey: KEY });
  });
  afterEach(() => fake.reset());
  after(() => fake.close());

  it('create() answers a vendor Message echoing the last user message, and records the request', async function () {
    const { data, response } = await sdk().messages.create(HELLO).withResponse();
    expect(data.id).to.match(/^msg_01[A-Za-z0-9]{22}$/);
    expect(data).to.include({ type: 'message', role: 'assistant', model: MODEL, stop_reason: 'end_turn', stop_sequence: null });
    expect(data.content).to.deep.equal([{ type: 'text', text: 'Mock reply to: Hello there' }]);
    expect(data.usage.input_tokens).to.be.greaterThan(0);
    expect(data.usage.output_tokens).to.equal(Math.ceil('Mock reply to: Hello there'.length / 4));
    expect(data.usage).to.include({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    expect(response.headers.get('content-type')).to.equal('application/json');
    expect(response.headers.get('request-id')).to.match(/^req_01/);

    expect(fake.requests).to.have.length(1);
    const rec = fake.requests[0]!;
    expect(rec).to.include({ method: 'POST', path: '/v1/messages', region: null, status: 200, completed: true, clientAborted: false });
    expect(rec.headers['authorization']).to.equal(`Bearer ${KEY}`);
    expect(rec.headers['anthropic-version']).to.equal('2026-10-21');
    expect(rec.json).to.deep.equal(HELLO);
    expect(JSON.parse(rec.rawBody)).to.deep.equal(HELLO);
    expect(rec.receivedAt).to.be.closeTo(Date.now(), 5_000);
  });

  it('records the region when the base URL has a region prefix', async function () {
    await sdk({ baseURL: `${fake.url}/eu-west-3` }).messages.create(HELLO);
    expect(fake.requests[0]).to.include({ region: 'eu-west-3', path: '/eu-west-3/v1/messages' });
  });

  it('stream().finalMessage() rebuilds thinking, text and tool_use blocks as planned', async function () {
    const input = { city: 'Lyon', units: 'metric', days: [1, 2, 3], nested: { deep: 'é ✓ 🚀' } };
    const plan: BehaviourPlan = {
      content: [
        { type: 'thinking', thinking: 'The user wants the weather in Lyon; call the tool.', signature: 'sig-abc==' },
        { type: 'text', text: 'Let me look that up 🚀.' },
        { type: 'tool_use', id: 'toolu_01fixed', name: 'get_weather', input },
      ],
      chunkSize: 5,
      pingAfterStart: true,
      usage: { input_tokens: 42, cache_read_input_tokens: 7 },
    };
    fake.enqueue(plan);
    const seen: string[] = [];
    const stream = sdk().messages.stream(HELLO);
    stream.on('streamEvent', (e) => seen.push(e.type));
    const msg = await stream.finalMessage();
    expect(msg.content).to.deep.equal(plan.content);
    expect(msg.stop_reason).to.equal('tool_use');
    expect(msg.usage).to.include({ input_tokens: 42, cache_read_input_tokens: 7, cache_creation_input_tokens: 0 });
    expect(msg.usage.output_tokens).to.be.greaterThan(10);
    expect(seen[0]).to.equal('message_start');
    expect(seen.slice(-2)).to.deep.equal(['message_delta', 'message_stop']);
    expect(seen.filter((t) => t === 'content_block_delta').length).to.be.greaterThan(10);
    expect(fake.requests[0]).to.include({ completed: true, clientAborted: false });
    expect((fake.requests[0]!.json as { stream?: boolean }).stream).to.equal(true);
  });

  it('streams the vendor wire format exactly: event lines, blank lines, LF, the vendor order', async function () {
    fake.enqueue({
      content: [{ type: 'thinking', thinking: 'abcdef', signature: 'SIG' }, { type: 'text', text: 'Hello!' }, { type: 'tool_use', name: 't', input: { a: 1 } }],
      chunkSize: 4,
      pingAfterStart: true,
      usage: { input_tokens: 12, output_tokens: 6, cache_creation_input_tokens: 3 },
    });
    const { res, text } = await rawPost(fake, { ...HELLO, stream: true });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8');
    expect(res.headers.get('request-id')).to.match(/^req_/);
    const events = parseWire(text);
    const shape = events.map((e) => {
      const delta = e.data['delta'] as { type?: string } | undefined;
      return e.event === 'content_block_delta' ? `${String(e.data['index'])}:${delta?.type}` : e.event;
    });
    expect(shape).to.deep.equal([
      'message_start',
      'content_block_start', 'ping', '0:thinking_delta', '0:thinking_delta', '0:signature_delta', 'content_block_stop',
      'content_block_start', '1:text_delta', '1:text_delta', 'content_block_stop',
      'content_block_start', '2:input_json_delta', '2:input_json_delta', 'content_block_stop',
      'message_delta', 'message_stop',
    ]);
    const start = events[0]!.data['message'] as Record<string, unknown>;
    expect(start).to.include({ model: MODEL, type: 'message', role: 'assistant', stop_reason: null, stop_sequence: null });
    expect(start['content']).to.deep.equal([]);
    expect(start['usage']).to.deep.equal({ input_tokens: 12, cache_creation_input_tokens: 3, cache_read_input_tokens: 0, output_tokens: 1 });
    const starts = events.filter((e) => e.event === 'content_block_start').map((e) => e.data);
    expect(starts.map((s) => s['index'])).to.deep.equal([0, 1, 2]);
    expect(starts[0]!['content_block']).to.deep.equal({ type: 'thinking', thinking: '', signature: '' });
    expect((starts[2]!['content_block'] as { input: unknown }).input).to.deep.equal({});
    const partial = events
      .filter((e) => (e.data['delta'] as { type?: string } | undefined)?.type === 'input_json_delta')
      .map((e) => (e.data['delta'] as { partial_json: string }).partial_json);
    expect(partial).to.deep.equal(['{"a"', ':1}']);
    expect(events.at(-2)!.data).to.deep.equal({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { input_tokens: 12, cache_creation_input_tokens: 3, output_tokens: 6 },
    });
  });

  it('reportUsage: false leaves the usage numbers out of message_delta and the Message', async function () {
    fake.enqueue({ reportUsage: false }, { reportUsage: false });
    const streamed = parseWire((await rawPost(fake, { ...HELLO, stream: true })).text);
    expect(streamed.at(-2)!.data['usage']).to.deep.equal({});
    const whole = JSON.parse((await rawPost(fake, HELLO)).text) as Record<string, unknown>;
    expect(whole).not.to.have.property('usage');
  });

  it('maps errors before the stream to the SDK error classes, with the vendor body and retry-after', async function () {
    fake.enqueue(
      { errorBefore: { status: 429, type: 'rate_limit_error', message: 'slow down', retryAfterSeconds: 7 } },
      { errorBefore: { status: 529 } },
      { errorBefore: { status: 500, type: 'api_error', message: 'boom' } },
      { errorBefore: { status: 400, message: 'bad thing' } },
    );
    const rate = await sdk().messages.stream(HELLO).finalMessage().catch((e: unknown) => e);
    expect(rate).to.be.instanceOf(Anthropic.RateLimitError);
    expect((rate as InstanceType<typeof Anthropic.RateLimitError>).headers.get('retry-after')).to.equal('7');
    expect((rate as InstanceType<typeof Anthropic.APIError>).error).to.deep.include({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'slow down' },
    });
    const overloaded = await sdk().messages.create(HELLO).catch((e: unknown) => e);
    expect(overloaded).to.be.instanceOf(Anthropic.OverloadedError);
    expect((overloaded as InstanceType<typeof Anthropic.APIError>).type).to.equal('overloaded_error');
    expect(await sdk().messages.create(HELLO).catch((e: unknown) => e)).to.be.instanceOf(Anthropic.InternalServerError);
    const bad = await sdk().messages.create(HELLO).catch((e: unknown) => e);
    expect(bad).to.be.instanceOf(Anthropic.BadRequestError);
    expect((bad as InstanceType<typeof Anthropic.APIError>).apiMessage).to.equal('bad thing');
    expect(fake.requests.map((r) => r.status)).to.deep.equal([429, 529, 500, 400]);
  });

  it('a mid-stream error event rejects finalMessage with a status-less APIError', async function () {
    fake.setBehaviour({ errorMidStream: { afterDeltas: 2, type: 'overloaded_error', message: 'Overloaded' }, chunkSize: 3 });
    const texts: string[] = [];
    const stream = sdk().messages.stream(HELLO);
    stream.on('text', (t) => texts.push(t));
    const err = await stream.finalMessage().catch((e: unknown) => e);
    expect(err).to.be.instanceOf(Anthropic.APIError);
    expect((err as InstanceType<typeof Anthropic.APIError>).status).to.equal(undefined);
    expect(String(err)).to.contain('Overloaded');
    expect(texts).to.deep.equal(['Moc', 'k r']);
    const wire = parseWire((await rawPost(fake, { ...HELLO, stream: true })).text);
    expect(wire.at(-1)).to.deep.equal({ event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } });
    expect(wire.filter((e) => e.event === 'content_block_delta')).to.have.length(2);
  });

  it('checks the key like the vendor: wrong key is an AuthenticationError, x-api-key (SDK 0.x) works', async function () {
    const err = await sdk({ apiKey: 'sk-wrong' }).messages.create(HELLO).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(Anthropic.AuthenticationError);
    expect((err as InstanceType<typeof Anthropic.APIError>).type).to.equal('authentication_error');
    const legacy = await new AnthropicLegacy({ apiKey: KEY, baseURL: fake.url, maxRetries: 0 }).messages.create(HELLO);
    expect(legacy.model).to.equal(MODEL);
    expect(fake.requests[1]!.headers['x-api-key']).to.equal(KEY);
    expect(fake.requests[1]!.headers['anthropic-version']).to.equal('2023-06-01');
  });

  it('rejects what the vendor rejects, with the vendor error body', async function () {
    const cases: Array<[unknown, Record<string, string>, string, number, string]> = [
      [HELLO, { 'x-api-key': '' }, '/v1/messages', 401, 'authentication_error'],
      [HELLO, { 'anthropic-version': '' }, '/v1/messages', 400, 'invalid_request_error'],
      [HELLO, { 'content-type': 'text/plain' }, '/v1/messages', 400, 'invalid_request_error'],
      ['{not json', {}, '/v1/messages', 400, 'invalid_request_error'],
      [{ ...HELLO, max_tokens: undefined }, {}, '/v1/messages', 400, 'invalid_request_error'],
      [{ ...HELLO, max_tokens: 1.5 }, {}, '/v1/messages', 400, 'invalid_request_error'],
      [{ ...HELLO, messages: undefined }, {}, '/v1/messages', 400, 'invalid_request_error'],
      [{ ...HELLO, model: undefined }, {}, '/v1/messages', 400, 'invalid_request_error'],
      [{ ...HELLO, anthropic_version: 'bedrock-2023-05-31' }, {}, '/v1/messages', 400, 'invalid_request_error'],
      [HELLO, {}, '/v1/complete', 404, 'not_found_error'],
    ];
    for (const [body, headers, path, status, type] of cases) {
      const { res, text } = await rawPost(fake, body, headers, path);
      expect(res.status, `${path} ${JSON.stringify(headers)} ${JSON.stringify(body)}`).to.equal(status);
      expect(res.headers.get('request-id')).to.match(/^req_/);
      const parsed = JSON.parse(text) as { type: string; error: { type: string; message: string }; request_id: string };
      expect(parsed.type).to.equal('error');
      expect(parsed.error.type).to.equal(type);
      expect(parsed.request_id).to.equal(res.headers.get('request-id'));
    }
  });

  it('answers count_tokens and accepts the beta route', async function () {
    const count = await sdk({ baseURL: `${fake.url}/eu-central-1` }).messages.countTokens({ model: MODEL, messages: HELLO.messages });
    expect(count.input_tokens).to.be.greaterThan(0);
    expect(fake.requests[0]).to.include({ path: '/eu-central-1/v1/messages/count_tokens', region: 'eu-central-1' });
    // SDK 0.x puts beta calls on `?beta=true`.
    const legacy = new AnthropicLegacy({ apiKey: KEY, baseURL: fake.url, maxRetries: 0 });
    const beta = await legacy.beta.messages.create({ ...HELLO, betas: ['some-beta-2025-01-01'] });
    expect(beta.content[0]).to.deep.equal({ type: 'text', text: 'Mock reply to: Hello there' });
    expect(fake.requests[1]!.url).to.equal('/v1/messages?beta=true');
    expect(fake.requests[1]!.headers['anthropic-beta']).to.equal('some-beta-2025-01-01');
  });

  it('uses queued plans first, then the standing behaviour, which sees the parsed request', async function () {
    const seen: Array<string | null> = [];
    fake.setBehaviour((req) => {
      seen.push(req.region);
      return { content: [{ type: 'text', text: `standing for ${String(req.body['model'])}` }] };
    });
    fake.enqueue({ content: [{ type: 'text', text: 'first' }] }, { content: [{ type: 'text', text: 'second' }] });
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const m = await sdk({ baseURL: `${fake.url}/uk-south-1` }).messages.create(HELLO);
      texts.push(m.content[0]?.type === 'text' ? m.content[0].text : '');
    }
    expect(texts).to.deep.equal(['first', 'second', `standing for ${MODEL}`]);
    expect(seen).to.deep.equal(['uk-south-1']);
    fake.setBehaviour(null);
    const back = await sdk().messages.create(HELLO);
    expect(back.content[0]).to.deep.equal({ type: 'text', text: 'Mock reply to: Hello there' });
  });

  it('hangBeforeHeaders never answers; a client that gives up is recorded as clientAborted', async function () {
    fake.enqueue({ hangBeforeHeaders: true });
    const err = await sdk({ timeout: 300 }).messages.create(HELLO).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(Anthropic.APIConnectionTimeoutError);
    await fake.waitFor((reqs) => reqs[0]?.clientAborted === true);
    expect(fake.requests[0]).to.include({ completed: false, status: null });
  });

  it('hangAfterDeltas stalls mid-stream; aborting the stream is recorded as clientAborted', async function () {
    fake.enqueue({ hangAfterDeltas: 1, chunkSize: 4 });
    const stream = sdk().messages.stream(HELLO);
    const first = await new Promise<string>((resolve) => stream.on('text', resolve));
    expect(first).to.equal('Mock');
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.requests[0]).to.include({ status: 200, completed: false, clientAborted: false });
    stream.abort();
    await fake.waitFor((reqs) => reqs[0]?.clientAborted === true);
  });

  it('dropAfterDeltas cuts the connection: finalMessage rejects, and that is no client abort', async function () {
    fake.enqueue({ dropAfterDeltas: 1 });
    const err = await sdk().messages.stream(HELLO).finalMessage().catch((e: unknown) => e);
    expect(err).to.be.instanceOf(Error);
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.requests[0]).to.include({ status: 200, completed: false, clientAborted: false });
  });

  it('waits latencyMs before the headers and gapMs between events', async function () {
    fake.enqueue({ latencyMs: 150, gapMs: 20, chunkSize: 100 });
    const t0 = Date.now();
    const stream = sdk().messages.stream(HELLO);
    await stream.finalMessage();
    // 150 ms latency + 5 gaps after message_start (block start, delta, block stop, message_delta, message_stop).
    expect(Date.now() - t0).to.be.at.least(150 + 5 * 20 - 10);
  });
});
