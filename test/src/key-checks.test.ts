import { expect } from 'chai';
import Anthropic from '@anthropic-ai/sdk';
import { openGatewayDatabase } from './harness/database.js';
import { TestGateway, createKey, type CreatedKey } from './harness/gateway.js';

const NOT_PERMITTED = 'This API key is not permitted to make this request.';

interface ErrorBody {
  type: string;
  error: { type: string; message: string };
  request_id: string;
}

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; headers: Headers; body: ErrorBody }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as ErrorBody };
}

const hello = (model = 'alpha-sonnet-4-6', extra: Record<string, unknown> = {}) => ({
  model,
  max_tokens: 16,
  messages: [{ role: 'user', content: 'hello' }],
  ...extra,
});

describe('key checks', function () {
  let gw: TestGateway;
  let key: CreatedKey;

  before(async function () {
    gw = await new TestGateway().start();
    key = await createKey(gw, { residency: 'eu' });
  });
  after(async () => gw.stop());

  const sdk = (apiKey: string, opts: Partial<ConstructorParameters<typeof Anthropic>[0]> = {}) =>
    new Anthropic({ apiKey, baseURL: gw.baseURL, maxRetries: 0, ...opts });

  describe('authentication (401)', function () {
    it('refuses a missing key', async function () {
      const r = await post(gw.url('/v1/messages'), {}, hello());
      expect(r.status).to.equal(401);
      expect(r.body.type).to.equal('error');
      expect(r.body.error.type).to.equal('authentication_error');
      expect(r.body.request_id).to.match(/^req_/);
      expect(r.headers.get('request-id')).to.equal(r.body.request_id);
      expect(r.headers.get('content-type')).to.match(/^application\/json/);
      expect(r.headers.get('compat-ratelimit-requests-limit')).to.equal(null);
    });

    it('refuses a malformed key through the SDK', async function () {
      const err = await sdk('sk-not-a-gateway-key').messages.create(hello() as never).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(Anthropic.AuthenticationError);
    });

    it('refuses a well-formed unknown key', async function () {
      const err = await sdk(`gw_test_${'A'.repeat(32)}`).messages.create(hello() as never).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(Anthropic.AuthenticationError);
      expect((err as InstanceType<typeof Anthropic.AuthenticationError>).error).to.deep.include({ type: 'error' });
    });

    it('uses authorization when both headers are sent', async function () {
      const good = await post(gw.url('/v1/messages'), { authorization: `Bearer ${key.key}`, 'x-api-key': 'junk' }, hello());
      expect(good.status).to.equal(200);
      const bad = await post(gw.url('/v1/messages'), { authorization: 'Bearer junk', 'x-api-key': key.key }, hello());
      expect(bad.status).to.equal(401);
    });

    it('accepts the key in either header alone', async function () {
      expect((await post(gw.url('/v1/messages'), { 'x-api-key': key.key }, hello())).status).to.equal(200);
      expect((await post(gw.url('/v1/messages'), { authorization: `Bearer ${key.key}` }, hello())).status).to.equal(200);
    });

    it('refuses an expired key, and accepts it until then', async function () {
      const soon = new Date(Date.now() + 1500).toISOString();
      const k = await createKey(gw, { account: key.account_id, expires: soon });
      expect((await post(gw.url('/v1/messages'), { 'x-api-key': k.key }, hello())).status).to.equal(200);
      await new Promise((r) => setTimeout(r, 1700));
      const r = await post(gw.url('/v1/messages'), { 'x-api-key': k.key }, hello());
      expect(r.status).to.equal(401);
      expect(r.body.error.type).to.equal('authentication_error');
    });

    it('refuses a revoked key', async function () {
      const k = await createKey(gw, { account: key.account_id });
      expect((await post(gw.url('/v1/messages'), { 'x-api-key': k.key }, hello())).status).to.equal(200);
      await gw.ctl('keys', 'revoke', k.id);
      await new Promise((r) => setTimeout(r, 1000));
      const err = await sdk(k.key).messages.create(hello() as never).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(Anthropic.AuthenticationError);
    });

    it('keeps both keys valid through a rotation until the old one is revoked', async function () {
      const old = await createKey(gw, { account: key.account_id, residency: 'uk', privacy: 'redact', models: 'alpha-sonnet-4-6' });
      const fresh = await gw.ctl<CreatedKey & { rotated_from: string }>('keys', 'rotate', old.id);
      expect(fresh.rotated_from).to.equal(old.id);
      expect(fresh).to.deep.include({ residency: 'uk', privacy_mode: 'redact', account_id: key.account_id });
      expect((await post(gw.url('/v1/messages'), { 'x-api-key': old.key }, hello())).status).to.equal(200);
      expect((await post(gw.url('/v1/messages'), { 'x-api-key': fresh.key }, hello())).status).to.equal(200);
      await gw.ctl('keys', 'revoke', old.id);
      await new Promise((r) => setTimeout(r, 1000));
      expect((await post(gw.url('/v1/messages'), { 'x-api-key': old.key }, hello())).status).to.equal(401);
      expect((await post(gw.url('/v1/messages'), { 'x-api-key': fresh.key }, hello())).status).to.equal(200);
    });
  });

  describe('source address (403)', function () {
    it('admits IPv4 callers inside allowed_ips (single address and CIDR)', async function () {
      for (const ips of ['127.0.0.1', '127.0.0.0/8', '10.0.0.0/8,127.0.0.1/32']) {
        const k = await createKey(gw, { account: key.account_id, ips });
        const r = await fetch(gw.url('/v1/messages'), { method: 'POST', headers: { 'x-api-key': k.key, 'content-type': 'application/json' }, body: JSON.stringify(hello()) });
        expect(r.status, ips).to.equal(200);
      }
    });

    it('admits IPv6 callers inside allowed_ips and refuses them outside', async function () {
      const v6 = await createKey(gw, { account: key.account_id, ips: '::1' });
      const v6cidr = await createKey(gw, { account: key.account_id, ips: '::/64' });
      const v4only = await createKey(gw, { account: key.account_id, ips: '127.0.0.1' });
      const at = (k: CreatedKey) => sdkAt(`http://[::1]:${gw.ports[0]}`, k.key).messages.create(hello() as never);
      expect((await at(v6)).type).to.equal('message');
      expect((await at(v6cidr)).type).to.equal('message');
      const err = await at(v4only).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(Anthropic.PermissionDeniedError);
    });

    it('refuses a caller outside allowed_ips with the same body as a model refusal', async function () {
      const ipKey = await createKey(gw, { account: key.account_id, ips: '10.1.2.0/24,2001:db8::/32' });
      const modelKey = await createKey(gw, { account: key.account_id, models: 'alpha-haiku-4-5' });
      const a = await post(gw.url('/v1/messages'), { 'x-api-key': ipKey.key }, hello());
      const b = await post(gw.url('/v1/messages'), { 'x-api-key': modelKey.key }, hello());
      expect(a.status).to.equal(403);
      expect(b.status).to.equal(403);
      const strip = (x: ErrorBody) => ({ ...x, request_id: '' });
      expect(strip(a.body)).to.deep.equal(strip(b.body));
      expect(a.body.error).to.deep.equal({ type: 'permission_error', message: NOT_PERMITTED });
      // an IP-refused key learns nothing else: not even its rate-limit position
      expect(a.headers.get('compat-ratelimit-requests-limit')).to.equal(null);
    });
  });

  describe('models and residency', function () {
    it('refuses a model outside the plan with permission_error', async function () {
      const k = await createKey(gw, { plan: { name: 'haiku-only', models: 'alpha-haiku-4-5' } });
      const r = await post(gw.url('/v1/messages'), { 'x-api-key': k.key }, hello('alpha-sonnet-5'));
      expect(r.status).to.equal(403);
      expect(r.body.error).to.deep.equal({ type: 'permission_error', message: NOT_PERMITTED });
      expect((await post(gw.url('/v1/messages'), { 'x-api-key': k.key }, hello('alpha-haiku-4-5'))).status).to.equal(200);
    });

    it('refuses a uk key calling alpha-haiku-4-5 with residency_unavailable', async function () {
      const uk = await createKey(gw, { account: key.account_id, residency: 'uk' });
      const err = await sdk(uk.key)
        .messages.create(hello('alpha-haiku-4-5') as never)
        .catch((e: unknown) => e);
      expect(err).to.be.instanceOf(Anthropic.PermissionDeniedError);
      const e = err as InstanceType<typeof Anthropic.PermissionDeniedError>;
      expect(e.status).to.equal(403);
      expect((e.error as ErrorBody).error.type).to.equal('residency_unavailable');
      expect((e.error as ErrorBody).error.message).to.contain('alpha-sonnet-4-6');
    });

    it('answers 404 for alpha-fable-5 and other unknown models', async function () {
      for (const model of ['alpha-fable-5', 'alpha-sonnet-4-6-2026130', 'alpha-sonnet-4-6-20261301']) {
        const r = await post(gw.url('/v1/messages'), { 'x-api-key': key.key }, hello(model));
        expect(r.status, model).to.equal(404);
        expect(r.body.error.type).to.equal('not_found_error');
      }
    });

    it('refuses a uk key on a plan that is uk-only from being made eu', async function () {
      await gw.ctl('plans', 'create', '--name', 'uk-plan', '--residency', 'uk', '--rpm', '10', '--concurrency', '2', '--allowance', '1000');
      const acct = await gw.ctl<{ id: string }>('accounts', 'create', '--name', 'UK Ltd', '--plan', 'uk-plan');
      const err = await gw
        .ctl('keys', 'create', '--account', acct.id, '--name', 'x', '--env', 'test', '--residency', 'eu', '--privacy', 'off')
        .catch((e: unknown) => e);
      expect(String(err)).to.contain('permits only uk keys');
    });
  });

  describe('plan changes never widen residency', function () {
    it('holds an eu key to London once its account moves to a uk-only plan', async function () {
      const k = await createKey(gw, { plan: { name: 'eu-first' }, residency: 'eu' });
      expect((await post(gw.url('/v1/messages'), { 'x-api-key': k.key }, hello('alpha-opus-5'))).status).to.equal(200);
      await gw.ctl('plans', 'create', '--name', 'uk-later', '--residency', 'uk', '--rpm', '100', '--concurrency', '5', '--allowance', '1000');
      await gw.ctl('accounts', 'update', k.account_id, '--plan', 'uk-later');
      await new Promise((r) => setTimeout(r, 600));
      const refused = await post(gw.url('/v1/messages'), { 'x-api-key': k.key }, hello('alpha-opus-5'));
      expect(refused.status).to.equal(403);
      expect(refused.body.error.type).to.equal('residency_unavailable');
      const london = await post(gw.url('/v1/messages'), { 'x-api-key': k.key }, hello('alpha-sonnet-4-6'));
      expect(london.status).to.equal(200);
      expect(london.headers.get('x-gateway-residency')).to.equal('uk');
      expect(london.headers.get('x-gateway-regions')).to.equal('eu-west-2');
    });
  });

  describe('a corrupt key row (as another tool might write)', function () {
    it('is refused on its own while every other key keeps working', async function () {
      const good = await createKey(gw, { account: key.account_id });
      const bad = await createKey(gw, { account: key.account_id, ips: '10.0.0.0/8' });
      const db = await openGatewayDatabase(gw);
      await db.run('UPDATE api_keys SET allowed_ips = ? WHERE id = ?', '["10.0.0.0/33", "not json', bad.id);
      await db.run("INSERT INTO change_log (entity, entity_id, change, at_ms) VALUES ('key', ?, 'updated', ?)", bad.id, Date.now());
      const worse = await createKey(gw, { account: key.account_id, ips: '127.0.0.1' });
      await db.run('UPDATE api_keys SET allowed_ips = ? WHERE id = ?', '["10.0.0.0/33"]', worse.id);
      await db.run("INSERT INTO change_log (entity, entity_id, change, at_ms) VALUES ('key', ?, 'updated', ?)", worse.id, Date.now());
      await db.close();
      await new Promise((r) => setTimeout(r, 600));
      expect((await post(gw.url('/v1/messages'), { 'x-api-key': bad.key }, hello())).status).to.equal(403);
      expect((await post(gw.url('/v1/messages'), { 'x-api-key': worse.key }, hello())).status).to.equal(403);
      expect((await post(gw.url('/v1/messages'), { 'x-api-key': good.key }, hello())).status).to.equal(200);
      expect(gw.policy.child.exitCode).to.equal(null);
    });
  });

  describe('revocation in flight', function () {
    it('cuts a slow_stream within 1 s of gatewayctl keys revoke, with an authentication_error event', async function () {
      const k = await createKey(gw, { account: key.account_id });
      const stream = sdk(k.key).messages.stream(hello('alpha-sonnet-5', { max_tokens: 200 }) as never, {
        headers: { 'x-gateway-test-scenario': 'slow_stream' },
      });
      let deltas = 0;
      let revokedAt = 0;
      stream.on('text', () => {
        deltas += 1;
        if (deltas === 2) {
          revokedAt = Date.now();
          void gw.ctl('keys', 'revoke', k.id);
        }
      });
      const err = await stream.finalMessage().catch((e: unknown) => e);
      const cutAfter = Date.now() - revokedAt;
      expect(err).to.be.instanceOf(Anthropic.APIError);
      expect(String((err as Error).message)).to.contain('authentication_error');
      expect(revokedAt).to.be.greaterThan(0);
      expect(cutAfter).to.be.lessThan(1000);
      expect(deltas).to.be.lessThan(10);
    });

    it('cuts a stream whose key was revoked while the policy service was down, once it is back', async function () {
      this.timeout(20_000);
      const own = await new TestGateway().start();
      try {
        const k = await createKey(own);
        const res = await fetch(own.url('/v1/messages'), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': k.key, 'x-gateway-test-scenario': 'slow_stream' },
          body: JSON.stringify({ ...hello(), stream: true }),
        });
        const text = res.text();
        await new Promise((r) => setTimeout(r, 300));
        await own.policy.stop();
        await own.ctl('keys', 'revoke', k.id);
        await own.startPolicy(own.policyPort);
        // From the moment the policy service listens again: its own start (migrations, a loaded machine) is not
        // the proxy's to answer for.
        const backAt = Date.now();
        const body = await text;
        expect(Date.now() - backAt).to.be.lessThan(2_000);
        expect(body, body.slice(-600)).to.contain("event: error").and.contain("authentication_error");
        expect(body).to.not.contain('event: message_stop');
      } finally {
        await own.stop();
      }
    });

    it('answers a pending non-streamed slow request with 401 when its key is revoked', async function () {
      const k = await createKey(gw, { account: key.account_id });
      const pending = post(gw.url('/v1/messages'), { 'x-api-key': k.key, 'x-gateway-test-scenario': 'slow_stream' }, hello());
      await new Promise((r) => setTimeout(r, 300));
      await gw.ctl('keys', 'revoke', k.id);
      const r = await pending;
      expect(r.status).to.equal(401);
      expect(r.body.error.type).to.equal('authentication_error');
    });
  });

  describe('last used', function () {
    it('records when a key was last used, and not for refused requests', async function () {
      const k = await createKey(gw, { account: key.account_id });
      const unused = await createKey(gw, { account: key.account_id, ips: '10.9.9.9' });
      await post(gw.url('/v1/messages'), { 'x-api-key': k.key }, hello());
      await post(gw.url('/v1/messages'), { 'x-api-key': unused.key }, hello());
      let listed: Array<{ id: string; last_used_at: string | null }> = [];
      for (let i = 0; i < 30; i += 1) {
        listed = await gw.ctl('keys', 'list', '--account', key.account_id);
        if (listed.find((x) => x.id === k.id)?.last_used_at != null) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      const used = listed.find((x) => x.id === k.id);
      expect(used?.last_used_at).to.be.a('string');
      expect(Date.now() - Date.parse(used?.last_used_at as string)).to.be.lessThan(60_000);
      expect(listed.find((x) => x.id === unused.id)?.last_used_at).to.equal(null);
    });
  });
});

function sdkAt(baseURL: string, apiKey: string) {
  return new Anthropic({ apiKey, baseURL, maxRetries: 0 });
}
