import { expect } from 'chai';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import type { BrowserContext, Page } from 'playwright-core';
import { runGatewayctl } from '@gateway/policy';
import { startMessagesFake, type MessagesFake } from '../fakes/index.js';
import { TestGateway } from '../harness/gateway.js';
import { catalogue } from '../harness/residency.js';
import { SCREENSHOT_DIR, ensureChromium, launchChromium } from './chromium.js';

const EMAIL = 'ops@example.com';
const PASSWORD = 'a browser test password';
const UPSTREAM_KEY = 'browser-upstream-key';

describe('dashboard in headless Chromium, with the official SDK against the proxy', function () {
  this.timeout(120_000);
  let fake: MessagesFake;
  let gw: TestGateway;
  let browser: { context: BrowserContext; close: () => Promise<void> };
  let page: Page;
  let accountId: string;
  const admin = (path: string) => `http://127.0.0.1:${gw.adminPort}${path}`;
  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  const sdk = (key: string) => new Anthropic({ apiKey: key, baseURL: gw.baseURL, maxRetries: 0 });
  const ask = (key: string) => sdk(key).messages.create({ model: 'alpha-sonnet-4-6', max_tokens: 32, messages: [{ role: 'user', content: 'Hello there' }] });

  before(async function () {
    this.timeout(600_000);
    ensureChromium();
    fake = await startMessagesFake({ apiKey: UPSTREAM_KEY });
    gw = await new TestGateway({ env: { UPSTREAM_URL: `${fake.url}/{region}/v1`, UPSTREAM_API_KEY: UPSTREAM_KEY } }).start();
    await gw.ctl('plans', 'create', '--name', 'business', '--residency', 'eu', '--rpm', '600', '--concurrency', '10', '--allowance', '5000000');
    accountId = (await gw.ctl<{ id: string }>('accounts', 'create', '--name', 'Acme <Widgets> & Co', '--plan', 'business')).id;
    const code = await runGatewayctl(['admins', 'create', '--email', EMAIL, '--password-stdin'], gw.ctlEnv,
      () => undefined, () => undefined, async () => `${PASSWORD}\n`);
    expect(code).to.equal(0);
    browser = await launchChromium();
    page = await browser.context.newPage();
  });
  after(async () => {
    await browser?.close();
    await gw?.stop();
    await fake?.close();
  });

  it('signs in with email and password', async function () {
    await page.goto(admin('/'));
    expect(page.url()).to.match(/\/signin$/);
    await shot('01-signin');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/accounts$/);
    // The account's name is shown as text, escaped, not as markup.
    expect(await page.getByRole('link', { name: 'Acme <Widgets> & Co' }).count()).to.equal(1);
    await shot('02-accounts-and-plans');
  });

  let secret = '';
  it('creates a key and shows its secret once, with a copy button and a warning', async function () {
    await page.goto(admin(`/accounts/${accountId}/keys`));
    const form = page.locator('#new-key');
    await form.getByLabel('Name').fill('web backend');
    await form.getByLabel('Environment').selectOption('live');
    await form.getByLabel('Residency').selectOption('eu');
    await form.getByLabel('Privacy mode').selectOption('redact');
    await form.getByRole('button', { name: 'Create key' }).click();
    await page.waitForURL(/\/keys$/);
    secret = await page.getByTestId('secret').inputValue();
    expect(secret).to.match(/^gw_live_[A-Za-z0-9]{32}$/);
    expect(await page.getByText('shown only once').count()).to.equal(1);
    expect(await page.getByRole('button', { name: 'Copy' }).count()).to.equal(1);
    await shot('03-key-created');
    // Every visible field on the page has a label a screen reader can read.
    const unlabelled = await page.$$eval('input:not([type=hidden]), select', (els) => els.filter((e) => (e as unknown as { labels: { length: number } | null }).labels?.length === 0).length);
    expect(unlabelled).to.equal(0);
  });

  it('lists the key without its secret; after a call with the SDK its last use appears', async function () {
    await page.goto(admin(`/accounts/${accountId}/keys`));
    expect(await page.content()).to.not.contain(secret);
    const row = page.locator('tr', { hasText: 'web backend' });
    expect(await row.getByTestId('last-used').innerText()).to.equal('never');
    const reply = await ask(secret);
    expect(reply.type).to.equal('message');
    let lastUsed = 'never';
    for (let i = 0; i < 40 && lastUsed === 'never'; i += 1) {
      await new Promise((r) => setTimeout(r, 250));
      await page.reload();
      lastUsed = await row.getByTestId('last-used').innerText();
    }
    expect(lastUsed).to.match(/just now|s ago/);
    expect(lastUsed).to.match(/UTC/);
    await shot('04-keys-list');
  });

  let oldKeyUrl = '';
  let servedBeforeRevocationSeen = 0;
  let replacement = '';
  it('rotates: the replacement is shown once, both keys are listed, the old one marked active', async function () {
    await page.getByRole('link', { name: 'web backend' }).first().click();
    await page.waitForURL(/\/keys\/key_/);
    oldKeyUrl = page.url();
    await shot('05-key-detail');
    await page.getByRole('button', { name: /Rotate/ }).click();
    replacement = await page.getByTestId('secret').inputValue();
    expect(replacement).to.match(/^gw_live_/).and.not.equal(secret);
    const oldRow = page.locator('tr', { hasText: 'old' });
    expect(await oldRow.innerText()).to.contain('active');
    await shot('06-key-rotated');
    expect((await ask(replacement)).type).to.equal('message');
  });

  it('revokes the old key after a confirmation; the proxy then refuses it', async function () {
    await page.goto(`${oldKeyUrl}/revoke`);
    await shot('07-revoke-confirm');
    await page.getByRole('button', { name: 'Revoke this key' }).click();
    await page.waitForURL(oldKeyUrl);
    expect(await page.locator('dd .state').first().innerText()).to.equal('revoked');
    await shot('08-key-revoked');
    // The policy service sees a revocation made here at its next key poll (KEY_POLL_MS, 200 ms): a request in
    // between is still served, and counted in the usage below.
    let refused: unknown;
    for (let i = 0; i < 20 && refused === undefined; i += 1) {
      await ask(secret).then(() => (servedBeforeRevocationSeen += 1), (e: unknown) => (refused = e));
      if (refused === undefined) await new Promise((r) => setTimeout(r, 100));
    }
    expect(refused).to.be.instanceOf(Anthropic.AuthenticationError);
    // A request admitted just before the revocation was seen, then cut by it, is answered 401 too, and metered
    // (CONTRACT.md: tokens used before the cut are metered): it carries the window headers an admitted request
    // gets, which a key refused at authentication never does.
    if ((refused as { headers?: Headers }).headers?.get('compat-ratelimit-requests-limit') != null) servedBeforeRevocationSeen += 1;
    expect((await ask(replacement)).type).to.equal('message');
  });

  it('shows usage moving on the overview, the hygiene view and the audit log', async function () {
    await page.goto(admin(`/accounts/${accountId}`));
    const spend = await page.getByTestId('spend').innerText();
    expect(Number(spend.replace('£', ''))).to.be.greaterThan(0);
    expect(await page.locator('figure.chart svg rect').count()).to.be.greaterThan(0);
    await shot('09-overview');
    await page.goto(admin(`/accounts/${accountId}/hygiene`));
    expect(await page.locator('tbody tr').count()).to.equal(1);
    await shot('10-hygiene');
    await page.goto(admin(`/audit?account=${accountId}`));
    const text = await page.locator('main').innerText();
    expect(text).to.contain('key.create').and.contain('key.rotate').and.contain('key.revoke').and.contain(EMAIL);
    expect(text).to.not.contain(secret).and.not.contain(replacement);
    await shot('11-audit');
    const csv = await page.request.get(admin(`/accounts/${accountId}/usage.csv`));
    expect(csv.status()).to.equal(200);
    const lines = (await csv.text()).trim().split('\n');
    expect(lines[0]).to.equal('date,model,environment,requests,billable_units,cost_gbp');
    // Three asks before and after the rotation, and any the old key got in before the revocation was seen.
    expect(lines[1]).to.match(new RegExp(`^\\d{4}-\\d{2}-\\d{2},alpha-sonnet-4-6,live,${3 + servedBeforeRevocationSeen},\\d+,\\d+\\.\\d{6}$`));
  });

  it('shows the residency report for the account, with its CSV download', async function () {
    await page.goto(admin(`/accounts/${accountId}`));
    await page.getByRole('link', { name: 'Residency report' }).click();
    await page.waitForURL(/\/residency\?account=/);
    const route = catalogue().models.find((m) => m.id === 'alpha-sonnet-4-6')?.routes['eu']?.[0];
    const cells = await page.getByTestId('residency-report').locator('tbody tr').first().locator('td').allInnerTexts();
    // A Messages-API upstream: the catalogue's declaration; every live request so far on the EU route.
    expect(cells.slice(1)).to.deep.equal([
      'eu', route?.call_region, route?.processing_regions.join(', '), 'declared', String(3 + servedBeforeRevocationSeen), cells[6], 'messages',
    ]);
    expect(await page.getByTestId('residency-report').locator('tbody tr').count()).to.equal(1);
    await shot('12-residency-report');
    const href = await page.getByRole('link', { name: 'Download as CSV' }).getAttribute('href');
    const csv = await page.request.get(admin(href as string));
    expect(csv.headers()['content-type']).to.match(/^text\/csv/);
    const lines = (await csv.text()).split('\r\n');
    expect(lines[0]).to.equal('date,tier,call_region,processing_regions,regions_basis,requests,billable_units,platform');
    expect(lines[1]).to.equal([cells[0], 'eu', route?.call_region, `"${route?.processing_regions.join(',')}"`, 'declared', 3 + servedBeforeRevocationSeen, cells[6]?.replace(/,/g, ''), 'messages'].join(','));
  });

  it('creates an admin API token shown once, which the API accepts until it is revoked here', async function () {
    await page.goto(admin('/admins'));
    await page.getByLabel('Name').fill('deploy script');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = await page.getByTestId('secret').inputValue();
    expect(token).to.match(/^gw_admin_[A-Za-z0-9]{32}$/);
    await shot('13-admin-token-created');
    const call = () => fetch(admin('/admin/v1/accounts'), { headers: { authorization: `Bearer ${token}` } });
    expect((await call()).status).to.equal(200);
    await page.goto(admin('/admins'));
    expect(await page.content()).to.not.contain(token);
    await page.locator('tr', { hasText: 'deploy script' }).getByRole('button', { name: 'Revoke' }).click();
    await page.waitForURL(/\/admins$/);
    expect(await page.locator('tr', { hasText: 'deploy script' }).innerText()).to.contain('revoked');
    await shot('14-administrators');
    expect((await call()).status).to.equal(401);
  });
});
