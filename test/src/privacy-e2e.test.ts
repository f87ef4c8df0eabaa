import { expect } from 'chai';
import Anthropic from '@anthropic-ai/sdk';
import { startMessagesFake, type MessagesFake } from './fakes/index.js';
import { request } from 'node:http';
import { TestGateway, createKey, type CreatedKey } from './harness/gateway.js';
import { waitForLedger } from './harness/ledger.js';

const EMAIL = 'jane.doe@example.co.uk';
const PHONE = '+44 20 7946 0958';
const NINO = 'AB 12 34 56 C'; // QQ… is HMRC's never-issued example prefix, rightly not detected
const IBAN = 'GB82 WEST 1234 5698 7654 32';
const PROMPT = `Please email ${EMAIL} or call ${PHONE}. NI number ${NINO}, pay into ${IBAN}.`;

const textOf = (m: Anthropic.Message) => m.content.map((b) => (b.type === 'text' ? b.text : '')).join('');

describe('privacy modes end to end', function () {
  this.timeout(30_000);
  let gw: TestGateway;
  let fake: MessagesFake;
  const keys: Record<string, CreatedKey> = {};

  before(async function () {
    fake = await startMessagesFake({ apiKey: 'up' });
    gw = await new TestGateway({ env: { UPSTREAM_URL: `${fake.url}/{region}/v1`, UPSTREAM_API_KEY: 'up' } }).start();
    const first = await createKey(gw, { privacy: 'off' });
    keys['off'] = first;
    for (const mode of ['flag', 'redact', 'tokenise']) keys[mode] = await createKey(gw, { account: first.account_id, privacy: mode });
    for (const mode of ['off', 'redact', 'tokenise']) keys[`live-${mode}`] = await createKey(gw, { account: first.account_id, privacy: mode, env: 'live' });
  });
  after(async () => {
    await gw.stop();
    await fake.close();
  });
  beforeEach(() => fake.reset());

  const sdk = (name: string) => new Anthropic({ apiKey: keys[name]!.key, baseURL: gw.baseURL, maxRetries: 0 });
  const ask = (content: string) => ({ model: 'alpha-sonnet-5', max_tokens: 200, messages: [{ role: 'user' as const, content }] });

  it('off: forwards as is and sends no privacy headers', async function () {
    const { data, response } = await sdk('off').messages.create(ask(PROMPT)).withResponse();
    expect(textOf(data)).to.contain(PROMPT);
    expect(response.headers.get('x-gateway-privacy')).to.equal(null);
    expect(response.headers.get('x-gateway-pii')).to.equal(null);
  });

  it('flag: forwards unchanged and reports what it found', async function () {
    const { data, response } = await sdk('flag').messages.create(ask(PROMPT)).withResponse();
    expect(textOf(data)).to.contain(PROMPT);
    expect(response.headers.get('x-gateway-privacy')).to.equal('flag');
    expect(response.headers.get('x-gateway-pii')).to.equal('EMAIL=1,PHONE=1,UK_NINO=1,IBAN=1');
  });

  it('flag: an empty X-Gateway-PII when nothing is found', async function () {
    const { response } = await sdk('flag').messages.create(ask('Nothing personal here, order #12345678.')).withResponse();
    expect(response.headers.get('x-gateway-privacy')).to.equal('flag');
    expect(response.headers.get('x-gateway-pii')).to.equal('');
  });

  it('redact: the stub echoes what was forwarded, with every value replaced', async function () {
    const { data, response } = await sdk('redact').messages.create(ask(PROMPT)).withResponse();
    const text = textOf(data);
    expect(text).to.contain('[REDACTED_EMAIL]').and.contain('[REDACTED_PHONE]').and.contain('[REDACTED_UK_NINO]').and.contain('[REDACTED_IBAN]');
    for (const v of [EMAIL, PHONE, NINO, IBAN]) expect(text).to.not.contain(v);
    expect(response.headers.get('x-gateway-privacy')).to.equal('redact');
  });

  it('tokenise: the round trip restores the originals, streamed (tokens split across deltas) or not', async function () {
    const whole = await sdk('tokenise').messages.create(ask(PROMPT));
    expect(textOf(whole)).to.equal(`This is a test response from alpha-sonnet-5. You said: ${PROMPT}`);
    // slow_stream cuts the text into 25 pieces by characters, so tokens straddle deltas
    const stream = sdk('tokenise').messages.stream(ask(PROMPT), { headers: { 'x-gateway-test-scenario': 'slow_stream' } });
    const deltas: string[] = [];
    stream.on('text', (t) => deltas.push(t));
    const final = await stream.finalMessage();
    expect(deltas.join('')).to.equal(textOf(whole));
    expect(textOf(final)).to.equal(textOf(whole));
    expect(deltas.some((d) => d.includes('['))).to.equal(false);
  });

  it('redact on a live key: nothing personal reaches the upstream, images untouched', async function () {
    const image = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'iVBORw0KGgoAAAANSUhEUg==' } };
    await sdk('live-redact').messages.create({
      model: 'alpha-sonnet-5',
      max_tokens: 100,
      system: `Contact for escalations: ${EMAIL}`,
      messages: [
        { role: 'user', content: [{ type: 'text', text: `Call me on ${PHONE}` }, image] },
        // an earlier turn's tool call, as the client sends it back: restored values in its input must not leak
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'account', who: [EMAIL] } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: `IBAN on file: ${IBAN}` }] },
      ],
    });
    const forwarded = fake.requests[0]?.rawBody ?? '';
    for (const v of [EMAIL, PHONE, IBAN, EMAIL.split('@')[0] as string]) expect(forwarded).to.not.contain(v);
    expect(forwarded).to.contain('[REDACTED_EMAIL]').and.contain('[REDACTED_PHONE]').and.contain('[REDACTED_IBAN]');
    expect(forwarded).to.contain('iVBORw0KGgoAAAANSUhEUg==');
  });

  it('tokenise on a live key: tokens upstream, originals back in text and tool input (valid JSON), streamed and not', async function () {
    fake.setBehaviour((req) => {
      const sent = JSON.stringify(req.body);
      // the upstream only ever sees tokens; it answers with them, in a text block and inside tool input
      expect(sent).to.not.contain(EMAIL);
      expect(sent).to.contain('[EMAIL_1]').and.contain('[PHONE_1]');
      return {
        content: [
          { type: 'text', text: 'I will email [EMAIL_1] and then ring [PHONE_1] today.' },
          { type: 'tool_use', name: 'send_email', input: { to: '[EMAIL_1]', note: 'cc [EMAIL_1], call "[PHONE_1]"' } },
        ],
        chunkSize: 3,
      };
    });
    const prompt = `Write to ${EMAIL}, phone ${PHONE}; again: ${EMAIL}.`;
    const whole = await sdk('live-tokenise').messages.create(ask(prompt));
    const streamed = await sdk('live-tokenise').messages.stream(ask(prompt)).finalMessage();
    for (const m of [whole, streamed]) {
      expect(textOf(m)).to.equal(`I will email ${EMAIL} and then ring ${PHONE} today.`);
      const tool = m.content.find((b) => b.type === 'tool_use');
      expect(tool?.type === 'tool_use' ? tool.input : null).to.deep.equal({ to: EMAIL, note: `cc ${EMAIL}, call "${PHONE}"` });
    }
    expect(fake.requests).to.have.length(2);
    for (const r of fake.requests) expect(r.rawBody).to.not.contain(EMAIL).and.not.contain(PHONE);
    fake.setBehaviour(null);
  });

  it('names and street addresses: flagged, redacted before the upstream, tokenised and restored (SDK, live keys)', async function () {
    const NAME = "Siobhan O'Brien";
    const ADDRESS = '14 Acacia Avenue';
    const prompt = `Please send the contract to ${NAME}, ${ADDRESS}, Leeds. Dear Herr Schröder, thanks.`;
    const flagged = await sdk('flag').messages.create(ask(prompt)).withResponse();
    expect(flagged.response.headers.get('x-gateway-pii')).to.equal('PERSON=2,STREET_ADDRESS=1');

    await sdk('live-redact').messages.create(ask(prompt));
    const redacted = fake.requests[0]?.rawBody ?? '';
    expect(redacted).to.not.contain('Siobhan').and.not.contain('Acacia').and.not.contain('Schröder');
    expect(redacted).to.contain('to [REDACTED_PERSON], [REDACTED_STREET_ADDRESS], Leeds. Dear Herr [REDACTED_PERSON], thanks.');

    fake.setBehaviour(() => ({ content: [{ type: 'text', text: 'Sent to [PERSON_1] at [STREET_ADDRESS_1]; cc [PERSON_2].' }], chunkSize: 2 }));
    const whole = await sdk('live-tokenise').messages.create(ask(prompt));
    const streamed = await sdk('live-tokenise').messages.stream(ask(prompt)).finalMessage();
    for (const m of [whole, streamed]) expect(textOf(m)).to.equal(`Sent to ${NAME} at ${ADDRESS}; cc Schröder.`);
    for (const r of fake.requests.slice(1)) {
      expect(r.rawBody).to.not.contain('Siobhan').and.not.contain('Acacia');
      expect(r.rawBody).to.contain('[PERSON_1]').and.contain('[STREET_ADDRESS_1]');
    }
    fake.setBehaviour(null);
  });

  it('never writes a detected value or a key to the logs, and counts detections in metrics', async function () {
    await sdk('flag').messages.create(ask(PROMPT));
    const logs = [...gw.policy.output, ...gw.proxiesRunning.flatMap((p) => p.output)].join('\n');
    for (const v of [EMAIL, PHONE, NINO, IBAN]) expect(logs).to.not.contain(v);
    for (const k of Object.values(keys)) expect(logs).to.not.contain(k.key);
    const port = gw.proxiesRunning[0]?.lines.find((l) => l.msg === 'proxy listening')?.['metrics_port'];
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(metrics).to.match(/gateway_pii_detections_total\{type="EMAIL",mode="flag"[^}]*\} [1-9]/);
    expect(metrics).to.not.contain(EMAIL);
  });

  it('scans a large request (in the detector threads) completely, and refuses more text than any context holds', async function () {
    const unit = '{"id": 1234567890, "ts": "2026-11-22T01:02:03Z", "ip": "81.2.69.160", "mail": "a.b@example.org"}, ';
    const n = Math.floor(3_000_000 / unit.length);
    const { response } = await sdk('tokenise').messages.create({ ...ask(unit.repeat(n)), max_tokens: 5 }).withResponse();
    expect(response.headers.get('x-gateway-pii')).to.equal(`EMAIL=${n},IP_ADDRESS=${n}`);

    const usage = async () => ((await (await fetch(gw.url('/v1/usage'), { headers: { 'x-api-key': keys['redact']!.key } })).json()) as { rate_limit: { remaining: number } }).rate_limit.remaining;
    const before = await usage();
    const tooMuch = await sdk('redact').messages.create({ ...ask('x'.repeat(4 * 1024 * 1024 + 1)), max_tokens: 5 }).catch((e: unknown) => e);
    expect(tooMuch).to.be.instanceOf(Anthropic.BadRequestError);
    expect((tooMuch as Error).message).to.contain('prompt is too long');
    // refused before the decision: nothing counted
    expect(await usage()).to.equal(before);
  });

  it('neither forwards nor bills a large request whose client left while it was being scanned', async function () {
    const unit = '{"id": 1234567890, "mail": "a.b@example.org", "ip": "81.2.69.160"}, ';
    const body = JSON.stringify({ model: 'alpha-sonnet-5', max_tokens: 100, messages: [{ role: 'user', content: unit.repeat(Math.floor(3_500_000 / unit.length)) }] });
    await new Promise<void>((resolve) => {
      const req = request(gw.url('/v1/messages'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': keys['live-tokenise']!.key, 'content-length': String(Buffer.byteLength(body)) },
      });
      req.on('error', () => resolve());
      req.on('response', () => resolve());
      req.end(body, () => setTimeout(() => req.destroy(), 20));
    });
    const rows = await waitForLedger(gw, (r) => r.some((x) => x.key_id === keys['live-tokenise']!.id && x.outcome === 'client_disconnect'));
    const row = rows.find((x) => x.key_id === keys['live-tokenise']!.id && x.outcome === 'client_disconnect');
    expect(row).to.deep.include({ input_tokens: 0, output_tokens: 0 });
    expect(fake.requests).to.have.length(0);
  });
});
