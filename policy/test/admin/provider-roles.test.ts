import { expect } from 'chai';
import { decideRole, type RoleRules } from '../../src/admin/sign-in/provider-roles.js';
import { safeReturnPath } from '../../src/admin/sign-in/provider-sign-in.js';
import { SealedBox } from '../../src/admin/sign-in/sealed-box.js';

const rules: RoleRules = {
  roleClaim: 'groups', platformGroups: ['gw-platform'], accountGroups: [['team-a', 'acct_a'], ['team-b', 'acct_b']],
  platformEmails: ['boss@example.com'], allowedDomains: [],
};

describe('identity provider claims to roles', function () {
  it('gives platform from a group or a verified listed e-mail, an account from one mapped group', function () {
    expect(decideRole({ groups: ['x', 'gw-platform', 'team-a'] }, rules)).to.deep.equal({ kind: 'platform' });
    expect(decideRole({ email: 'Boss@example.com', email_verified: true }, rules)).to.deep.equal({ kind: 'platform' });
    expect(decideRole({ email: 'boss@example.com', email_verified: false }, rules)).to.include({ kind: 'refused', reason: 'no_role' });
    expect(decideRole({ groups: ['team-b'] }, rules)).to.deep.equal({ kind: 'account', accountId: 'acct_b' });
    expect(decideRole({ groups: 'team-a' }, rules)).to.deep.equal({ kind: 'account', accountId: 'acct_a' });
    expect(decideRole({ roles: ['gw-platform'] }, { ...rules, roleClaim: 'roles' })).to.deep.equal({ kind: 'platform' });
  });

  it('refuses no role, two accounts, group overage, and a domain not verified or not allowed', function () {
    expect(decideRole({ groups: ['staff'] }, rules)).to.include({ reason: 'no_role' });
    expect(decideRole({ groups: ['team-a', 'team-b'] }, rules)).to.include({ reason: 'two_accounts' });
    expect(decideRole({ _claim_names: { groups: 'src1' }, _claim_sources: {} }, rules)).to.include({ reason: 'group_overage' });
    expect(decideRole({ hasgroups: true }, rules)).to.include({ reason: 'group_overage' });
    const domains = { ...rules, allowedDomains: ['example.com'] };
    expect(decideRole({ email: 'a@example.com', email_verified: false, groups: ['gw-platform'] }, domains)).to.include({ reason: 'domain' });
    expect(decideRole({ email: 'a@evil.example', email_verified: true, groups: ['gw-platform'] }, domains)).to.include({ reason: 'domain' });
    expect(decideRole({ email: 'a@example.com', email_verified: true, groups: ['gw-platform'] }, domains)).to.deep.equal({ kind: 'platform' });
    expect(decideRole({ hd: 'example.com', email: 'x@gmail.com', groups: ['gw-platform'] }, domains)).to.deep.equal({ kind: 'platform' });
  });

  it('accepts only relative return paths', function () {
    expect(safeReturnPath(undefined)).to.equal('/');
    expect(safeReturnPath('/accounts/acct_1?x=1')).to.equal('/accounts/acct_1?x=1');
    for (const bad of ['https://evil.example/', '//evil.example/', '/\\evil.example', 'accounts', '/a\nb', ['/']]) expect(safeReturnPath(bad)).to.equal(undefined);
  });

  it('seals values for one purpose under one secret', function () {
    const box = new SealedBox('secret-1');
    const sealed = box.seal('handshake', 'hello');
    expect(sealed).to.not.contain('hello');
    expect(box.open('handshake', sealed)).to.equal('hello');
    expect(box.open('refresh-token', sealed)).to.equal(undefined);
    expect(new SealedBox('secret-2').open('handshake', sealed)).to.equal(undefined);
    expect(box.open('handshake', `${sealed.slice(0, -2)}AA`)).to.equal(undefined);
  });
});

describe('provider administrators and passwords', function () {
  it('verifies no password against the empty hash a provider administrator has (as a replica predating sign-in by provider does)', async function () {
    const { verifyPassword } = await import('../../src/admin/passwords.js');
    for (const guess of ['', 'password', 'scrypt$32768$8$1$$']) expect(await verifyPassword(guess, '')).to.equal(false);
  });
});
