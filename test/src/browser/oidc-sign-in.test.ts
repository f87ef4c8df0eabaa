import { expect } from 'chai';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { ctlWithStdin } from '../harness/admins.js';
import { TEST_DATABASE, TestGateway } from '../harness/gateway.js';
import { TestIdentityProvider, freePort, type IdTokenTamper } from '../harness/identity-provider.js';
import { SCREENSHOT_DIR, ensureChromium, launchChromium } from './chromium.js';

const SECRET = 'a-client-secret-for-the-sign-in-test-0123456789';
const RECHECK_MS = 1_500;

interface AuditRow { action: string; actor: string; target_id: string; detail: Record<string, unknown>; address: string | null }

/**
 * Sign-in through a real OpenID provider (oidc-provider) with the real policy service and Chromium: roles from
 * groups and e-mails, every refusal with its page and audit entry, a recheck that ends access, sign-out, and
 * password sign-in switched off. One provider, one gateway and one browser for the whole file.
 */
describe('sign-in through the identity provider, in headless Chromium', function () {
  this.timeout(120_000);
  let idp: TestIdentityProvider;
  let gw: TestGateway;
  let browser: { context: BrowserContext; close: () => Promise<void> };
  let page: Page;
  let adminPort = 0;
  let accountA = '';
  let accountB = '';
  let platformToken = '';
  const env: Record<string, string> = {};
  // The browser reaches the gateway as localhost and the provider as 127.0.0.1: two sites, as in production,
  // so the SameSite=Strict session cookie really needs the same-site hop after the callback.
  const admin = (path: string) => `http://localhost:${adminPort}${path}`;
  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOT_DIR, `oidc-${name}.png`), fullPage: true });
  const audit = async (): Promise<AuditRow[]> => {
    const res = await fetch(`http://127.0.0.1:${adminPort}/admin/v1/audit`, { headers: { authorization: `Bearer ${platformToken}` } });
    expect(res.status).to.equal(200);
    return (await res.json()) as AuditRow[];
  };
  const lastRefusal = async (): Promise<AuditRow | undefined> => (await audit()).find((e) => e.action === 'admin.sign_in_refused');

  /** Through the provider's own login (and consent) pages; resolves once the browser is back on the gateway. */
  const providerLogin = async (login: string): Promise<void> => {
    await page.locator('input[name=login]').fill(login);
    await page.locator('input[name=password]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.waitForURL((u) => u.port === String(adminPort) || u.pathname.startsWith('/interaction'));
    if (new URL(page.url()).pathname.startsWith('/interaction')) {
      await page.getByRole('button', { name: 'Continue' }).click();
    }
    await page.waitForURL((u) => u.port === String(adminPort));
  };
  const signInAs = async (login: string): Promise<void> => {
    await browser.context.clearCookies();
    await page.goto(admin('/signin'));
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    await providerLogin(login);
  };
  /** Starts a sign-in and stops the browser at the callback; returns the callback URL the provider sent it to. */
  const callbackOf = async (login: string, alterAuthorisation?: (u: URL) => void): Promise<string> => {
    // Only the gateway's cookies go: the provider's session is kept, so the same user is not asked to log in again.
    await browser.context.clearCookies({ domain: 'localhost' });
    idp.holdCallback = true;
    idp.held = undefined;
    idp.alterAuthorisation = alterAuthorisation;
    await page.goto(admin('/signin'));
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/interaction'));
    if (await page.locator('input[name=login]').count() > 0) {
      await page.locator('input[name=login]').fill(login);
      await page.locator('input[name=password]').fill('any password');
      await page.getByRole('button', { name: 'Sign-in' }).click();
    }
    await page.waitForURL((u) => (u.pathname.startsWith('/interaction') && !u.search.includes('login')) || idp.held !== undefined);
    if (idp.held === undefined && new URL(page.url()).pathname.startsWith('/interaction')) await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('held by the test').waitFor();
    const captured = idp.held ?? '';
    expect(captured).to.contain('code=');
    return captured;
  };
  const expectRefused = async (text: RegExp, reason: string): Promise<void> => {
    expect(await page.getByRole('heading', { name: 'Sign-in refused' }).count()).to.equal(1);
    expect(await page.getByRole('alert').innerText()).to.match(text);
    const entry = await lastRefusal();
    expect(entry?.detail['reason']).to.equal(reason);
  };

  before(async function () {
    this.timeout(600_000);
    // Run once per `npm test`: the flow does not depend on the engine, whose provider records the store suite tests
    // on both; the PostgreSQL pass runs oidc-replicas.test.ts instead (two replicas on one database).
    if (TEST_DATABASE === 'postgres') this.skip();
    ensureChromium();
    adminPort = await freePort();
    idp = await TestIdentityProvider.start([
      { client_id: 'gateway', client_secret: SECRET, redirect_uris: [`http://localhost:${adminPort}/auth/callback`] },
    ]);
    gw = await new TestGateway({ proxies: 0, env }).start();
    await gw.ctl('plans', 'create', '--name', 'business', '--residency', 'eu', '--rpm', '600', '--concurrency', '10', '--allowance', '5000000');
    accountA = (await gw.ctl<{ id: string }>('accounts', 'create', '--name', 'Team A', '--plan', 'business')).id;
    accountB = (await gw.ctl<{ id: string }>('accounts', 'create', '--name', 'Team B', '--plan', 'business')).id;
    // A password administrator with the same e-mail as a provider user: it must stay a separate administrator.
    await ctlWithStdin(gw, 'a long enough password\n', 'admins', 'create', '--email', 'alice@example.com', '--password-stdin');
    await ctlWithStdin(gw, 'a long enough password\n', 'admins', 'create', '--email', 'ops@example.com', '--password-stdin');
    platformToken = (await gw.ctl<{ token: string }>('admins', 'tokens', 'create', '--email', 'ops@example.com', '--name', 'test')).token;
    Object.assign(env, {
      ADMIN_PORT: String(adminPort),
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: 'gateway',
      OIDC_CLIENT_SECRET: SECRET,
      OIDC_REDIRECT_URL: `http://localhost:${adminPort}/auth/callback`,
      OIDC_SCOPES: 'openid email profile groups offline_access',
      OIDC_PLATFORM_GROUPS: 'gw-platform',
      OIDC_ACCOUNT_GROUPS: `team-a=${accountA},team-b=${accountB}`,
      OIDC_PLATFORM_EMAILS: 'gina@example.com',
      OIDC_ALLOWED_DOMAINS: 'example.com',
      OIDC_SESSION_RECHECK_MS: String(RECHECK_MS),
      OIDC_DISPLAY_NAME: 'Test IdP',
    });
    await gw.policy.stop();
    await gw.startPolicy();
    for (const [sub, user] of Object.entries({
      alice: { email: 'alice@example.com', groups: ['gw-platform', 'staff'] },
      bob: { email: 'bob@example.com', groups: ['team-a'] },
      carol: { email: 'carol@example.com', groups: ['staff'] },
      gina: { email: 'gina@example.com', extra: { hd: 'example.com' } },
      ursula: { email: 'ursula@example.com', email_verified: false, groups: ['gw-platform'] },
      otto: { email: 'otto@example.com', extra: { _claim_names: { groups: 'src1' }, _claim_sources: { src1: { endpoint: 'https://graph.example/groups' } } } },
      tess: { email: 'tess@example.com', groups: ['team-a', 'team-b'] },
      dave: { email: 'dave@example.com', groups: ['team-b'] },
    })) idp.users.set(sub, user);
    browser = await launchChromium();
    page = await browser.context.newPage();
  });
  after(async () => {
    await browser?.close();
    await gw?.stop();
    await idp?.close();
  });

  it('signs a platform administrator in through the provider, by the same-site hop, and audits it', async function () {
    await signInAs('alice');
    await page.waitForURL(/\/accounts$/);
    expect(await page.getByRole('link', { name: 'Team A' }).count()).to.equal(1);
    expect(await page.getByRole('link', { name: 'Team B' }).count()).to.equal(1);
    expect(await page.locator('.who').innerText()).to.contain('alice@example.com (platform administrator)');
    await shot('01-platform');
    const cookies = await browser.context.cookies(admin('/'));
    const session = cookies.find((c) => c.name === 'gw_admin_session');
    expect(session?.sameSite).to.equal('Strict');
    expect(session?.httpOnly).to.equal(true);
    expect(cookies.find((c) => c.name === 'gw_admin_oidc')).to.equal(undefined);
    const entry = (await audit()).find((e) => e.action === 'admin.sign_in');
    expect(entry?.detail).to.include({ iss: idp.issuer, sub: 'alice', email: 'alice@example.com', role: 'platform' });
    expect(entry?.address).to.be.a('string');
  });

  it('keeps the password administrator with the same e-mail separate', async function () {
    const admins = await gw.ctl<Array<{ email: string; account_id: string | null }>>('admins', 'list');
    expect(admins.filter((a) => a.email === 'alice@example.com')).to.have.length(1);
    expect(admins.filter((a) => a.email.startsWith('oidc:'))).to.have.length(1);
    // Nor can the provider administrator's row be signed in to with a password (an older replica refuses it too:
    // its empty hash verifies nothing).
    const handle = (admins.find((a) => a.email.startsWith('oidc:')) as { email: string }).email;
    const form = await fetch(`http://127.0.0.1:${adminPort}/signin`);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
    const cookie = (form.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const res = await fetch(`http://127.0.0.1:${adminPort}/signin`, {
      method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({ _csrf: csrf, email: handle, password: '' }).toString(),
    });
    expect(res.status).to.equal(401);
  });

  it('signs an account administrator in, who sees only that account', async function () {
    await signInAs('bob');
    await page.waitForURL(new RegExp(`/accounts/${accountA}$`));
    expect(await page.locator('.who').innerText()).to.contain('bob@example.com (account administrator)');
    const other = await page.goto(admin(`/accounts/${accountB}`));
    expect(other?.status()).to.equal(404);
    await shot('02-account');
  });

  it('signs in a Google-style user without groups by the e-mail list', async function () {
    await signInAs('gina');
    await page.waitForURL(/\/accounts$/);
    expect(await page.locator('.who').innerText()).to.contain('gina@example.com (platform administrator)');
  });

  it('refuses a user whose groups give no role, with a page and an audit entry', async function () {
    await signInAs('carol');
    await expectRefused(/none of your groups/, 'no_role');
    await shot('03-no-role');
  });

  it('refuses an unverified e-mail for the domain check', async function () {
    await signInAs('ursula');
    await expectRefused(/verified e-mail/, 'domain');
  });

  it('refuses group overage and groups that map to two accounts', async function () {
    await signInAs('otto');
    await expectRefused(/too many groups/, 'group_overage');
    await signInAs('tess');
    await expectRefused(/more than one account/, 'two_accounts');
  });

  it('refuses a tampered state', async function () {
    await browser.context.clearCookies();
    const url = new URL(await callbackOf('alice'));
    url.searchParams.set('state', 'tampered');
    await page.goto(url.href);
    await expectRefused(/does not belong to the sign-in this browser started/, 'state_mismatch');
  });

  it('refuses a callback completed in another browser (login CSRF)', async function () {
    const url = await callbackOf('alice');
    await browser.context.clearCookies(); // the victim's browser never started this sign-in
    await page.goto(url);
    await expectRefused(/not started in this browser/, 'handshake_missing');
  });

  it('refuses a replayed code, even with the handshake cookie copied', async function () {
    const url = await callbackOf('alice');
    const handshake = (await browser.context.cookies(admin('/auth/callback'))).find((c) => c.name === 'gw_admin_oidc');
    expect(handshake).to.not.equal(undefined);
    await page.goto(url);
    await page.waitForURL(/\/accounts$/);
    await browser.context.addCookies([handshake as NonNullable<typeof handshake>]);
    await page.goto(url);
    await expectRefused(/already completed once/, 'handshake_used');
  });

  it('refuses an ID token with the wrong nonce', async function () {
    const url = await callbackOf('alice', (u) => u.searchParams.set('nonce', 'not-the-gateways-nonce'));
    await page.goto(url);
    await expectRefused(/did not pass the gateway's checks/, 'token_invalid');
  });

  for (const tamper of ['expired', 'signature', 'issuer', 'audience'] as IdTokenTamper[]) {
    it(`refuses an ID token altered by the provider: ${tamper}`, async function () {
      const url = await callbackOf('alice');
      idp.tamper = tamper;
      await page.goto(url);
      expect(idp.tamper).to.equal(undefined);
      await expectRefused(/did not pass the gateway's checks/, 'token_invalid');
    });
  }

  it('refuses an absolute return URL', async function () {
    await browser.context.clearCookies();
    const res = await page.goto(admin('/auth/login?return_to=https://evil.example/'));
    expect(res?.status()).to.equal(400);
    await expectRefused(/must be a page of this dashboard/, 'return_url');
    const res2 = await page.goto(admin('/auth/login?return_to=//evil.example/'));
    expect(res2?.status()).to.equal(400);
  });

  it('returns to a relative path after sign-in', async function () {
    await browser.context.clearCookies();
    await page.goto(admin(`/auth/login?return_to=${encodeURIComponent('/audit')}`));
    await providerLogin('alice');
    await page.waitForURL(/\/audit$/);
  });

  it('ends the session and the API tokens of a user removed from the group within the recheck time', async function () {
    await signInAs('dave');
    await page.waitForURL(new RegExp(`/accounts/${accountB}$`));
    await page.goto(admin('/admins'));
    await page.getByLabel('Name').fill('dave-ci');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = await page.getByTestId('secret').inputValue();
    const api = () => fetch(`http://127.0.0.1:${adminPort}/admin/v1/accounts`, { headers: { authorization: `Bearer ${token}` } });
    expect((await api()).status).to.equal(200);
    // Still signed in after a recheck while in the group (the refresh token works).
    await new Promise((r) => setTimeout(r, RECHECK_MS * 2));
    await page.goto(admin(`/accounts/${accountB}`));
    expect(page.url()).to.match(new RegExp(`/accounts/${accountB}$`));
    idp.users.set('dave', { email: 'dave@example.com', groups: ['staff'] });
    const removedAt = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - removedAt < RECHECK_MS * 4) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await api()).status;
    }
    expect(status).to.equal(401);
    expect(Date.now() - removedAt).to.be.below(RECHECK_MS * 2 + 1_000);
    await page.goto(admin(`/accounts/${accountB}`));
    expect(page.url()).to.match(/\/signin$/);
    const ended = (await audit()).find((e) => e.action === 'admin.access_ended');
    expect(ended?.detail).to.include({ sub: 'dave', reason: 'no_role', tokens_revoked: 1 });
  });

  it('signs out of the gateway and sends the browser to the provider\'s sign-out', async function () {
    await signInAs('bob');
    await page.waitForURL(new RegExp(`/accounts/${accountA}$`));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((u) => u.href.startsWith(idp.issuer));
    expect((await audit()).find((e) => e.action === 'admin.sign_out')?.detail).to.include({ sub: 'bob' });
    await page.goto(admin('/accounts'));
    expect(page.url()).to.match(/\/signin$/);
  });

  it('switches password sign-in off (ADMIN_PASSWORD_LOGIN=false); gatewayctl keeps working', async function () {
    env['ADMIN_PASSWORD_LOGIN'] = 'false';
    await gw.policy.stop();
    await gw.startPolicy();
    await browser.context.clearCookies();
    await page.goto(admin('/signin'));
    expect(await page.getByLabel('Password').count()).to.equal(0);
    expect(await page.getByRole('link', { name: 'Sign in with Test IdP' }).count()).to.equal(1);
    const form = await fetch(`http://127.0.0.1:${adminPort}/signin`);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
    const cookie = (form.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const res = await fetch(`http://127.0.0.1:${adminPort}/signin`, {
      method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({ _csrf: csrf, email: 'ops@example.com', password: 'a long enough password' }).toString(),
    });
    expect(res.status).to.equal(403);
    expect((await gw.ctl<unknown[]>('accounts', 'list')).length).to.equal(2);
    await signInAs('alice');
    await page.waitForURL(/\/accounts$/);
  });
});
