import { expect } from 'chai';
import Anthropic from '@anthropic-ai/sdk';
import { ModelCatalogue, PostgresStore, SqliteStore, createAdminService, openDatabase, runGatewayctl, type Caller } from '@gateway/policy';
import { testDatabaseUrl } from '@gateway/policy/test-support/postgres';
import { hashApiKey } from '@gateway/shared';
import { join } from 'node:path';
import { startMessagesFake, type MessagesFake } from './fakes/index.js';
import { TestGateway, createKey, type CreatedKey } from './harness/gateway.js';
import { waitForLedger } from './harness/ledger.js';

const hello = { model: 'alpha-sonnet-5', max_tokens: 16, messages: [{ role: 'user' as const, content: 'hello' }] };
const cli: Caller = { principal: { kind: 'cli', user: 'ops' }, address: null };

async function gatewayctl(env: Record<string, string>, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runGatewayctl(args, env, (s) => (out += s), (s) => (err += s), async () => 'a long enough password\n');
  return { code, out, err };
}

describe('gatewayctl db copy: a SQLite deployment into PostgreSQL', function () {
  this.timeout(120_000);
  let fake: MessagesFake;
  let sqliteGw: TestGateway;
  let pgGw: TestGateway | undefined;
  let live: CreatedKey;
  let test: CreatedKey;
  let revoked: CreatedKey;
  let token: string;
  let url: string;

  before(async function () {
    fake = await startMessagesFake({ apiKey: 'up' });
    fake.setBehaviour({ usage: { input_tokens: 100, output_tokens: 50 } });
    const upstream = { UPSTREAM_URL: `${fake.url}/{region}/v1`, UPSTREAM_API_KEY: 'up' };
    sqliteGw = await new TestGateway({ database: 'sqlite', env: upstream }).start();
    live = await createKey(sqliteGw, { env: 'live', plan: { name: 'copied', allowance: 1_000_000 } });
    test = await createKey(sqliteGw, { env: 'test', account: live.account_id });
    revoked = await createKey(sqliteGw, { env: 'live', account: live.account_id });
    await sqliteGw.ctl('keys', 'revoke', revoked.id);
    expect((await gatewayctl(sqliteGw.ctlEnv, 'admins', 'create', '--email', 'ops@example.com', '--password-stdin')).code).to.equal(0);
    token = (await sqliteGw.ctl<{ token: string }>('admins', 'tokens', 'create', '--email', 'ops@example.com', '--name', 'copy')).token;
    for (const k of [live, live, live, test, test]) {
      await new Anthropic({ apiKey: k.key, baseURL: sqliteGw.baseURL, maxRetries: 0 }).messages.create(hello);
    }
    await waitForLedger(sqliteGw, (rows) => rows.length === 5);
    url = await testDatabaseUrl('copy');
    pgGw = new TestGateway({ database: 'postgres', databaseUrl: url, env: upstream });
  });
  after(async () => {
    await pgGw?.stop();
    await sqliteGw?.stop();
    await fake?.close();
  });

  const adminGet = async (gw: TestGateway, path: string): Promise<unknown> => {
    const res = await fetch(`http://127.0.0.1:${gw.adminPort}/admin/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status, path).to.equal(200);
    return res.json();
  };

  it('copies every row, prints both sides\' counts and ledger totals, and refuses a database that is not empty', async function () {
    const usageBefore = await adminGet(sqliteGw, `/accounts/${live.account_id}/usage`);
    // Last-used times are written every few seconds: wait for the used keys' before taking the listing.
    let keysBefore: Array<{ id: string; last_used_at: string | null }> = [];
    for (let tries = 0; tries < 100; tries += 1) {
      keysBefore = (await adminGet(sqliteGw, `/accounts/${live.account_id}/keys`)) as typeof keysBefore;
      if (keysBefore.filter((k) => k.last_used_at !== null).length === 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await sqliteGw.policy.stop();

    const copied = await gatewayctl({ GATEWAY_DATA_DIR: sqliteGw.dataDir }, 'db', 'copy', '--to', url, '--json');
    expect(copied.err).to.equal('');
    expect(copied.code).to.equal(0);
    const result = JSON.parse(copied.out) as { identical: boolean; sqlite: { tables: Record<string, number>; ledger: Record<string, { requests: number }> }; postgres: unknown };
    expect(result.identical).to.equal(true);
    expect(result.postgres).to.deep.equal(result.sqlite);
    expect(result.sqlite.tables).to.include({ plans: 1, accounts: 1, api_keys: 3, administrators: 1, admin_tokens: 1, usage_ledger: 5 });
    expect(result.sqlite.ledger['live']?.requests).to.equal(3);
    expect(result.sqlite.ledger['test']?.requests).to.equal(2);

    const text = await gatewayctl({ GATEWAY_DATA_DIR: sqliteGw.dataDir }, 'db', 'copy', '--to', url);
    expect(text.code).to.equal(1);
    expect(text.err).to.contain('not empty');

    // The same keys, settings and usage through the admin store on PostgreSQL as through SQLite's.
    const pg = await PostgresStore.open(url);
    const db = openDatabase(join(sqliteGw.dataDir, 'gateway.sqlite'));
    try {
      for (const k of [live, test, revoked]) {
        const found = await pg.findKeyByHash(hashApiKey(k.key));
        expect(found?.id, k.id).to.equal(k.id);
        expect(found).to.deep.equal(await new SqliteStore(db).findKeyByHash(hashApiKey(k.key)));
      }
      expect((await pg.getKey(revoked.id))?.revoked_at).to.be.a('string');
      const onPg = createAdminService(pg, ModelCatalogue.load());
      const onSqlite = createAdminService(new SqliteStore(db), ModelCatalogue.load());
      expect(await onPg.accountUsage(cli, live.account_id)).to.deep.equal(await onSqlite.accountUsage(cli, live.account_id));
      expect((await onPg.accountUsage(cli, live.account_id)).tokens.used).to.equal(3 * 150);
      expect(await onPg.auditTrail(cli)).to.deep.equal(await onSqlite.auditTrail(cli));
    } finally {
      db.close();
      await pg.close();
    }

    // A gateway on the copy: the admin API answers as before with the copied token, every key is what it was.
    const gw = pgGw as TestGateway;
    await gw.start();
    expect(await adminGet(gw, `/accounts/${live.account_id}/usage`)).to.deep.equal(usageBefore);
    expect(await adminGet(gw, `/accounts/${live.account_id}/keys`)).to.deep.equal(keysBefore);
    const status = async (k: CreatedKey) =>
      (await fetch(gw.url('/v1/messages'), { method: 'POST', headers: { 'x-api-key': k.key, 'content-type': 'application/json' }, body: JSON.stringify(hello) })).status;
    expect(await status(live)).to.equal(200);
    expect(await status(test)).to.equal(200);
    expect(await status(revoked)).to.equal(401);
  });
});
