import { expect } from 'chai';
import { ctlWithStdin } from './harness/admins.js';
import { TestGateway, createKey } from './harness/gateway.js';

describe('admin API and dashboard over HTTP', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let platformToken: string;
  let acctA: string;
  let acctB: string;
  let tokenA: string;
  let admin: (path: string) => string;

  const api = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(admin(path), {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> & Array<Record<string, unknown>> };
  };

  before(async function () {
    gw = await new TestGateway().start();
    admin = (path) => `http://127.0.0.1:${gw.adminPort}${path}`;
    const keyA = await createKey(gw, { plan: { name: 'team', residency: 'uk' }, residency: 'uk' });
    acctA = keyA.account_id;
    acctB = ((await gw.ctl('accounts', 'create', '--name', 'Other', '--plan', 'team')) as { id: string }).id;
    await ctlWithStdin(gw, 'platform password 1\n', 'admins', 'create', '--email', 'root@example.com', '--password-stdin');
    await ctlWithStdin(gw, 'account a password\n', 'admins', 'create', '--email', 'a@example.com', '--account', acctA, '--password-stdin');
    platformToken = (await gw.ctl<{ token: string }>('admins', 'tokens', 'create', '--email', 'root@example.com', '--name', 'ci')).token;
    tokenA = (await gw.ctl<{ token: string }>('admins', 'tokens', 'create', '--email', 'a@example.com', '--name', 'a-ci')).token;
  });
  after(async () => gw?.stop());

  it('refuses missing and unknown tokens in the vendor error shape', async function () {
    const res = await fetch(admin('/admin/v1/accounts'));
    expect(res.status).to.equal(401);
    const body = (await res.json()) as { type: string; error: { type: string }; request_id: string };
    expect(body.type).to.equal('error');
    expect(body.error.type).to.equal('authentication_error');
    expect(body.request_id).to.match(/^req_[A-Za-z0-9]{24,}$/);
    expect((await api(`gw_admin_${'x'.repeat(32)}`, 'GET', '/admin/v1/accounts')).status).to.equal(401);
    expect((await api(platformToken, 'DELETE', '/admin/v1/accounts')).status).to.equal(405);
    expect((await api(platformToken, 'GET', '/admin/v1/nothing-here')).status).to.equal(404);
    const bad = await fetch(admin('/admin/v1/accounts'), { method: 'POST', headers: { authorization: `Bearer ${platformToken}`, 'content-type': 'application/json' }, body: '{not json' });
    expect(bad.status).to.equal(400);
    expect(((await bad.json()) as { error: { type: string } }).error.type).to.equal('invalid_request_error');
  });

  it('creates, lists, rotates and revokes keys; the revoked key is refused by the proxy', async function () {
    const created = await api(platformToken, 'POST', `/admin/v1/accounts/${acctA}/keys`, {
      name: 'svc', environment: 'test', residency: 'uk', privacy_mode: 'redact', allowed_ips: ['127.0.0.1/32', '::1/128'],
    });
    expect(created.status).to.equal(200);
    const secret = created.body['key'] as string;
    expect(secret).to.match(/^gw_test_[A-Za-z0-9]{32}$/);
    const listed = await api(platformToken, 'GET', `/admin/v1/accounts/${acctA}/keys`);
    const row = listed.body.find((k) => k['id'] === created.body['id']) as Record<string, unknown>;
    expect(row).to.include({ state: 'active', display: `gw_test_${secret.slice(8, 12)}…${secret.slice(-4)}`, last_used_at: null });
    expect(row['created_at']).to.be.a('string');
    expect(JSON.stringify(listed.body)).to.not.contain(secret);

    const call = () => fetch(gw.url('/v1/models'), { headers: { 'x-api-key': secret } });
    expect((await call()).status).to.equal(200);
    const rotated = await api(platformToken, 'POST', `/admin/v1/keys/${created.body['id']}/rotate`);
    expect(rotated.status).to.equal(200);
    expect(rotated.body).to.include({ rotated_from: created.body['id'], residency: 'uk', privacy_mode: 'redact' });
    expect(rotated.body['key']).to.match(/^gw_test_/);
    expect((await call()).status).to.equal(200);
    const revoked = await api(platformToken, 'POST', `/admin/v1/keys/${created.body['id']}/revoke`);
    expect(revoked.body).to.include({ state: 'revoked' });
    const deadline = Date.now() + 3_000;
    let status = 200;
    while (Date.now() < deadline && status !== 401) {
      status = (await call()).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).to.equal(401);
  });

  it('refuses bad key settings with every problem named', async function () {
    const res = await api(platformToken, 'POST', `/admin/v1/accounts/${acctA}/keys`, {
      name: 'x', environment: 'live', residency: 'eu', allowed_models: ['alpha-fable-5'], expires_at: '2000-01-01T00:00:00Z',
    });
    expect(res.status).to.equal(400);
    const msg = (res.body['error'] as { message: string }).message;
    expect(msg).to.contain('permits only uk keys').and.contain('unknown model').and.contain('in the future');
  });

  it('keeps an account administrator inside their account: another account is 404, platform actions 403', async function () {
    const mine = await api(tokenA, 'GET', '/admin/v1/accounts');
    expect(mine.body.map((a) => a['id'])).to.deep.equal([acctA]);
    for (const [method, path] of [['GET', `/admin/v1/accounts/${acctB}/keys`], ['GET', `/admin/v1/accounts/${acctB}/usage`],
      ['GET', `/admin/v1/audit?account=${acctB}`], ['GET', '/admin/v1/accounts/acct_doesnotexist/keys']] as const) {
      const res = await api(tokenA, method, path);
      expect(res.status, path).to.equal(404);
      expect((res.body['error'] as { type: string }).type).to.equal('not_found_error');
    }
    const bKey = await api(platformToken, 'POST', `/admin/v1/accounts/${acctB}/keys`, { name: 'b', environment: 'test', residency: 'uk' });
    expect((await api(tokenA, 'POST', `/admin/v1/keys/${bKey.body['id']}/revoke`)).status).to.equal(404);
    expect((await api(tokenA, 'POST', `/admin/v1/keys/${bKey.body['id']}/rotate`)).status).to.equal(404);
    const create = await api(tokenA, 'POST', '/admin/v1/accounts', { name: 'Mine', plan: 'team' });
    expect(create.status).to.equal(403);
    expect((await api(platformToken, 'POST', '/admin/v1/accounts', { name: 'New', plan: 'team', requests_per_minute: 5 })).body)
      .to.deep.include({ name: 'New', plan: 'team' });
  });

  it('returns daily usage rows and an audit trail of CLI and API changes with who and from where', async function () {
    const k = await createKey(gw, { account: acctA, residency: 'uk' });
    await fetch(gw.url('/v1/messages'), {
      method: 'POST', headers: { 'x-api-key': k.key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'alpha-sonnet-4-6', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const today = new Date().toISOString().slice(0, 10);
    let rows: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 30 && rows.length === 0; i += 1) {
      rows = (await api(platformToken, 'GET', `/admin/v1/accounts/${acctA}/usage?from=${today}&to=${today}`)).body;
      if (rows.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(rows[0]).to.include({ date: today, model: 'alpha-sonnet-4-6', requests: 1 });
    expect(rows[0]).to.have.keys('date', 'model', 'environment', 'requests', 'billable_units', 'cost_gbp');
    expect((await api(platformToken, 'GET', `/admin/v1/accounts/${acctA}/usage?from=nope`)).status).to.equal(400);

    const audit = (await api(platformToken, 'GET', `/admin/v1/audit?account=${acctA}`)).body;
    const cliCreate = audit.find((e) => e['action'] === 'key.create' && e['target_id'] === k.id);
    expect(cliCreate).to.include({ actor_kind: 'cli', address: null });
    const apiRevoke = audit.find((e) => e['action'] === 'key.revoke');
    expect(apiRevoke).to.include({ actor_kind: 'token' });
    expect(apiRevoke?.['actor']).to.contain('root@example.com');
    expect(apiRevoke?.['address']).to.match(/127\.0\.0\.1/);
    expect(JSON.stringify(audit)).to.not.contain(k.key);
  });

  describe('dashboard sessions', function () {
    const signInPage = async () => {
      const res = await fetch(admin('/signin'));
      const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
      const csrf = /name="_csrf" value="([^"]+)"/.exec(await res.text())?.[1] as string;
      return { cookie, csrf, res };
    };
    const signIn = async (email: string, password: string) => {
      const { cookie, csrf } = await signInPage();
      return fetch(admin('/signin'), {
        method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrf, email, password }).toString(),
      });
    };

    it('sends security headers: a CSP without inline script, no framing', async function () {
      const { res } = await signInPage();
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).to.contain("frame-ancestors 'none'").and.contain("script-src 'self'").and.not.contain('unsafe-inline');
      expect(res.headers.get('x-frame-options')).to.equal('DENY');
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    });

    it('sets the session cookie HttpOnly and SameSite=Strict (no Secure on loopback), and refuses forms without the CSRF token', async function () {
      const res = await signIn('root@example.com', 'platform password 1');
      expect(res.status).to.equal(303);
      const setCookie = res.headers.get('set-cookie') ?? '';
      expect(setCookie).to.match(/^gw_admin_session=[A-Za-z0-9_-]{40,};/).and.contain('HttpOnly').and.contain('SameSite=Strict');
      expect(setCookie).to.not.contain('Secure');
      const session = setCookie.split(';')[0] as string;
      const page = await fetch(admin(`/accounts/${acctA}/keys`), { headers: { cookie: session } });
      expect(page.status).to.equal(200);
      const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] as string;
      const form = (token: string | undefined) => fetch(admin(`/accounts/${acctA}/keys`), {
        method: 'POST', redirect: 'manual', headers: { cookie: session, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...(token === undefined ? {} : { _csrf: token }), name: 'csrf', environment: 'test', residency: 'uk' }).toString(),
      });
      expect((await form(undefined)).status).to.equal(403);
      expect((await form('forged-token-of-the-wrong-value')).status).to.equal(403);
      const ok = await form(csrf);
      expect(ok.status).to.equal(200);
      expect(await ok.text()).to.match(/gw_test_[A-Za-z0-9]{32}/);
      // The secret is on that one page only: the listing shows the display form.
      const list = await (await fetch(admin(`/accounts/${acctA}/keys`), { headers: { cookie: session } })).text();
      expect(list).to.not.match(/gw_test_[A-Za-z0-9]{32}/);
    });

    it('gives an account administrator 404 for another account in the dashboard too', async function () {
      const res = await signIn('a@example.com', 'account a password');
      const session = (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
      expect((await fetch(admin(`/accounts/${acctA}`), { headers: { cookie: session } })).status).to.equal(200);
      expect((await fetch(admin(`/accounts/${acctB}`), { headers: { cookie: session } })).status).to.equal(404);
      expect((await fetch(admin(`/accounts/${acctB}/usage.csv`), { headers: { cookie: session } })).status).to.equal(404);
    });

    it('refuses a sign-in form posted without the token of its own cookie (login CSRF)', async function () {
      const { cookie } = await signInPage();
      const res = await fetch(admin('/signin'), {
        method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: 'not-the-cookie-token', email: 'root@example.com', password: 'platform password 1' }).toString(),
      });
      expect(res.status).to.equal(403);
      expect(res.headers.get('set-cookie') ?? '').to.not.contain('gw_admin_session');
    });

    it('slows repeated failed sign-ins: after three failures even the right password waits', async function () {
      for (let i = 0; i < 3; i += 1) expect((await signIn('root@example.com', 'wrong password!')).status).to.equal(401);
      const locked = await signIn('root@example.com', 'platform password 1');
      expect(locked.status).to.equal(429);
      const wait = Number(locked.headers.get('retry-after'));
      expect(wait).to.be.at.least(1);
      await new Promise((r) => setTimeout(r, wait * 1000 + 100));
      expect((await signIn('root@example.com', 'platform password 1')).status).to.equal(303);
    });
  });
});
