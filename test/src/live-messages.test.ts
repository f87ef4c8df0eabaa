import { expect } from 'chai';
import Anthropic from '@anthropic-ai/sdk';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMessagesFake, type MessagesFake } from './fakes/index.js';
import { TestGateway, createKey, type CreatedKey } from './harness/gateway.js';
import { readLedger, waitForLedger } from './harness/ledger.js';
import { sleep } from './harness/clock.js';

const UPSTREAM_KEY = 'upstream-secret-key';
const hello = (model = 'alpha-sonnet-5', extra: Record<string, unknown> = {}) => ({
  model,
  max_tokens: 200,
  messages: [{ role: 'user' as const, content: 'Hello upstream' }],
  ...extra,
});

const helloUk = hello('alpha-sonnet-4-6');

/** Raw SSE events of a response body: [name, data] pairs. */
function sseEvents(text: string): Array<[string, string]> {
  return text
    .split('\n\n')
    .filter((b) => b.trim() !== '')
    .map((b) => {
      const lines = b.split('\n');
      return [lines.find((l) => l.startsWith('event: '))?.slice(7) ?? '', lines.find((l) => l.startsWith('data: '))?.slice(6) ?? ''];
    });
}

describe('live keys through a Messages-API upstream', function () {
  this.timeout(30_000);
  let fake: MessagesFake;
  let gw: TestGateway;
  let key: CreatedKey;
  let uk: CreatedKey;

  before(async function () {
    fake = await startMessagesFake({ apiKey: UPSTREAM_KEY });
    gw = await new TestGateway({
      env: { UPSTREAM_URL: `${fake.url}/{region}/v1`, UPSTREAM_API_KEY: UPSTREAM_KEY, UPSTREAM_TIMEOUT_MS: '1500', LEASE_TTL_MS: '3000' },
    }).start();
    key = await createKey(gw, { env: 'live', plan: { name: 'live-plan', concurrency: 20 } });
    uk = await createKey(gw, { env: 'live', residency: 'uk', account: key.account_id });
  });
  after(async () => {
    await gw.stop();
    await fake.close();
  });
  beforeEach(() => fake.reset());

  const sdk = (k: CreatedKey = key) => new Anthropic({ apiKey: k.key, baseURL: gw.baseURL, maxRetries: 0 });
  const raw = (body: unknown, headers: Record<string, string> = {}, k: CreatedKey = key, path = '/v1/messages') =>
    fetch(gw.url(path), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': k.key, ...headers },
      body: JSON.stringify(body),
    });

  it('forwards a message with the upstream id, the gateway credential and the client version and betas', async function () {
    fake.enqueue({ content: [{ type: 'text', text: 'Hi from upstream' }], usage: { input_tokens: 21, output_tokens: 5 } });
    const { data, response } = await sdk()
      .beta.messages.create({ ...hello(), betas: ['beta-one', 'beta-two'] })
      .withResponse();
    expect(data.content).to.deep.equal([{ type: 'text', text: 'Hi from upstream' }]);
    expect(data.model).to.equal('alpha-sonnet-5');
    expect(data.usage.input_tokens).to.equal(21);
    expect(response.headers.get('x-gateway-model')).to.equal('eu.anthropic.alpha-sonnet-5-v1:0');
    const seen = fake.requests[0];
    expect(seen?.region).to.equal('eu-central-1');
    // SDK 1.x marks beta calls only with the anthropic-beta header; the path carries no qualifier
    expect(seen?.url).to.equal('/eu-central-1/v1/messages');
    expect((seen?.json as { model: string }).model).to.equal('eu.anthropic.alpha-sonnet-5-v1:0');
    expect(seen?.headers['x-api-key']).to.equal(UPSTREAM_KEY);
    expect(seen?.headers['authorization']).to.equal(undefined);
    expect(JSON.stringify(seen?.headers)).to.not.contain(key.key);
    expect(seen?.headers['anthropic-version']).to.equal('2026-10-21');
    expect(seen?.headers['anthropic-beta']).to.equal('beta-one,beta-two');
    const rows = await waitForLedger(gw, (r) => r.some((x) => x.request_id === response.headers.get('request-id')));
    const row = rows.find((x) => x.request_id === response.headers.get('request-id'));
    // a client that marks the beta route with ?beta=true (SDK 0.x) keeps it upstream
    fake.enqueue({});
    expect((await raw(hello(), { 'anthropic-beta': 'beta-one' }, key, '/v1/messages?beta=true')).status).to.equal(200);
    expect(fake.requests[1]?.url).to.equal('/eu-central-1/v1/messages?beta=true');
    expect(row).to.deep.include({ environment: 'live', model: 'alpha-sonnet-5', input_tokens: 21, output_tokens: 5, outcome: 'ok' });
    // 21 × 3.30 + 5 × 16.50 per million = 0.0001518 GBP = 15180 × 1e-8
    expect(row?.cost_units).to.equal(21 * 330 + 5 * 1650);
  });

  it('streams text, thinking and tool use through the SDK, and meters exactly what the upstream reported', async function () {
    fake.enqueue({
      content: [
        { type: 'thinking', thinking: 'Let me think about the weather.', signature: 'sig-abc' },
        { type: 'text', text: 'Checking the weather for you now.' },
        { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'London', units: 'celsius', days: [1, 2] } },
      ],
      usage: { input_tokens: 120, output_tokens: 48, cache_creation_input_tokens: 64, cache_read_input_tokens: 300 },
      chunkSize: 5,
      pingAfterStart: true,
    });
    const stream = sdk().messages.stream(hello());
    const final = await stream.finalMessage();
    expect(final.content.map((b) => b.type)).to.deep.equal(['thinking', 'text', 'tool_use']);
    const [thinking, text, tool] = final.content;
    expect(thinking?.type === 'thinking' ? [thinking.thinking, thinking.signature] : []).to.deep.equal(['Let me think about the weather.', 'sig-abc']);
    expect(text?.type === 'text' ? text.text : '').to.equal('Checking the weather for you now.');
    expect(tool?.type === 'tool_use' ? tool.input : {}).to.deep.equal({ city: 'London', units: 'celsius', days: [1, 2] });
    expect(final.stop_reason).to.equal('tool_use');
    expect(final.usage).to.deep.include({ input_tokens: 120, output_tokens: 48, cache_creation_input_tokens: 64, cache_read_input_tokens: 300 });
    const rows = await waitForLedger(gw, (r) => r.some((x) => x.input_tokens === 120));
    const row = rows.find((x) => x.input_tokens === 120);
    expect(row).to.deep.include({ output_tokens: 48, cache_creation_input_tokens: 64, cache_read_input_tokens: 300 });
    expect(row?.billable_units).to.equal(120 + 48 + 80 + 30);
    expect(row?.cost_units).to.equal(120 * 330 + 48 * 1650 + 64 * 415 + 300 * 33);
  });

  it('forwards the body byte for byte but for its top-level model, and refuses one that names a key twice', async function () {
    fake.enqueue({ content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: 3, output_tokens: 1 } });
    // Spacing, key order, escapes, non-ASCII text and "model" nested in a block and in metadata: all kept.
    const sent = '{ "messages" : [{"role":"user","content":[{"type":"text","text":"\\"model\\": \\"x\\" ünïcödé 🙂 \\u00e9"}]}],\n'
      + '  "model" :  "alpha-sonnet-5" , "max_tokens":200,"metadata":{"user_id":"u","model":"keep"} }';
    const ok = await fetch(gw.url('/v1/messages'), { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key.key }, body: sent });
    expect(ok.status).to.equal(200);
    expect(fake.requests[0]?.rawBody).to.equal(sent.replace('"alpha-sonnet-5"', '"eu.anthropic.alpha-sonnet-5-v1:0"'));

    // JSON.parse keeps the last of two keys; a splice or another reader may take the first: refused, not guessed.
    for (const twice of [
      '{"model":"alpha-sonnet-5","max_tokens":200,"messages":[{"role":"user","content":"hi"}],"model":"alpha-opus-5"}',
      '{"model":"alpha-sonnet-5","max_tokens":200,"messages":[{"role":"user","content":"hi"}],"mod\\u0065l":"alpha-opus-5"}',
      '{"max_tokens":1,"model":"alpha-sonnet-5","messages":[{"role":"user","content":"hi"}],"max_tokens":200}',
    ]) {
      const r = await fetch(gw.url('/v1/messages'), { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key.key }, body: twice });
      const body = (await r.json()) as { type: string; error: { type: string; message: string } };
      expect(r.status, twice).to.equal(400);
      expect(body.type).to.equal('error');
      expect(body.error.type).to.equal('invalid_request_error');
      expect(body.error.message).to.contain('more than once');
    }
    expect(fake.requests).to.have.length(1);
  });

  it('passes every event byte for byte except the model of message_start', async function () {
    const plan = {
      content: [{ type: 'text' as const, text: 'Exactly these bytes, "quoted", ünïcödé and emoji 🙂 across chunks.' }],
      usage: { input_tokens: 9, output_tokens: 17 },
      chunkSize: 7,
      pingAfterStart: true,
    };
    fake.enqueue(plan, plan);
    const direct = await fetch(`${fake.url}/eu-central-1/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': UPSTREAM_KEY, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ ...hello(), model: 'eu.anthropic.alpha-sonnet-5-v1:0', stream: true }),
    });
    const viaGateway = await raw({ ...hello(), stream: true });
    expect(viaGateway.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8');
    const a = sseEvents(await direct.text());
    const b = sseEvents(await viaGateway.text());
    expect(b.map((e) => e[0])).to.deep.equal(a.map((e) => e[0]));
    expect(a[0]?.[0]).to.equal('message_start');
    const startA = JSON.parse(a[0]?.[1] ?? '{}') as { message: Record<string, unknown> };
    const startB = JSON.parse(b[0]?.[1] ?? '{}') as { message: Record<string, unknown> };
    expect(startB.message['model']).to.equal('alpha-sonnet-5');
    expect({ ...startB.message, model: '', id: '' }).to.deep.equal({ ...startA.message, model: '', id: '' });
    expect(b.slice(1)).to.deep.equal(a.slice(1));
  });

  it('aborts the upstream, frees the slot and meters what was generated when the client disconnects', async function () {
    const k = await createKey(gw, { env: 'live', plan: { name: 'live-c1', concurrency: 1 } });
    fake.enqueue({ content: [{ type: 'text', text: 'word '.repeat(200) }], chunkSize: 10, gapMs: 30, usage: { input_tokens: 50, output_tokens: 400 } });
    const controller = new AbortController();
    const res = await raw({ ...hello(), stream: true }, {}, k);
    const requestId = res.headers.get('request-id');
    const reader = res.body!.getReader();
    let received = '';
    while (received.split('content_block_delta').length < 6) received += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    controller.abort();
    await fake.waitFor((r) => r[0]?.clientAborted === true, 5_000);
    const rows = await waitForLedger(gw, (r) => r.some((x) => x.request_id === requestId));
    const row = rows.find((x) => x.request_id === requestId);
    expect(row?.outcome).to.equal('client_disconnect');
    expect(row?.input_tokens).to.equal(50);
    expect(row?.output_tokens).to.be.greaterThan(1).and.lessThan(400);
    // the slot is free again
    fake.enqueue({});
    expect((await raw(hello(), {}, k)).status).to.equal(200);
  });

  it('ends the stream with event: error when the upstream connection resets mid-stream, and meters it', async function () {
    fake.enqueue({ content: [{ type: 'text', text: 'a'.repeat(400) }], chunkSize: 20, dropAfterDeltas: 5, usage: { input_tokens: 33, output_tokens: 100 } });
    const res = await raw({ ...hello(), stream: true });
    const events = sseEvents(await res.text());
    expect(events.filter((e) => e[0] === 'content_block_delta').length).to.equal(5);
    const last = events.at(-1);
    expect(last?.[0]).to.equal('error');
    expect((JSON.parse(last?.[1] ?? '{}') as { error: { type: string } }).error.type).to.equal('api_error');
    const id = res.headers.get('request-id');
    const row = (await waitForLedger(gw, (r) => r.some((x) => x.request_id === id))).find((x) => x.request_id === id);
    expect(row?.outcome).to.equal('upstream_error');
    expect(row?.input_tokens).to.equal(33);
    expect(row?.output_tokens).to.equal(25); // 100 characters seen, about 4 a token
  });

  it('answers 504 timeout_error when the upstream never answers, and an error event when it stalls mid-stream', async function () {
    fake.enqueue({ hangBeforeHeaders: true });
    const err = await sdk().messages.create(hello()).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(Anthropic.GatewayTimeoutError);
    fake.enqueue({ content: [{ type: 'text', text: 'b'.repeat(100) }], chunkSize: 10, hangAfterDeltas: 2 });
    const stream = sdk().messages.stream(hello());
    const streamErr = await stream.finalMessage().catch((e: unknown) => e);
    expect(String(streamErr)).to.contain('timeout_error');
  });

  it('maps upstream errors: throttling to 529, failures to 502, the client\'s own mistakes kept', async function () {
    // A uk key has one route, so the upstream's own failure is the answer (an eu key's next route would serve it:
    // failover.test.ts).
    const hello = () => helloUk;
    fake.enqueue({ errorBefore: { status: 429, type: 'rate_limit_error', message: 'slow down', retryAfterSeconds: 3 } });
    expect(await sdk(uk).messages.create(hello()).catch((e: unknown) => e)).to.be.instanceOf(Anthropic.OverloadedError);
    fake.enqueue({ errorBefore: { status: 500 } });
    const e500 = (await sdk(uk).messages.create(hello()).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(e500.status).to.equal(502);
    expect((e500.error as { error: { type: string } }).error.type).to.equal('api_error');
    fake.enqueue({ errorBefore: { status: 400, message: 'messages.0.content: tool_use ids must be unique' } });
    const e400 = (await sdk(uk).messages.create(hello()).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(e400.status).to.equal(400);
    expect(e400.message).to.contain('tool_use ids must be unique');
    fake.enqueue({ errorBefore: { status: 529 } });
    expect(await sdk(uk).messages.stream(hello()).finalMessage().catch((e: unknown) => e)).to.be.instanceOf(Anthropic.OverloadedError);
  });

  it('keeps upstream error text out of the logs, and passes on only the client\'s own 4xx message', async function () {
    const quoted = 'you wrote: jane.quoted.secret@example.com, card 4111 1111 1111 1111';
    const logLines = (): string => gw.proxiesRunning.flatMap((p) => p.output).join('\n');
    const before = logLines().length;
    // One route (uk), so each failure is the answer; see failover.test.ts for an eu key's other routes.
    const hello = () => helloUk;
    for (const [status, type] of [[500, 'api_error'], [529, 'overloaded_error'], [503, 'overloaded_error'], [504, 'timeout_error'], [429, 'rate_limit_error'], [403, 'permission_error']] as const) {
      fake.enqueue({ errorBefore: { status, type, message: quoted } });
      const r = await raw(hello(), {}, uk);
      const text = await r.text();
      expect(r.status, text).to.be.oneOf([502, 504, 529]);
      expect(text, `client body for upstream ${status}`).to.not.contain('jane.quoted');
    }
    fake.enqueue({ errorBefore: { status: 400, type: 'invalid_request_error', message: quoted } });
    const r400 = await raw(hello(), {}, uk);
    expect(r400.status).to.equal(400);
    expect(((await r400.json()) as { error: { message: string } }).error.message).to.equal(quoted);
    await sleep(200); // let the last log lines arrive
    const logs = logLines().slice(before);
    expect(logs).to.contain('upstream_failed'); // the 5xx was logged...
    expect(logs).to.not.contain('jane.quoted'); // ...without the upstream's words
    expect(logs).to.not.contain('4111');
  });

  it('answers 502 when the upstream cannot be connected to, streamed or not, and bills nothing', async function () {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const down = await new TestGateway({ env: { UPSTREAM_URL: `http://127.0.0.1:${port}/{region}/v1`, UPSTREAM_API_KEY: UPSTREAM_KEY } }).start();
    try {
      const k = await createKey(down, { env: 'live' });
      for (const stream of [false, true]) {
        const r = await fetch(down.url('/v1/messages'), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': k.key },
          body: JSON.stringify({ ...hello(), stream }),
        });
        const body = (await r.json()) as { error: { type: string } };
        expect(r.status).to.equal(502);
        expect(body.error.type).to.equal('api_error');
      }
      const rows = await waitForLedger(down, (x) => x.length === 2);
      expect(rows.map((x) => [x.outcome, x.input_tokens, x.output_tokens])).to.deep.equal([['upstream_error', 0, 0], ['upstream_error', 0, 0]]);
      // its own error type (502), apart from a headers or body timeout (504)
      expect(down.proxiesRunning.flatMap((p) => p.output).join('\n')).to.contain('upstream_connect_failed');
    } finally {
      await down.stop();
    }
  });

  it('never calls a region but eu-west-2 for a uk key, and never tries another region when it fails', async function () {
    fake.setBehaviour({});
    for (const model of ['alpha-sonnet-4-6', 'alpha-opus-4-6', 'alpha-sonnet-4-6-20260217']) {
      await sdk(uk).messages.create(hello(model));
      await sdk(uk).messages.stream(hello(model)).finalMessage();
    }
    expect(await sdk(uk).messages.create(hello('alpha-haiku-4-5')).catch((e: unknown) => e)).to.be.instanceOf(Anthropic.PermissionDeniedError);
    fake.setBehaviour({ errorBefore: { status: 503 } });
    await sdk(uk).messages.create(hello('alpha-sonnet-4-6')).catch(() => undefined);
    expect(fake.requests.length).to.equal(7);
    expect(new Set(fake.requests.map((r) => r.region))).to.deep.equal(new Set(['eu-west-2']));
    expect(new Set(fake.requests.map((r) => (r.json as { model: string }).model))).to.deep.equal(
      new Set(['anthropic.alpha-sonnet-4-6-v1:0', 'anthropic.alpha-opus-4-6-v1:0']),
    );
  });

  it('cuts a live stream within 1 s of revocation and meters the tokens so far', async function () {
    const k = await createKey(gw, { env: 'live', account: key.account_id });
    fake.enqueue({ content: [{ type: 'text', text: 'tick '.repeat(300) }], chunkSize: 5, gapMs: 20, usage: { input_tokens: 40, output_tokens: 300 } });
    const stream = sdk(k).messages.stream(hello());
    let revokedAt = 0;
    let deltas = 0;
    stream.on('text', () => {
      deltas += 1;
      if (deltas === 5) {
        revokedAt = Date.now();
        void gw.ctl('keys', 'revoke', k.id);
      }
    });
    const err = await stream.finalMessage().catch((e: unknown) => e);
    expect(Date.now() - revokedAt).to.be.lessThan(1000);
    expect(String(err)).to.contain('authentication_error');
    await fake.waitFor((r) => r[0]?.clientAborted === true, 3_000);
    const rows = await waitForLedger(gw, (r) => r.some((x) => x.key_id === k.id));
    const row = rows.find((x) => x.key_id === k.id);
    expect(row?.outcome).to.equal('revoked');
    expect(row?.input_tokens).to.equal(40);
    expect(row?.output_tokens).to.be.greaterThan(1).and.lessThan(300);
  });

  it('forwards count_tokens for live keys', async function () {
    const r = await sdk().messages.countTokens({ model: 'alpha-sonnet-5', messages: [{ role: 'user', content: 'count me please' }] });
    expect(r.input_tokens).to.be.greaterThan(0);
    expect(fake.requests[0]?.path).to.equal('/eu-central-1/v1/messages/count_tokens');
    expect((fake.requests[0]?.json as { model: string }).model).to.equal('eu.anthropic.alpha-sonnet-5-v1:0');
  });

  it('keeps usage reports while the policy service restarts, and records each exactly once', async function () {
    this.timeout(40_000);
    const k = await createKey(gw, { env: 'live', account: key.account_id });
    fake.setBehaviour({ content: [{ type: 'text', text: 'slow '.repeat(40) }], chunkSize: 5, gapMs: 40, usage: { input_tokens: 11, output_tokens: 40 } });
    const ids: string[] = [];
    const streams = [0, 1, 2].map(async () => {
      const res = await raw({ ...hello(), stream: true }, {}, k);
      ids.push(res.headers.get('request-id') ?? '');
      return res.text();
    });
    await sleep(500);
    await gw.policy.stop('SIGKILL');
    const bodies = await Promise.all(streams);
    for (const b of bodies) expect(sseEvents(b).at(-1)?.[0]).to.equal('message_stop');
    await sleep(1500);
    expect(await readLedger(gw, 'key_id = ?', k.id)).to.have.length(0);
    await gw.startPolicy(gw.policyPort);
    const rows = await waitForLedger(gw, (r) => r.filter((x) => x.key_id === k.id).length === 3, 15_000);
    const mine = rows.filter((x) => x.key_id === k.id);
    expect(mine.map((x) => x.request_id).sort()).to.deep.equal([...ids].sort());
    expect(mine.every((x) => x.input_tokens === 11 && x.output_tokens === 40)).to.equal(true);
    // replays keep coming (the spool retries on a timer), but the ledger applies each request id once
    await sleep(2500);
    expect(await readLedger(gw, 'key_id = ?', k.id)).to.have.length(3);
    fake.setBehaviour(null);
  });

  it('gives up on an upstream event that never ends instead of buffering it', async function () {
    let closed = false;
    let sent = 0;
    const endless = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":1}}}\n\nevent: content_block_delta\ndata: ');
      const chunk = 'x'.repeat(64 * 1024);
      const timer = setInterval(() => {
        if (sent > 64 * 1024 * 1024) return clearInterval(timer);
        res.write(chunk);
        sent += chunk.length;
      }, 1);
      res.on('close', () => {
        closed = true;
        clearInterval(timer);
      });
    });
    await new Promise<void>((r) => endless.listen(0, '127.0.0.1', r));
    const own = await new TestGateway({
      env: { UPSTREAM_URL: `http://127.0.0.1:${(endless.address() as AddressInfo).port}/v1`, UPSTREAM_API_KEY: 'x' },
    }).start();
    try {
      const k = await createKey(own, { env: 'live' });
      const res = await fetch(own.url('/v1/messages'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': k.key },
        body: JSON.stringify({ ...hello(), stream: true }),
      });
      const text = await res.text();
      const events = sseEvents(text);
      expect(events.at(-1)?.[0]).to.equal('error');
      expect(JSON.parse(events.at(-1)?.[1] ?? '{}').error.type).to.equal('api_error');
      // none of the unfinished event reached the client, and the gateway stopped reading it
      expect(text).to.not.contain('xxxx');
      expect(text.length).to.be.lessThan(4096);
      await sleep(100);
      expect(closed).to.equal(true);
    } finally {
      await own.stop();
      endless.close();
    }
  });

  it('passes complete events on at once while holding only an unfinished one, which a failure never exposes', async function () {
    const finishers: Array<() => void> = [];
    const upstream = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      res.write('event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"eu.anthropic.alpha-sonnet-5-v1:0","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":1}}}\n\n');
      res.write('event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\nevent: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel');
      // the rest only when the test says so (or never: the upstream stalls mid-event)
      finishers.push(() => {
        res.write('lo"}}\n\nevent: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n');
        res.end('event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":2}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n');
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const own = await new TestGateway({
      env: { UPSTREAM_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`, UPSTREAM_API_KEY: 'x', UPSTREAM_TIMEOUT_MS: '1000' },
    }).start();
    try {
      const k = await createKey(own, { env: 'live' });
      const res = await fetch(own.url('/v1/messages'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': k.key },
        body: JSON.stringify({ ...hello(), stream: true }),
      });
      const reader = res.body!.getReader();
      let got = '';
      // the complete events arrive while the upstream is still holding the rest
      while (!got.includes('content_block_start')) got += new TextDecoder().decode((await reader.read()).value);
      expect(got).to.contain('"model":"alpha-sonnet-5"');
      expect(got).to.not.contain('"text":"Hel');
      finishers[0]?.();
      for (let r = await reader.read(); !r.done; r = await reader.read()) got += new TextDecoder().decode(r.value);
      expect(got).to.contain('"text":"Hello"').and.contain('event: message_stop');
      const id = res.headers.get('request-id');
      const row = (await waitForLedger(own, (rows) => rows.some((x) => x.request_id === id))).find((x) => x.request_id === id);
      expect(row).to.deep.include({ input_tokens: 3, output_tokens: 2, outcome: 'ok' });

      // an upstream that stalls mid-event: the SDK sees the timeout, not a broken event
      const err = await new Anthropic({ apiKey: k.key, baseURL: own.baseURL, maxRetries: 0 }).messages.stream(hello()).finalMessage().catch((e: unknown) => e);
      expect(err).to.be.instanceOf(Anthropic.APIError);
      expect(String(err)).to.contain('timeout_error');
    } finally {
      await own.stop();
      upstream.close();
    }
  });
});
