import { expect } from 'chai';
import { runGatewayctl } from '@gateway/policy';
import { TestPostgres } from '@gateway/policy/test-support/postgres';
import { TestGateway, createKey, type CreatedKey } from './harness/gateway.js';

const hello = { model: 'alpha-sonnet-5', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] };

/**
 * docs/operations.md, "When PostgreSQL is unreachable": decisions go on from every replica's key cache, the tools
 * that change keys fail closed, and once the database is back a change made through them bites within a second.
 */
describe('policy service on PostgreSQL: the database goes away and comes back', function () {
  this.timeout(90_000);
  let server: TestPostgres;
  let gw: TestGateway;
  let key: CreatedKey;

  before(async function () {
    server = await TestPostgres.start();
    gw = await new TestGateway({ database: 'postgres', databaseUrl: await server.createDatabase('outage') }).start();
    key = await createKey(gw, { env: 'test' });
  });
  after(async () => {
    await gw?.stop();
    await server?.dispose();
  });

  const send = async (): Promise<number> =>
    (await fetch(gw.url('/v1/messages'), { method: 'POST', headers: { 'x-api-key': key.key, 'content-type': 'application/json' }, body: JSON.stringify(hello) })).status;

  it('keeps admitting known keys while PostgreSQL is down, refuses changes, and applies a revocation within 1 s once it is back', async function () {
    expect(await send()).to.equal(200);
    await server.stop();
    // Past the policy service's health interval (1 s) and a few key-change polls, all of which fail.
    await new Promise((r) => setTimeout(r, 2_000));
    const st = await send();
    expect(st).to.equal(200);
    expect((await fetch(gw.url('/readyz'))).status).to.equal(200);
    let err = '';
    const code = await runGatewayctl(['keys', 'revoke', key.id], gw.ctlEnv, () => undefined, (s) => (err += s));
    expect(code).to.not.equal(0);
    expect(err).to.match(/database|connect/i);
    expect(await send()).to.equal(200);

    await server.restart();
    await gw.ctl('keys', 'revoke', key.id);
    const revokedAt = Date.now();
    let status = await send();
    while (status === 200 && Date.now() - revokedAt < 1_000) status = await send();
    expect(status).to.equal(401);
  });
});
