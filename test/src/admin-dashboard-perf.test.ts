import { expect } from 'chai';
import { join } from 'node:path';
import { ModelCatalogue, PostgresStore, SqliteStore, createAdminService, openDatabase, runGatewayctl, type Caller } from '@gateway/policy';
import { openGatewayDatabase } from './harness/database.js';
import { TestGateway } from './harness/gateway.js';

const KEYS = 1_000;
const LEDGER_ROWS = 30_000;
const BUDGET_MS = 200;

describe('dashboard speed with 1,000 keys', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let accountId: string;
  let keyId: string;
  let cookie: string;

  before(async function () {
    gw = await new TestGateway().start();
    await gw.ctl('plans', 'create', '--name', 'big', '--residency', 'eu', '--rpm', '6000', '--concurrency', '100', '--allowance', '1000000000');
    accountId = (await gw.ctl<{ id: string }>('accounts', 'create', '--name', 'Big Co', '--plan', 'big')).id;
    await runGatewayctl(['admins', 'create', '--email', 'perf@example.com', '--password-stdin'], gw.ctlEnv,
      () => undefined, () => undefined, async () => 'perf test password\n');
    // Fixtures straight through the admin service (as the CLI would make them, 1,000 times over), and a month of ledger.
    const db = await openGatewayDatabase(gw);
    const store = gw.databaseUrl === undefined ? new SqliteStore(openDatabase(join(gw.dataDir, 'gateway.sqlite'))) : await PostgresStore.open(gw.databaseUrl);
    const service = createAdminService(store, ModelCatalogue.load());
    const cli: Caller = { principal: { kind: 'cli', user: 'perf' }, address: null };
    const ids: string[] = [];
    for (let i = 0; i < KEYS; i += 1) {
      ids.push((await service.createKey(cli, accountId, {
        name: `service ${i}`, environment: i % 4 === 0 ? 'test' : 'live', residency: 'eu', privacy_mode: 'flag',
        allowed_ips: i % 2 === 0 ? ['10.0.0.0/8'] : undefined,
      })).record.id);
    }
    await store.close();
    keyId = ids[0] as string;
    const models = ['alpha-sonnet-4-6', 'alpha-opus-4-6', 'alpha-haiku-4-5'];
    const now = Date.now();
    await db.transaction(async () => {
      for (let i = 0; i < LEDGER_ROWS; i += 1) {
        const at = now - Math.floor((i / LEDGER_ROWS) * 29 * 86_400_000);
        await db.run(`INSERT INTO usage_ledger (request_id, account_id, key_id, environment, model, input_tokens, output_tokens,
          cache_creation_input_tokens, cache_read_input_tokens, billable_units, cost_units, outcome, finished_at_ms, recorded_at_ms)
          VALUES (?, ?, ?, 'live', ?, 100, 50, 0, 0, 150, 120000, 'ok', ?, ?)`, `req_perf_${i}`, accountId, ids[i % KEYS], models[i % 3], at, at);
      }
    });
    await db.close();

    const signin = await fetch(`http://127.0.0.1:${gw.adminPort}/signin`);
    const pre = (signin.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await signin.text())?.[1] as string;
    const res = await fetch(`http://127.0.0.1:${gw.adminPort}/signin`, {
      method: 'POST', redirect: 'manual', headers: { cookie: pre, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, email: 'perf@example.com', password: 'perf test password' }).toString(),
    });
    cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
  });
  after(async () => gw?.stop());

  for (const [name, path] of [
    ['keys', () => `/accounts/${accountId}/keys`],
    ['overview', () => `/accounts/${accountId}`],
    ['hygiene', () => `/accounts/${accountId}/hygiene`],
    ['audit log', () => `/audit?account=${accountId}`],
    ['key detail', () => `/keys/${keyId}`],
    ['accounts and plans', () => '/accounts'],
    ['usage CSV', () => `/accounts/${accountId}/usage.csv`],
  ] as const) {
    it(`renders ${name} in under ${BUDGET_MS} ms (median of 7)`, async function () {
      const url = `http://127.0.0.1:${gw.adminPort}${path()}`;
      const times: number[] = [];
      let body = '';
      for (let i = 0; i < 8; i += 1) {
        const t0 = performance.now();
        const res = await fetch(url, { headers: { cookie } });
        body = await res.text();
        if (i > 0) times.push(performance.now() - t0);
        expect(res.status).to.equal(200);
      }
      times.sort((a, b) => a - b);
      const median = times[3] as number;
      if (name === 'keys') expect(body.match(/<tr>/g)?.length).to.be.at.least(KEYS);
      console.log(`      ${name}: median ${median.toFixed(1)} ms`);
      expect(median, `${name}: ${times.map((t) => t.toFixed(0)).join(', ')} ms`).to.be.below(BUDGET_MS);
    });
  }
});
