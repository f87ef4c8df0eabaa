import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ForbiddenError, InvalidRequestError, NotFoundError } from '@gateway/shared';
import { ModelCatalogue } from '../../src/catalogue.js';
import { openDatabase, type Db } from '../../src/db/database.js';
import { SqliteStore } from '../../src/db/sqlite-store.js';
import { createAdminService } from '../../src/admin/create-admin-service.js';
import type { AdminService } from '../../src/admin/admin-service.js';
import type { Caller } from '../../src/admin/principal.js';
import { runGatewayctl } from '../../src/index.js';
import { rejection } from '../support/rejection.js';

const cli: Caller = { principal: { kind: 'cli', user: 'ops' }, address: null };

describe('admin service: one set of rules, isolation, audit', function () {
  let dir: string;
  let db: Db;
  let svc: AdminService;
  let acctA: string;
  let acctB: string;
  let adminA: Caller;

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), 'gw-admin-svc-'));
    db = openDatabase(join(dir, 'gateway.sqlite'));
    svc = createAdminService(new SqliteStore(db), ModelCatalogue.load());
    await svc.createPlan(cli, { name: 'ukonly', residency: 'uk', requests_per_minute: 60, concurrency: 2, allowance: 1000 });
    acctA = (await svc.createAccount(cli, { name: 'A', plan: 'ukonly' })).id;
    acctB = (await svc.createAccount(cli, { name: 'B', plan: 'ukonly' })).id;
    const a = await svc.administrators.createAdmin(cli, { email: 'a@example.com', password: 'correct horse battery', account_id: acctA });
    adminA = { principal: { kind: 'admin', adminId: a.id, email: a.email, accountId: acctA }, address: '192.0.2.7' };
  });
  after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a key wider than its plan, unknown models, bad IPs and a past expiry, all at once', async function () {
    let err: unknown;
    try {
      await svc.createKey(cli, acctA, {
        name: 'k', environment: 'live', residency: 'eu', allowed_models: ['alpha-fable-5'], allowed_ips: ['10.0.0.300'],
        expires_at: '2001-01-01T00:00:00Z',
      });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(InvalidRequestError);
    const msg = (err as Error).message;
    expect(msg).to.contain('permits only uk keys').and.contain('unknown model "alpha-fable-5"').and.contain('allowed_ips').and.contain('in the future');
  });

  it('gives an account administrator only their own account; others are 404 like a missing one', async function () {
    expect((await svc.listAccounts(adminA)).map((a) => a.id)).to.deep.equal([acctA]);
    const other = (await svc.createKey(cli, acctB, { name: 'b', environment: 'test', residency: 'uk' })).record;
    expect(await rejection(svc.getAccount(adminA, acctB))).to.be.instanceOf(NotFoundError).with.property('message', `no account "${acctB}"`);
    expect(await rejection(svc.listKeys(adminA, acctB))).to.be.instanceOf(NotFoundError);
    expect(await rejection(svc.revokeKey(adminA, other.id))).to.be.instanceOf(NotFoundError);
    expect(await rejection(svc.rotateKey(adminA, other.id))).to.be.instanceOf(NotFoundError);
    expect(await rejection(svc.createAccount(adminA, { name: 'C', plan: 'ukonly' }))).to.be.instanceOf(ForbiddenError);
    expect((await svc.auditTrail(adminA)).every((e) => e.account_id === acctA)).to.equal(true);
    expect(await rejection(svc.auditTrail(adminA, acctB))).to.be.instanceOf(NotFoundError);
  });

  it('writes who, what, when and from where for every change, and the log cannot be edited', async function () {
    const { record } = await svc.createKey(adminA, acctA, { name: 'web', environment: 'live', residency: 'uk', privacy_mode: 'redact' });
    await svc.revokeKey(adminA, record.id);
    const [revoke, create] = await svc.auditTrail(cli, acctA);
    expect(revoke).to.include({ actor_kind: 'admin', actor: 'a@example.com', address: '192.0.2.7', action: 'key.revoke', target_id: record.id });
    expect(create).to.include({ action: 'key.create', target_id: record.id });
    expect(create?.detail).to.include({ residency: 'uk', privacy_mode: 'redact', display: record.display });
    expect(JSON.stringify(await svc.auditTrail(cli))).to.not.contain(record.key_hash);
    expect(() => db.prepare('DELETE FROM audit_log').run()).to.throw(/append-only/);
    expect(() => db.prepare("UPDATE audit_log SET actor = 'x'").run()).to.throw(/append-only/);
  });

  it('records CLI changes as the CLI user, and the CLI prints an admin token once', async function () {
    let out = '';
    const code = await runGatewayctl(['admins', 'tokens', 'create', '--email', 'a@example.com', '--name', 'ci', '--json'],
      { GATEWAY_DATA_DIR: dir }, (s) => (out += s), () => undefined);
    expect(code).to.equal(0);
    const tok = JSON.parse(out) as { id: string; token: string };
    expect(tok.token).to.match(/^gw_admin_[A-Za-z0-9]{32}$/);
    const row = db.prepare('SELECT token_hash FROM admin_tokens WHERE id = ?').get(tok.id) as { token_hash: string };
    expect(row.token_hash).to.match(/^[0-9a-f]{64}$/).and.not.equal(tok.token);
    const entry = (await svc.auditTrail(cli, acctA)).find((e) => e.action === 'token.create');
    expect(entry).to.include({ actor_kind: 'cli', address: null, target_id: tok.id });
    expect(JSON.stringify(await svc.auditTrail(cli))).to.not.contain(tok.token);

    let pwOut = '';
    const made = await runGatewayctl(['admins', 'create', '--email', 'root@example.com', '--password-stdin', '--json'],
      { GATEWAY_DATA_DIR: dir }, (s) => (pwOut += s), () => undefined, async () => 'a long enough password\n');
    expect(made).to.equal(0);
    expect(JSON.parse(pwOut)).to.include({ email: 'root@example.com', account_id: null, role: 'platform' });
    const stored = db.prepare("SELECT password_hash FROM administrators WHERE email = 'root@example.com'").get() as { password_hash: string };
    expect(stored.password_hash).to.match(/^scrypt\$32768\$8\$1\$/).and.not.contain('a long enough password');
  });
});
