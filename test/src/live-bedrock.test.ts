import { expect } from 'chai';
import Anthropic from '@anthropic-ai/sdk';
import { startBedrockControlFake, startBedrockFake, type BedrockControlFake, type BedrockFake } from './fakes/index.js';
import { bedrockGatewayEnv, catalogueProfiles, waitReady } from './harness/residency.js';
import { TestGateway, createKey, type CreatedKey } from './harness/gateway.js';
import { waitForLedger } from './harness/ledger.js';
import { sleep } from './harness/clock.js';

const CREDENTIALS = { accessKeyId: 'AKIDGATEWAYTEST01', secretAccessKey: 'gateway/test/secret/key/0123456789abcdef' };
const hello = (model = 'alpha-sonnet-5') => ({ model, max_tokens: 300, messages: [{ role: 'user' as const, content: 'Hello Bedrock' }] });

describe('live keys through AWS Bedrock (SigV4, event stream)', function () {
  this.timeout(30_000);
  let fake: BedrockFake;
  let control: BedrockControlFake;
  let gw: TestGateway;
  let key: CreatedKey;
  let uk: CreatedKey;

  before(async function () {
    fake = await startBedrockFake({ credentials: CREDENTIALS });
    // Routes are verified against the control plane before they are served (docs/residency.md).
    control = await startBedrockControlFake({ credentials: CREDENTIALS, profiles: catalogueProfiles() });
    gw = await new TestGateway({
      env: {
        // the standard AWS credential sources: here the environment, with nothing else to find
        ...bedrockGatewayEnv(fake.url, control.url, CREDENTIALS),
        UPSTREAM_TIMEOUT_MS: '2000',
      },
    }).start();
    await waitReady(gw);
    key = await createKey(gw, { env: 'live' });
    uk = await createKey(gw, { env: 'live', residency: 'uk', account: key.account_id });
  });
  after(async () => {
    await gw.stop();
    await fake.close();
    await control.close();
  });
  beforeEach(() => fake.reset());

  const sdk = (k: CreatedKey = key) => new Anthropic({ apiKey: k.key, baseURL: gw.baseURL, maxRetries: 0 });

  it('invokes the model in the call region with a valid SigV4 signature and Bedrock\'s body', async function () {
    fake.enqueue({ content: [{ type: 'text', text: 'Hello from Bedrock' }], usage: { input_tokens: 14, output_tokens: 4 } });
    const { data, response } = await sdk().beta.messages.create({ ...hello(), betas: ['ctx-1m'] }).withResponse();
    expect(data.content).to.deep.equal([{ type: 'text', text: 'Hello from Bedrock' }]);
    expect(data.model).to.equal('alpha-sonnet-5');
    const r = fake.requests[0];
    expect(r?.signatureValid).to.equal(true);
    expect(r?.authMethod).to.equal('sigv4');
    expect(r?.region).to.equal('eu-central-1');
    expect(r?.modelId).to.equal('eu.anthropic.alpha-sonnet-5-v1:0');
    expect(r?.path).to.equal('/eu-central-1/model/eu.anthropic.alpha-sonnet-5-v1%3A0/invoke');
    const body = r?.json as Record<string, unknown>;
    expect(body['anthropic_version']).to.equal('bedrock-2023-05-31');
    expect(body['anthropic_beta']).to.deep.equal(['ctx-1m']);
    expect(body).to.not.have.property('model');
    expect(body).to.not.have.property('stream');
    expect(JSON.stringify(r?.headers)).to.not.contain(key.key);
    const id = response.headers.get('request-id');
    const row = (await waitForLedger(gw, (rows) => rows.some((x) => x.request_id === id))).find((x) => x.request_id === id);
    expect(row).to.deep.include({ input_tokens: 14, output_tokens: 4, outcome: 'ok' });
  });

  it('decodes the binary event stream (split frames included) into the vendor\'s SSE', async function () {
    fake.enqueue({
      content: [
        { type: 'thinking', thinking: 'Weighing the options carefully.', signature: 'sig-1' },
        { type: 'text', text: 'Here is a longer answer that spans many frames of the event stream.' },
        { type: 'tool_use', name: 'lookup', input: { q: 'residency', n: 3 } },
      ],
      chunkSize: 6,
      usage: { input_tokens: 70, output_tokens: 33, cache_read_input_tokens: 1000 },
    });
    const stream = sdk().messages.stream(hello());
    const types: string[] = [];
    stream.on('streamEvent', (e) => types.push(e.type));
    const final = await stream.finalMessage();
    expect(fake.requests[0]?.path).to.match(/\/invoke-with-response-stream$/);
    expect(types[0]).to.equal('message_start');
    expect(types.at(-1)).to.equal('message_stop');
    expect(final.content.map((b) => b.type)).to.deep.equal(['thinking', 'text', 'tool_use']);
    expect(final.content[1]?.type === 'text' ? final.content[1].text : '').to.equal('Here is a longer answer that spans many frames of the event stream.');
    expect(final.content[2]?.type === 'tool_use' ? final.content[2].input : null).to.deep.equal({ q: 'residency', n: 3 });
    expect(final.model).to.equal('alpha-sonnet-5');
    const rows = await waitForLedger(gw, (r) => r.some((x) => x.input_tokens === 70));
    expect(rows.find((x) => x.input_tokens === 70)).to.deep.include({ output_tokens: 33, cache_read_input_tokens: 1000 });
  });

  it('does not leak Bedrock\'s invocation metrics into the vendor stream', async function () {
    fake.enqueue({ content: [{ type: 'text', text: 'short' }] });
    const res = await fetch(gw.url('/v1/messages'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key.key },
      body: JSON.stringify({ ...hello(), stream: true }),
    });
    const text = await res.text();
    expect(text).to.contain('event: message_stop\ndata: {"type":"message_stop"}\n\n');
    expect(text).to.not.contain('invocationMetrics');
  });

  it('turns an exception frame into event: error, and Bedrock HTTP errors into the vendor table', async function () {
    fake.enqueue({ content: [{ type: 'text', text: 'x'.repeat(200) }], chunkSize: 10, errorMidStream: { afterDeltas: 3, type: 'throttlingException', message: 'Too many tokens' } });
    const err = await sdk().messages.stream(hello()).finalMessage().catch((e: unknown) => e);
    expect(String(err)).to.contain('overloaded_error');
    // Errors before the answer on a uk key (one route): the route's own failure is the answer (an eu key's next
    // route would take it: failover.test.ts).
    const one = hello('alpha-sonnet-4-6');
    fake.enqueue({ errorBefore: { status: 429, type: 'ThrottlingException', message: 'Rate exceeded' } });
    expect(await sdk(uk).messages.create(one).catch((e: unknown) => e)).to.be.instanceOf(Anthropic.OverloadedError);
    fake.enqueue({ errorBefore: { status: 400, type: 'ValidationException', message: 'max_tokens too large' } });
    const bad = (await sdk(uk).messages.create(one).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(bad.status).to.equal(400);
    expect(bad.message).to.contain('max_tokens too large');
    fake.enqueue({ errorBefore: { status: 500, type: 'InternalServerException' } });
    expect(((await sdk(uk).messages.create(one).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>).status).to.equal(502);
  });

  it('keeps Bedrock error text out of the logs, and passes on only a validation message', async function () {
    const quoted = 'you wrote: jane.quoted.secret@example.com';
    const logLines = (): string => gw.proxiesRunning.flatMap((p) => p.output).join('\n');
    const before = logLines().length;
    const one = hello('alpha-sonnet-4-6'); // a uk key's one route: its failure is the answer
    fake.enqueue({ errorBefore: { status: 500, type: 'InternalServerException', message: quoted } });
    const e500 = (await sdk(uk).messages.create(one).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(e500.status).to.equal(502);
    expect(e500.message).to.not.contain('jane.quoted');
    fake.enqueue({ errorBefore: { status: 429, type: 'ThrottlingException', message: quoted } });
    expect(String(await sdk(uk).messages.create(one).catch((e: unknown) => e))).to.not.contain('jane.quoted');
    fake.enqueue({ content: [{ type: 'text', text: 'x'.repeat(200) }], chunkSize: 10, errorMidStream: { afterDeltas: 3, type: 'internalServerException', message: quoted } });
    const mid = await sdk().messages.stream(hello()).finalMessage().catch((e: unknown) => e);
    expect(String(mid)).to.contain('api_error').and.not.contain('jane.quoted');
    fake.enqueue({ errorBefore: { status: 400, type: 'ValidationException', message: quoted } });
    const bad = (await sdk(uk).messages.create(one).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(bad.status).to.equal(400);
    expect(bad.message).to.contain(quoted);
    await sleep(200);
    const logs = logLines().slice(before);
    expect(logs).to.contain('upstream_failed');
    expect(logs).to.not.contain('jane.quoted');
  });

  it('keeps a uk key in London with the in-region model id', async function () {
    fake.setBehaviour({});
    await sdk(uk).messages.create(hello('alpha-sonnet-4-6'));
    await sdk(uk).messages.stream(hello('alpha-opus-4-6')).finalMessage();
    expect(fake.requests.map((r) => [r.region, r.modelId])).to.deep.equal([
      ['eu-west-2', 'anthropic.alpha-sonnet-4-6-v1:0'],
      ['eu-west-2', 'anthropic.alpha-opus-4-6-v1:0'],
    ]);
    expect(fake.requests.every((r) => r.signatureValid)).to.equal(true);
    fake.setBehaviour(null);
  });

  it('answers 502 when Bedrock refuses the gateway\'s signature', async function () {
    const wrong = await startBedrockFake({ credentials: { ...CREDENTIALS, secretAccessKey: 'not-the-secret' } });
    const own = await new TestGateway({
      env: bedrockGatewayEnv(wrong.url, control.url, CREDENTIALS),
    }).start();
    try {
      await waitReady(own);
      const k = await createKey(own, { env: 'live' });
      const err = (await new Anthropic({ apiKey: k.key, baseURL: own.baseURL, maxRetries: 0 }).messages.create(hello()).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
      expect(err.status).to.equal(502);
      expect(wrong.requests[0]?.signatureValid).to.equal(false);
    } finally {
      await own.stop();
      await wrong.close();
    }
  });
});
