import { expect } from 'chai';
import Anthropic from '@anthropic-ai/sdk';
import AnthropicLegacy from 'anthropic-sdk-0x';
import { TestGateway, createKey, type CreatedKey } from './harness/gateway.js';

describe('the official SDK against the gateway (test keys)', function () {
  let gw: TestGateway;
  let eu: CreatedKey;
  let uk: CreatedKey;

  before(async function () {
    gw = await new TestGateway().start();
    eu = await createKey(gw, { residency: 'eu' });
    uk = await createKey(gw, { residency: 'uk', account: eu.account_id });
  });
  after(async () => gw.stop());

  const sdk1 = (key: string) => new Anthropic({ apiKey: key, baseURL: gw.baseURL, maxRetries: 0 });
  const sdk0 = (key: string) => new AnthropicLegacy({ apiKey: key, baseURL: gw.baseURL, maxRetries: 0 });

  it('creates a message with SDK 1.x (authorization: Bearer, anthropic-version 2026-10-21)', async function () {
    const { data, response } = await sdk1(eu.key)
      .messages.create({ model: 'alpha-sonnet-5', max_tokens: 100, messages: [{ role: 'user', content: 'Hello there' }] })
      .withResponse();
    expect(data.id).to.match(/^msg_/);
    expect(data.type).to.equal('message');
    expect(data.role).to.equal('assistant');
    expect(data.model).to.equal('alpha-sonnet-5');
    expect(data.stop_reason).to.equal('end_turn');
    expect(data.stop_sequence).to.equal(null);
    const block = data.content[0];
    expect(block?.type).to.equal('text');
    expect(block?.type === 'text' ? block.text : '').to.equal('This is a test response from alpha-sonnet-5. You said: Hello there');
    expect(data.usage.input_tokens).to.be.greaterThan(0);
    expect(data.usage.output_tokens).to.equal(11);
    expect(data.usage.cache_creation_input_tokens).to.equal(0);
    expect(data.usage.cache_read_input_tokens).to.equal(0);
    expect(response.headers.get('request-id')).to.match(/^req_[A-Za-z0-9]{24,}$/);
    expect(response.headers.get('x-gateway-residency')).to.equal('eu');
    expect(response.headers.get('x-gateway-model')).to.equal('eu.anthropic.alpha-sonnet-5-v1:0');
    expect(response.headers.get('x-gateway-regions')?.split(',')).to.have.length(7);
    expect(response.headers.get('compat-ratelimit-requests-limit')).to.equal('1000');
    expect(Number(response.headers.get('compat-ratelimit-requests-remaining'))).to.be.lessThan(1000);
    expect(response.headers.get('compat-ratelimit-requests-reset')).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\+00:00$/);
  });

  it('creates a message with SDK 0.x (x-api-key, anthropic-version 2023-06-01)', async function () {
    const msg = await sdk0(eu.key).messages.create({
      model: 'alpha-haiku-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Bonjour' }],
    });
    expect(msg.model).to.equal('alpha-haiku-4-5');
    expect(msg.content[0]?.type === 'text' ? msg.content[0].text : '').to.contain('You said: Bonjour');
  });

  it('is deterministic: same request, same content and usage, fresh id', async function () {
    const req = { model: 'alpha-opus-5', max_tokens: 50, messages: [{ role: 'user' as const, content: 'Same again' }] };
    const a = await sdk1(eu.key).messages.create(req);
    const b = await sdk1(eu.key).messages.create(req);
    expect(a.content).to.deep.equal(b.content);
    expect(a.usage).to.deep.equal(b.usage);
    expect(a.id).to.not.equal(b.id);
  });

  it('cuts the text at max_tokens and says so', async function () {
    const msg = await sdk1(eu.key).messages.create({
      model: 'alpha-opus-5',
      max_tokens: 3,
      messages: [{ role: 'user', content: 'a long message that will not fit' }],
    });
    expect(msg.stop_reason).to.equal('max_tokens');
    expect(msg.usage.output_tokens).to.equal(3);
    expect(msg.content[0]?.type === 'text' ? msg.content[0].text : '').to.equal('This is a ');
  });

  it('streams with messages.stream().finalMessage()', async function () {
    const stream = sdk1(eu.key).messages.stream({
      model: 'alpha-sonnet-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Stream this please' }],
    });
    const events: string[] = [];
    let text = '';
    stream.on('streamEvent', (e) => events.push(e.type));
    stream.on('text', (t) => (text += t));
    const final = await stream.finalMessage();
    expect(events[0]).to.equal('message_start');
    expect(events.at(-1)).to.equal('message_stop');
    expect(events.filter((e) => e === 'content_block_delta').length).to.be.greaterThan(1);
    expect(events).to.include.members(['content_block_start', 'content_block_stop', 'message_delta']);
    expect(text).to.equal('This is a test response from alpha-sonnet-5. You said: Stream this please');
    const block = final.content[0];
    expect(block?.type === 'text' ? block.text : '').to.equal(text);
    expect(final.stop_reason).to.equal('end_turn');
    expect(final.usage.output_tokens).to.equal(12);
  });

  it('streams identically to the non-streamed message', async function () {
    const req = { model: 'alpha-sonnet-5', max_tokens: 7, messages: [{ role: 'user' as const, content: 'one two three four five' }] };
    const whole = await sdk1(eu.key).messages.create(req);
    const streamed = await sdk1(eu.key).messages.stream(req).finalMessage();
    expect(streamed.content).to.deep.equal(whole.content);
    expect(streamed.stop_reason).to.equal(whole.stop_reason);
    expect(streamed.usage.output_tokens).to.equal(whole.usage.output_tokens);
    expect(streamed.usage.input_tokens).to.equal(whole.usage.input_tokens);
  });

  it('serves the beta route (?beta=true) like the plain one', async function () {
    const msg = await sdk1(eu.key).beta.messages.create({
      model: 'alpha-sonnet-5',
      max_tokens: 20,
      messages: [{ role: 'user', content: 'beta' }],
      betas: ['some-beta-2025-01-01'],
    });
    expect(msg.content[0]?.type === 'text' ? msg.content[0].text : '').to.contain('You said: beta');
  });

  it('lists every model an eu key can call, iterating models.list() to the end', async function () {
    const ids: string[] = [];
    for await (const m of sdk1(eu.key).models.list({ limit: 2 })) ids.push(m.id);
    expect(ids).to.deep.equal(['alpha-sonnet-4-6', 'alpha-opus-4-6', 'alpha-opus-5', 'alpha-sonnet-5', 'alpha-haiku-4-5']);
  });

  it('lists only the uk models for a uk key, with London as the processing region', async function () {
    const res = await fetch(gw.url('/v1/models'), { headers: { 'x-api-key': uk.key } });
    expect(res.status).to.equal(200);
    const body = (await res.json()) as {
      data: Array<Record<string, unknown>>;
      has_more: boolean;
      first_id: string;
      last_id: string;
      residency_tier: string;
      residency_tier_label: string;
    };
    expect(body.data.map((m) => m['id'])).to.deep.equal(['alpha-sonnet-4-6', 'alpha-opus-4-6']);
    expect(body.has_more).to.equal(false);
    expect(body.first_id).to.equal('alpha-sonnet-4-6');
    expect(body.last_id).to.equal('alpha-opus-4-6');
    expect(body.residency_tier).to.equal('uk');
    expect(body.residency_tier_label).to.equal('UK only (London)');
    const sonnet = body.data[0] as Record<string, unknown>;
    expect(sonnet).to.deep.include({
      type: 'model',
      id: 'alpha-sonnet-4-6',
      context_window: 200000,
      max_output_tokens: 64000,
      supports_vision: true,
      residency: 'uk',
      residency_label: 'UK only (London)',
      processing_regions: ['eu-west-2'],
    });
    expect(sonnet['pricing_gbp_per_million']).to.deep.equal({ input: 3.3, output: 16.5, cache_write: 4.15, cache_read: 0.33 });
  });

  it('retrieves one model, resolving a dated alias, and 404s a model the key cannot call', async function () {
    const m = await sdk1(uk.key).models.retrieve('alpha-opus-4-6-20260205');
    expect(m.id).to.equal('alpha-opus-4-6');
    const err = await sdk1(uk.key).models.retrieve('alpha-haiku-4-5').catch((e: unknown) => e);
    expect(err).to.be.instanceOf(Anthropic.NotFoundError);
  });

  it('routes a uk key calling alpha-sonnet-4-6 to London only', async function () {
    const { response } = await sdk1(uk.key)
      .messages.create({ model: 'alpha-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(response.headers.get('x-gateway-regions')).to.equal('eu-west-2');
    expect(response.headers.get('x-gateway-residency')).to.equal('uk');
    expect(response.headers.get('x-gateway-model')).to.equal('anthropic.alpha-sonnet-4-6-v1:0');
  });

  it('resolves dated aliases in messages and answers with the short alias', async function () {
    const msg = await sdk1(eu.key).messages.create({
      model: 'alpha-sonnet-5-20260930',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'dated' }],
    });
    expect(msg.model).to.equal('alpha-sonnet-5');
  });

  it('counts tokens for a test key', async function () {
    const r = await sdk1(eu.key).messages.countTokens({
      model: 'alpha-sonnet-5',
      messages: [{ role: 'user', content: 'x'.repeat(400) }],
    });
    expect(r.input_tokens).to.equal(100);
  });
});
