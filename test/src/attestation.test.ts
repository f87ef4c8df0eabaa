import { expect } from 'chai';
import Anthropic from '@anthropic-ai/sdk';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startMessagesFake, type MessagesFake, type RecordedRequest } from './fakes/index.js';
import { REPO_ROOT, TestGateway, createKey, type CreatedKey } from './harness/gateway.js';
import { sha256Hex, thumbprint, verifyIndependently, type Jwk } from './harness/attestation-verifier.js';
import { hashApiKey } from '@gateway/shared';

const UPSTREAM_KEY = 'upstream-secret-for-attestation';
const CATALOGUE_FILE = resolve(REPO_ROOT, 'policy/catalogue/catalogue.json');
const catalogue = JSON.parse(readFileSync(CATALOGUE_FILE, 'utf8')) as {
  models: Array<{ id: string; routes: Record<string, Array<{ upstream_model: string; call_region: string; processing_regions: string[] }>> }>;
};
const routeOf = (model: string, tier: string) => catalogue.models.find((m) => m.id === model)?.routes[tier]?.[0]; // the first route serves while it is healthy
// The shipped person-name model, as the committed training manifest records it: what every statement must name.
const NAMES_MODEL_SHA256 = (JSON.parse(readFileSync(resolve(REPO_ROOT, 'names-model/manifest.json'), 'utf8')) as { model: { sha256: string } }).model.sha256;

const CONTRACT_FIELDS = [
  'request_id', 'account_id', 'key_id', 'environment', 'status', 'residency', 'call_region', 'processing_regions',
  'regions_basis', 'evidence_at', 'evidence_sha256', 'upstream_model', 'catalogue_sha256', 'privacy_mode',
  'pii_counts', 'forwarded_body_sha256', 'iat', 'attempts', 'platform', 'names_model_sha256',
];

