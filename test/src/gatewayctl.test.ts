import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './harness/gateway.js';

const run = promisify(execFile);
// What `npx gatewayctl` runs: the bin npm links into node_modules/.bin.
const BIN = resolve(REPO_ROOT, 'node_modules/.bin/gatewayctl');

describe('gatewayctl (as a separate process)', function () {
  let dir: string;
  const ctl = async (...args: string[]) => {
    const { stdout } = await run(BIN, args, { env: { ...process.env, GATEWAY_DATA_DIR: dir } });
    return stdout;
  };
  const json = async <T>(...args: string[]): Promise<T> => JSON.parse(await ctl(...args, '--json')) as T;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-ctl-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('creates and lists plans with exactly the contract fields', async function () {
    const plan = await json<Record<string, unknown>>('plans', 'create', '--name', 'pro', '--residency', 'eu', '--rpm', '120',
      '--concurrency', '8', '--allowance', '2000000', '--overage', 'true', '--overage-ceiling', '500000', '--models', 'alpha-sonnet-5,alpha-haiku-4-5');
    const expected = {
      name: 'pro', residency: 'eu', requests_per_minute: 120, concurrency: 8, allowance: 2_000_000,
      overage_allowed: true, overage_ceiling: 500_000, models: ['alpha-sonnet-5', 'alpha-haiku-4-5'],
    };
    expect(plan).to.deep.equal(expected);
    const list = await json<Array<Record<string, unknown>>>('plans', 'list');
    expect(list).to.deep.equal([expected]);
  });

  it('creates accounts and keys, prints the key once, lists it masked', async function () {
    const acct = await json<{ id: string; name: string; plan: string }>('accounts', 'create', '--name', 'Acme', '--plan', 'pro', '--rpm', '240');
    expect(acct).to.include({ name: 'Acme', plan: 'pro' });
    expect(acct.id).to.be.a('string');
    const key = await json<Record<string, unknown>>('keys', 'create', '--account', acct.id, '--name', 'backend', '--env', 'live',
      '--residency', 'uk', '--privacy', 'tokenise', '--models', 'alpha-sonnet-4-6-20250514', '--ips', '10.0.0.0/8,2001:db8::/32',
      '--expires', '2030-01-01T00:00:00Z');
    expect(Object.keys(key).sort()).to.deep.equal(
      ['account_id', 'allowed_ips', 'allowed_models', 'environment', 'expires_at', 'id', 'key', 'name', 'privacy_mode', 'residency'],
    );
    expect(key).to.deep.include({
      name: 'backend', environment: 'live', residency: 'uk', privacy_mode: 'tokenise', account_id: acct.id,
      allowed_models: ['alpha-sonnet-4-6'], allowed_ips: ['10.0.0.0/8', '2001:db8::/32'], expires_at: '2030-01-01T00:00:00.000Z',
    });
    const secret = key['key'] as string;
    expect(secret).to.match(/^gw_live_[A-Za-z0-9]{32}$/);
    const listed = await json<Array<{ id: string; key: string; status: string }>>('keys', 'list', '--account', acct.id);
    expect(listed).to.have.length(1);
    expect(listed[0]?.key).to.equal(`gw_live_${secret.slice(8, 12)}…${secret.slice(-4)}`);
    expect(JSON.stringify(listed)).to.not.contain(secret);
    expect(listed[0]?.status).to.equal('active');

    const human = await ctl('keys', 'list', '--account', acct.id);
    expect(human).to.contain(listed[0]?.id).and.not.contain(secret);

    await ctl('keys', 'revoke', listed[0]?.id as string);
    const after = await json<Array<{ status: string; revoked_at: string | null }>>('keys', 'list', '--account', acct.id);
    expect(after[0]?.status).to.equal('revoked');
    expect(after[0]?.revoked_at).to.be.a('string');
  });

  it('reports usage for an account', async function () {
    const acct = await json<{ id: string }>('accounts', 'create', '--name', 'Quiet', '--plan', 'pro');
    const u = await json<{ plan: string; tokens: { allowance: number; used: number }; by_model: unknown[] }>('usage', '--account', acct.id);
    expect(u.plan).to.equal('pro');
    expect(u.tokens).to.deep.include({ allowance: 2_000_000, used: 0 });
    expect(u.by_model).to.deep.equal([]);
  });

  it('explains mistakes with a non-zero exit', async function () {
    const err = (await run(BIN, ['keys', 'create', '--account', 'nope', '--name', 'x', '--env', 'prod', '--residency', 'eu'], {
      env: { ...process.env, GATEWAY_DATA_DIR: dir },
    }).catch((e: unknown) => e)) as { code: number; stderr: string };
    expect(err.code).to.equal(2);
    expect(err.stderr).to.contain('--env must be one of live, test');
    const unknownModel = (await run(BIN, ['plans', 'create', '--name', 'x', '--residency', 'eu', '--rpm', '1', '--concurrency', '1', '--allowance', '1', '--models', 'alpha-fable-5'], {
      env: { ...process.env, GATEWAY_DATA_DIR: dir },
    }).catch((e: unknown) => e)) as { stderr: string };
    expect(unknownModel.stderr).to.contain('unknown model "alpha-fable-5"');
  });
});
