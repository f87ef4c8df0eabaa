import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { TEST_DATABASE, TestGateway, startService, type ServiceProcess } from '../harness/gateway.js';
import { TestIdentityProvider, freePort } from '../harness/identity-provider.js';
import { ensureChromium, launchChromium } from './chromium.js';

const SECRET = 'a-client-secret-shared-by-every-replica-0123456789';

/**
 * Two policy replicas sharing one PostgreSQL database (CONTRACT.md "Scale-out"): a sign-in started on one
 * replica completes on the other (the handshake is sealed with a key both derive; its single use is recorded in
 * the database), and the session then works on either. The browser reaches both as localhost, as it would one
 * load-balanced name (cookies do not depend on the port).
 */
describe('sign-in through the identity provider across two policy replicas on PostgreSQL', function () {
  this.timeout(120_000);
  let idp: TestIdentityProvider;
  let gw: TestGateway;
  let other: ServiceProcess;
  let browser: { context: BrowserContext; close: () => Promise<void> };
  let page: Page;
  let portA = 0;
  let portB = 0;
  let accountA = '';

  before(async function () {
    this.timeout(600_000);
    // The PostgreSQL pass of `npm test` (test:postgres) runs this; the SQLite pass runs oidc-sign-in.test.ts.
    if (TEST_DATABASE !== 'postgres') this.skip();
    ensureChromium();
    [portA, portB] = [await freePort(), await freePort()];
    idp = await TestIdentityProvider.start([{ client_id: 'gateway', client_secret: SECRET, redirect_uris: [`http://localhost:${portA}/auth/callback`] }]);
    idp.users.set('bob', { email: 'bob@example.com', groups: ['team-a'] });
    const env: Record<string, string> = {};
    gw = new TestGateway({ proxies: 0, database: 'postgres', env });
    await gw.start();
    await gw.ctl('plans', 'create', '--name', 'business', '--residency', 'eu', '--rpm', '600', '--concurrency', '10', '--allowance', '5000000');
    accountA = (await gw.ctl<{ id: string }>('accounts', 'create', '--name', 'Team A', '--plan', 'business')).id;
    Object.assign(env, {
      ADMIN_PORT: String(portA), OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: 'gateway', OIDC_CLIENT_SECRET: SECRET,
      OIDC_REDIRECT_URL: `http://localhost:${portA}/auth/callback`, OIDC_SCOPES: 'openid email groups offline_access',
      OIDC_ACCOUNT_GROUPS: `team-a=${accountA}`, OIDC_DISPLAY_NAME: 'Test IdP',
    });
    await gw.policy.stop();
    await gw.startPolicy();
    other = startService('policy-b', 'policy/dist/src/main.js', { ...gw.env, ADMIN_PORT: String(portB), POLICY_ADDR: '127.0.0.1:0' });
    await other.waitFor((l) => l.msg === 'policy service listening');
    browser = await launchChromium();
    page = await browser.context.newPage();
  });
  after(async () => {
    await browser?.close();
    await other?.stop();
    await gw?.stop();
    await idp?.close();
  });

  it('completes on replica A a sign-in started on replica B; the session works on both; a replay on B is refused', async function () {
    idp.holdCallback = true;
    await page.goto(`http://localhost:${portB}/signin`);
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    await page.locator('input[name=login]').fill('bob');
    await page.locator('input[name=password]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('held by the test').waitFor();
    const callback = idp.held ?? '';
    expect(new URL(callback).port).to.equal(String(portA));
    const handshake = (await browser.context.cookies(`http://localhost:${portB}/auth/callback`)).find((c) => c.name === 'gw_admin_oidc');
    expect(handshake).to.not.equal(undefined);

    await page.goto(callback);
    await page.waitForURL(`http://localhost:${portA}/accounts/${accountA}`);
    await page.goto(`http://localhost:${portB}/accounts/${accountA}`);
    expect(page.url()).to.equal(`http://localhost:${portB}/accounts/${accountA}`);
    expect(await page.locator('.who').innerText()).to.contain('bob@example.com (account administrator)');

    // The same answer with the same handshake cookie, now at replica B: already used, whichever replica is asked.
    await browser.context.addCookies([handshake as NonNullable<typeof handshake>]);
    await page.goto(callback.replace(`:${portA}/`, `:${portB}/`));
    expect(await page.getByRole('heading', { name: 'Sign-in refused' }).count()).to.equal(1);
    expect(await page.getByRole('alert').innerText()).to.match(/already completed once/);
  });
});