describe('x-gateway-attestation: a signed statement on every message response after authentication', function () {
  this.timeout(30_000);
  let fake: MessagesFake;
  let gw: TestGateway;
  let live: CreatedKey;
  let redact: CreatedKey;
  let test: CreatedKey;
  let limited: CreatedKey;
  let jwks: { keys: Jwk[] };

  before(async function () {
    fake = await startMessagesFake({ apiKey: UPSTREAM_KEY });
    gw = await new TestGateway({ env: { UPSTREAM_URL: `${fake.url}/{region}/v1`, UPSTREAM_API_KEY: UPSTREAM_KEY, UPSTREAM_TIMEOUT_MS: '2000' } }).start();
    live = await createKey(gw, { env: 'live', residency: 'eu', models: 'alpha-sonnet-5,alpha-sonnet-4-6' });
    redact = await createKey(gw, { env: 'live', residency: 'uk', privacy: 'redact', account: live.account_id });
    test = await createKey(gw, { env: 'test', residency: 'eu', privacy: 'tokenise', account: live.account_id });
    limited = await createKey(gw, { env: 'test', plan: { name: 'one-a-minute', rpm: 1 } });
    const res = await fetch(gw.url('/v1/attestation/keys'));
    jwks = (await res.json()) as { keys: Jwk[] };
  });
  after(async () => {
    await gw.stop();
    await fake.close();
  });
  beforeEach(() => fake.reset());

  const post = (k: CreatedKey, body: unknown, path = '/v1/messages', headers: Record<string, string> = {}) =>
    fetch(gw.url(path), { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': k.key, ...headers }, body: JSON.stringify(body) });

  /** The attestation of a response, verified independently; its payload. */
  function attested(res: Response): Record<string, unknown> {
    const jws = res.headers.get('x-gateway-attestation');
    expect(jws, `no attestation on a ${res.status}`).to.be.a('string');
    const v = verifyIndependently(jws as string, jwks);
    if (!v.ok) throw new Error(`attestation does not verify: ${v.reason}`);
    expect(v.header).to.deep.equal({ alg: 'EdDSA', kid: jwks.keys[0]?.kid });
    expect(Object.keys(v.payload)).to.deep.equal(CONTRACT_FIELDS);
    expect(v.payload['request_id']).to.equal(res.headers.get('request-id'));
    expect(v.payload['status']).to.equal(res.status);
    expect(v.payload['catalogue_sha256']).to.equal(sha256Hex(readFileSync(CATALOGUE_FILE)));
    expect(v.payload['names_model_sha256']).to.equal(NAMES_MODEL_SHA256);
    expect(Math.abs((v.payload['iat'] as number) - Date.now() / 1000)).to.be.lessThan(30);
    return v.payload;
  }

  const identity = (k: CreatedKey) => ({ account_id: k.account_id, key_id: k.id, environment: k.environment, residency: k.residency, privacy_mode: k.privacy_mode });
  const nothingForwarded = { call_region: null, processing_regions: [], regions_basis: 'declared', evidence_at: null, evidence_sha256: null, upstream_model: null, pii_counts: {}, forwarded_body_sha256: null };
  const pick = (p: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, p[k]]));

  it('publishes its keys as a JWKS of Ed25519 keys, without an API key, each kid the key\'s RFC 7638 thumbprint', async function () {
    const res = await fetch(gw.url('/v1/attestation/keys'));
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { keys: Jwk[] };
    expect(body.keys).to.have.length(1);
    for (const k of body.keys) {
      expect(k).to.include({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
      expect(Buffer.from(k.x, 'base64url')).to.have.length(32);
      expect(k.kid).to.equal(thumbprint(k));
      expect(Object.keys(k)).to.not.include('d');
    }
  });

  it('attests a live message: ids, tier, route, catalogue, privacy and the digest of exactly what the upstream received', async function () {
    const body = { model: 'alpha-sonnet-5', max_tokens: 50, messages: [{ role: 'user', content: 'Where does this run?' }] };
    const res = await post(live, body);
    expect(res.status).to.equal(200);
    await res.json();
    const p = attested(res);
    const route = routeOf('alpha-sonnet-5', 'eu');
    const seen = fake.requests[0] as RecordedRequest;
    expect(pick(p, ['account_id', 'key_id', 'environment', 'residency', 'privacy_mode'])).to.deep.equal(identity(live));
    expect(p['call_region']).to.equal(route?.call_region).and.to.equal(seen.region);
    expect(p['processing_regions']).to.deep.equal(route?.processing_regions);
    expect((p['processing_regions'] as string[]).join(',')).to.equal(res.headers.get('x-gateway-regions'));
    expect(p['upstream_model']).to.equal(route?.upstream_model).and.to.equal(res.headers.get('x-gateway-model'));
    expect(p).to.include({ regions_basis: 'declared', evidence_at: null, evidence_sha256: null });
    expect(p['pii_counts']).to.deep.equal({});
    expect(p['forwarded_body_sha256']).to.equal(sha256Hex(seen.rawBody));
  });

  it('attests a live stream in its response headers, before the first event', async function () {
    const res = await post(live, { model: 'alpha-sonnet-5', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'Stream it' }] });
    expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
    const p = attested(res);
    const text = await res.text();
    expect(text).to.contain('event: message_stop');
    expect(p['forwarded_body_sha256']).to.equal(sha256Hex((fake.requests[0] as RecordedRequest).rawBody));
    expect(p['status']).to.equal(200);
  });

  it('counts personal data found and never carries a value; the digest is of the redacted body that left', async function () {
    const email = 'jane.doe@example.co.uk';
    const res = await post(redact, { model: 'alpha-sonnet-4-6', max_tokens: 50, messages: [{ role: 'user', content: `Mail ${email} about it` }] });
    expect(res.status).to.equal(200);
    const jws = res.headers.get('x-gateway-attestation') as string;
    const p = attested(res);
    const seen = fake.requests[0] as RecordedRequest;
    expect(seen.rawBody).to.not.contain(email);
    expect(p).to.include({ privacy_mode: 'redact', residency: 'uk', call_region: 'eu-west-2' });
    expect(p['processing_regions']).to.deep.equal(['eu-west-2']);
    expect(p['pii_counts']).to.deep.equal({ EMAIL: 1 });
    expect(p['forwarded_body_sha256']).to.equal(sha256Hex(seen.rawBody));
    // Nothing secret or personal anywhere in the token (the payload is base64url: decode it to look).
    const decoded = jws.split('.').map((s) => Buffer.from(s, 'base64url').toString('latin1')).join('\n');
    for (const secret of [email, redact.key, hashApiKey(redact.key), UPSTREAM_KEY, 'Mail ']) {
      expect(decoded).to.not.contain(secret);
      expect(jws).to.not.contain(secret);
    }
  });

  it('attests an upstream error with its status, after the body was forwarded', async function () {
    // Every route of the eu tier busy (one would otherwise take it over): the last failure is the answer.
    fake.enqueue({ errorBefore: { status: 529 } }, { errorBefore: { status: 529 } }, { errorBefore: { status: 529 } });
    const res = await post(live, { model: 'alpha-sonnet-5', max_tokens: 50, messages: [{ role: 'user', content: 'Busy?' }] });
    expect(res.status).to.equal(529);
    expect(fake.requests.map((r) => r.region)).to.deep.equal(['eu-central-1', 'eu-west-1', 'eu-west-3']);
    const p = attested(res);
    expect(p['status']).to.equal(529);
    expect(p['upstream_model']).to.equal(routeOf('alpha-sonnet-5', 'eu')?.upstream_model);
    expect(p['forwarded_body_sha256']).to.equal(sha256Hex((fake.requests[2] as RecordedRequest).rawBody));
    expect((p['attempts'] as Array<{ outcome: string }>).map((a) => a.outcome)).to.deep.equal(['unavailable', 'unavailable', 'unavailable']);
    expect(p['platform']).to.equal(null);
  });

  it('attests refusals after authentication (400, 403, 404, 429) with nothing forwarded, and never a 401', async function () {
    const hello = { max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
    const cases: Array<[CreatedKey, unknown, number]> = [
      [live, { ...hello, model: 'alpha-sonnet-5', max_tokens: 'ten' }, 400],
      [live, { ...hello, model: 'alpha-opus-5' }, 403],
      [live, { ...hello, model: 'alpha-fable-5' }, 404],
      [redact, { ...hello, model: 'alpha-opus-5' }, 403],
    ];
    for (const [k, body, status] of cases) {
      const res = await post(k, body);
      expect(res.status).to.equal(status);
      const p = attested(res);
      expect(pick(p, ['account_id', 'key_id', 'environment', 'residency', 'privacy_mode'])).to.deep.equal(identity(k));
      expect(pick(p, Object.keys(nothingForwarded))).to.deep.equal(nothingForwarded);
    }
    const first = await post(limited, { ...hello, model: 'alpha-sonnet-5' });
    expect(first.status).to.equal(200);
    const second = await post(limited, { ...hello, model: 'alpha-sonnet-5' });
    expect(second.status).to.equal(429);
    expect(attested(second)).to.include({ status: 429, key_id: limited.id, forwarded_body_sha256: null });
    expect(fake.requests).to.have.length(0);

    const unknown = await post({ ...live, key: `gw_live_${'x'.repeat(32)}` }, { ...hello, model: 'alpha-sonnet-5' });
    expect(unknown.status).to.equal(401);
    expect(unknown.headers.get('x-gateway-attestation')).to.equal(null);
    const malformed = await post({ ...live, key: 'not-a-key' }, { ...hello, model: 'alpha-sonnet-5' });
    expect(malformed.headers.get('x-gateway-attestation')).to.equal(null);
  });

  it('attests test keys as environment test, the digest being of the body a live call would have sent', async function () {
    const body = { model: 'alpha-sonnet-5', max_tokens: 50, messages: [{ role: 'user', content: 'Same body, two keys' }] };
    const viaLive = await post(live, body);
    await viaLive.json();
    const res = await post(test, body);
    expect(res.status).to.equal(200);
    const p = attested(res);
    expect(pick(p, ['account_id', 'key_id', 'environment', 'residency', 'privacy_mode'])).to.deep.equal(identity(test));
    expect(p['environment']).to.equal('test');
    expect(p['upstream_model']).to.equal(res.headers.get('x-gateway-model'));
    expect(fake.requests).to.have.length(1);
    expect(p['forwarded_body_sha256']).to.equal(sha256Hex((fake.requests[0] as RecordedRequest).rawBody));

    const scenario = await post(test, body, '/v1/messages', { 'x-gateway-test-scenario': 'overloaded_error' });
    expect(scenario.status).to.equal(529);
    expect(attested(scenario)).to.include({ status: 529, environment: 'test', forwarded_body_sha256: p['forwarded_body_sha256'] });
  });

  it('attests count_tokens, live (the digest of what the upstream counted) and refused', async function () {
    const res = await post(live, { model: 'alpha-sonnet-5', messages: [{ role: 'user', content: 'Count me' }] }, '/v1/messages/count_tokens');
    expect(res.status).to.equal(200);
    const p = attested(res);
    const seen = fake.requests[0] as RecordedRequest;
    expect(seen.path).to.match(/count_tokens$/);
    expect(p).to.include({ key_id: live.id, upstream_model: routeOf('alpha-sonnet-5', 'eu')?.upstream_model, forwarded_body_sha256: sha256Hex(seen.rawBody) });
    const refused = await post(live, { model: 'alpha-opus-5', messages: [{ role: 'user', content: 'x' }] }, '/v1/messages/count_tokens');
    expect(refused.status).to.equal(403);
    expect(attested(refused)).to.include({ status: 403, forwarded_body_sha256: null });
  });

  it('fails verification when any byte of the attestation is changed', async function () {
    const res = await post(test, { model: 'alpha-sonnet-5', max_tokens: 5, messages: [{ role: 'user', content: 'tamper' }] });
    const jws = res.headers.get('x-gateway-attestation') as string;
    expect(verifyIndependently(jws, jwks).ok).to.equal(true);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < jws.length; i += 1) {
      if (jws[i] === '.') continue;
      for (const offset of [1, 17, 32]) {
        const c = alphabet[(alphabet.indexOf(jws[i] as string) + offset) % 64] as string;
        const changed = `${jws.slice(0, i)}${c}${jws.slice(i + 1)}`;
        expect(verifyIndependently(changed, jwks).ok, `position ${i} changed to ${c}`).to.equal(false);
      }
    }
  });

  it('is on the official SDK\'s responses (withResponse), streamed and not', async function () {
    const sdk = new Anthropic({ apiKey: live.key, baseURL: gw.baseURL, maxRetries: 0 });
    const { response } = await sdk.messages
      .create({ model: 'alpha-sonnet-5', max_tokens: 20, messages: [{ role: 'user', content: 'SDK, plain' }] })
      .withResponse();
    const plain = verifyIndependently(response.headers.get('x-gateway-attestation') ?? '', jwks);
    expect(plain.ok && plain.payload['request_id']).to.equal(response.headers.get('request-id'));
    expect(plain.ok && plain.payload['forwarded_body_sha256']).to.equal(sha256Hex((fake.requests[0] as RecordedRequest).rawBody));

    const { data: stream, response: streamed } = await sdk.messages
      .create({ model: 'alpha-sonnet-5', max_tokens: 20, stream: true, messages: [{ role: 'user', content: 'SDK, streamed' }] })
      .withResponse();
    let events = 0;
    for await (const _event of stream) events += 1;
    expect(events).to.be.greaterThan(3);
    const v = verifyIndependently(streamed.headers.get('x-gateway-attestation') ?? '', jwks);
    expect(v.ok && v.payload['request_id']).to.equal(streamed.headers.get('request-id'));
    expect(v.ok && v.payload['forwarded_body_sha256']).to.equal(sha256Hex((fake.requests[1] as RecordedRequest).rawBody));
  });
});
