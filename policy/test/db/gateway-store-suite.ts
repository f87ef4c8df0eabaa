/**
 * One suite for every GatewayStore engine (SQLite, PostgreSQL): the same calls must give the same answers, the
 * same refusals and the same audit trail. Each engine supplies a fresh, migrated store and the two things the
 * interface deliberately cannot do (write ledger rows, which is the ledger's path, and try to edit the audit log).
 */
import { expect } from 'chai';
import { InvalidRequestError, NotFoundError, hashApiKey } from '@gateway/shared';
import { billingPeriod } from '../../src/billing.js';
import type { AuditDraft, GatewayStore } from '../../src/db/gateway-store.js';
import { ROUTE_NOT_RECORDED, type LedgerEntry } from '../../src/db/usage-ledger.js';
import type { Plan } from '../../src/db/records.js';
import { rejection } from '../support/rejection.js';

export interface StoreBackend {
  store: GatewayStore;
  /** Writes ledger rows and their period totals, as the usage ledger does. */
  seedUsage(entries: LedgerEntry[]): Promise<void>;
  /** Tries to change or delete audit rows behind the store's back; resolves with the error each raised. */
  tamperAudit(): Promise<{ update: unknown; remove: unknown }>;
  dispose(): Promise<void>;
}

const PLAN: Plan = { name: 'eu-std', residency: 'eu', requests_per_minute: 60, concurrency: 4, allowance: 10_000, overage_allowed: false, overage_ceiling: 0, models: null };
const UK: Plan = { ...PLAN, name: 'uk-only', residency: 'uk', models: ['alpha-sonnet-4-6'] };
const actor = { kind: 'cli' as const, name: 'ops', address: null };

function entry(over: Partial<LedgerEntry> & Pick<LedgerEntry, 'request_id' | 'account_id' | 'key_id' | 'finished_at_ms'>): LedgerEntry {
  return {
    environment: 'live', model: 'alpha-sonnet-4-6', input_tokens: 100, output_tokens: 50, cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0, billable_units: 150, cost_units: 123_456_789, outcome: 'ok',
    period_start_ms: billingPeriod(over.finished_at_ms).startMs, ...ROUTE_NOT_RECORDED, ...over,
  };
}

export function describeGatewayStore(engine: string, open: () => Promise<StoreBackend>): void {
  describe(`gateway store on ${engine}`, function () {
    this.timeout(30_000);
    let b: StoreBackend;
    let s: GatewayStore;
    beforeEach(async function () {
      b = await open();
      s = b.store;
      await s.createPlan(PLAN);
      await s.createPlan(UK);
    });
    afterEach(async () => b.dispose());

    it('keeps plans and refuses a second plan of the same name', async function () {
      expect((await s.listPlans()).map((p) => p.name)).to.deep.equal(['eu-std', 'uk-only']);
      expect(await s.getPlan('uk-only')).to.deep.include(UK);
      expect(await rejection(s.createPlan(PLAN))).to.be.instanceOf(InvalidRequestError);
      const changed = await s.updatePlan('eu-std', { allowance: 20_000, overage_allowed: true, models: ['alpha-opus-4-6'] });
      expect(await s.getPlan('eu-std')).to.deep.equal(changed).and.include({ allowance: 20_000, overage_allowed: true });
      expect(await rejection(s.updatePlan('nope', { allowance: 1 }))).to.be.instanceOf(NotFoundError);
      expect(await s.getPlan('nope')).to.equal(undefined);
    });

    it('keeps accounts with their overrides, and refuses an unknown plan', async function () {
      const a = await s.createAccount('Acme', 'eu-std', { allowance: 500, overage_allowed: true }, 15);
      expect(a).to.include({ name: 'Acme', plan: 'eu-std', anchor_day: 15 });
      expect(a.overrides).to.deep.equal({ requests_per_minute: null, concurrency: null, allowance: 500, overage_allowed: true, overage_ceiling: null });
      const b2 = await s.updateAccount(a.id, { plan: 'uk-only', overrides: { allowance: null, concurrency: 9 } });
      expect(b2.plan).to.equal('uk-only');
      expect(b2.overrides).to.include({ allowance: null, concurrency: 9, overage_allowed: true });
      expect(await s.getAccount(a.id)).to.deep.equal(b2);
      expect(await rejection(s.createAccount('X', 'nope'))).to.be.instanceOf(InvalidRequestError);
      expect(await rejection(s.updateAccount('acct_missing', {}))).to.be.instanceOf(NotFoundError);
      expect((await s.listAccounts()).map((x) => x.id)).to.deep.equal([a.id]);
    });

    it('stores only a key\'s hash, finds it by hash, and holds a key to its plan\'s residency', async function () {
      const a = await s.createAccount('Acme', 'eu-std');
      const { record, key } = await s.createKey({ account_id: a.id, name: 'web', environment: 'live', residency: 'eu', privacy_mode: 'redact', allowed_ips: ['10.0.0.0/8'], allowed_models: null, expires_at: '2099-01-01T00:00:00.000Z' });
      expect(key).to.match(/^gw_live_[A-Za-z0-9]{32}$/);
      expect(record).to.include({ key_hash: hashApiKey(key), environment: 'live', residency: 'eu', privacy_mode: 'redact', revoked_at: null, last_used_at: null });
      expect(record.allowed_ips).to.deep.equal(['10.0.0.0/8']);
      expect(JSON.stringify(await s.listKeys())).not.to.contain(key);
      expect(await s.findKeyByHash(hashApiKey(key))).to.deep.equal(record);
      expect(await s.findKeyByHash(hashApiKey('gw_live_' + 'x'.repeat(32)))).to.equal(undefined);
      const uk = await s.createAccount('Brit', 'uk-only');
      const refused = await rejection(s.createKey({ account_id: uk.id, name: 'k', environment: 'live', residency: 'eu', privacy_mode: 'off' }));
      expect(refused).to.be.instanceOf(InvalidRequestError).with.property('message').that.contains('permits only uk keys');
      expect(await rejection(s.createKey({ account_id: 'acct_missing', name: 'k', environment: 'live', residency: 'uk', privacy_mode: 'off' }))).to.be.instanceOf(NotFoundError);
    });

    it('revokes once, rotates with the same settings narrowed to the plan, and records last use', async function () {
      const a = await s.createAccount('Acme', 'eu-std');
      const old = await s.createKey({ account_id: a.id, name: 'svc', environment: 'live', residency: 'eu', privacy_mode: 'flag', allowed_models: ['alpha-sonnet-4-6'], requests_per_minute: 7 });
      await s.updateAccount(a.id, { plan: 'uk-only' });
      const fresh = await s.rotateKey(old.record.id);
      expect(fresh.record).to.include({ name: 'svc', residency: 'uk', privacy_mode: 'flag', requests_per_minute: 7, rotated_from: old.record.id });
      expect(fresh.record.allowed_models).to.deep.equal(['alpha-sonnet-4-6']);
      const revoked = await s.revokeKey(old.record.id);
      expect(revoked.revoked_at).to.be.a('string');
      expect((await s.revokeKey(old.record.id)).revoked_at).to.equal(revoked.revoked_at);
      expect(await rejection(s.rotateKey(old.record.id))).to.be.instanceOf(InvalidRequestError);
      await s.touchKeys(new Map([[fresh.record.id, Date.UTC(2026, 10, 26, 9, 0, 0)]]));
      expect((await s.getKey(fresh.record.id))?.last_used_at).to.equal('2026-11-26T09:00:00.000Z');
      expect((await s.listKeys(a.id)).map((k) => k.id)).to.have.members([old.record.id, fresh.record.id]);
      expect(await s.listKeys('acct_other')).to.deep.equal([]);
    });

    it('numbers every change in order, so a replica reading past n has seen everything up to n', async function () {
      const start = await s.lastChangeSeq();
      const a = await s.createAccount('Acme', 'eu-std');
      const keys = await Promise.all(Array.from({ length: 12 }, (_, i) =>
        s.createKey({ account_id: a.id, name: `k${i}`, environment: 'test', residency: 'eu', privacy_mode: 'off' })));
      await s.revokeKey(keys[3]?.record.id as string);
      const changes = await s.changesSince(start);
      expect(changes.map((c) => c.seq)).to.deep.equal(Array.from({ length: 14 }, (_, i) => start + i + 1));
      expect(changes[0]).to.include({ entity: 'account', entity_id: a.id, change: 'created' });
      expect(changes.at(-1)).to.include({ entity: 'key', entity_id: keys[3]?.record.id, change: 'revoked' });
      expect(await s.lastChangeSeq()).to.equal(start + 14);
      expect(await s.changesSince(start + 14)).to.deep.equal([]);
    });

    it('writes a change\'s audit entry with it, not at all when the change is refused, and never lets it be edited', async function () {
      const draft = <T>(action: string, target: AuditDraft<T>['target']): AuditDraft<T> => ({ actor, action, target, detail: { why: 'test' } });
      const a = await s.createAccount('Acme', 'eu-std', {}, null, draft('account.create', (x) => ({ id: x.id, accountId: x.id })));
      const k = await s.createKey({ account_id: a.id, name: 'k', environment: 'live', residency: 'eu', privacy_mode: 'off' },
        { actor: { kind: 'admin', name: 'a@example.com', address: '192.0.2.1' }, action: 'key.create', target: (r) => ({ id: r.record.id, accountId: a.id }), detail: (r) => ({ display: r.record.display }) });
      await rejection(s.createPlan(PLAN, draft('plan.create', { id: PLAN.name, accountId: null })));
      await rejection(s.revokeKey('key_missing', draft('key.revoke', { id: 'key_missing', accountId: a.id })));
      const all = await s.listAudit(undefined);
      expect(all.map((e) => e.action)).to.deep.equal(['key.create', 'account.create']);
      expect(all[0]).to.include({ actor_kind: 'admin', actor: 'a@example.com', address: '192.0.2.1', account_id: a.id, target_id: k.record.id });
      expect(all[0]?.detail).to.deep.equal({ display: k.record.display });
      await s.appendAudit(actor, 'plan.update', { id: 'eu-std', accountId: null }, { allowance: 1 });
      expect((await s.listAudit(a.id)).map((e) => e.action)).to.deep.equal(['key.create', 'account.create']);
      expect((await s.listAudit(undefined, 1)).map((e) => e.action)).to.deep.equal(['plan.update']);
      const tamper = await b.tamperAudit();
      expect(String(tamper.update)).to.match(/append-only/);
      expect(String(tamper.remove)).to.match(/append-only/);
      expect(await s.listAudit(undefined)).to.have.length(3);
    });

    it('keeps administrators unique by email, their tokens and their sessions', async function () {
      const a = await s.createAccount('Acme', 'eu-std');
      const admin = { id: 'adm_1', email: 'ops@example.com', account_id: a.id, password_hash: 'scrypt$x', created_at: '2026-11-26T09:00:00.000Z' };
      await s.insertAdmin(admin, { actor, action: 'admin.create', target: { id: admin.id, accountId: a.id }, detail: {} });
      expect(await s.adminByEmail('ops@example.com')).to.deep.equal(admin);
      expect(await s.adminById('adm_1')).to.deep.equal(admin);
      expect(await rejection(s.insertAdmin({ ...admin, id: 'adm_2' }))).to.be.instanceOf(InvalidRequestError);
      expect((await s.listAdmins(a.id)).map((x) => x.id)).to.deep.equal(['adm_1']);
      expect(await s.listAdmins('acct_other')).to.deep.equal([]);

      const token = { id: 'tok_1', admin_id: 'adm_1', name: 'ci', token_hash: 'h'.repeat(64), display: 'gw_admin_abcd…wxyz', created_at: '2026-11-26T09:00:00.000Z', revoked_at: null, last_used_at: null };
      await s.insertToken(token);
      expect(await s.tokenByHash('h'.repeat(64))).to.deep.equal(token);
      await s.touchToken('tok_1', '2026-11-26T10:00:00.000Z');
      await s.revokeToken('tok_1', '2026-11-26T11:00:00.000Z', { actor, action: 'token.revoke', target: { id: 'tok_1', accountId: a.id }, detail: {} });
      await s.revokeToken('tok_1', '2026-11-26T12:00:00.000Z');
      expect(await s.tokenById('tok_1')).to.include({ last_used_at: '2026-11-26T10:00:00.000Z', revoked_at: '2026-11-26T11:00:00.000Z' });
      expect((await s.listTokens(['adm_1', 'adm_x'])).map((t) => t.id)).to.deep.equal(['tok_1']);
      expect(await s.listTokens([])).to.deep.equal([]);
      expect((await s.listAudit(a.id)).map((e) => e.action)).to.deep.equal(['token.revoke', 'admin.create']);

      const now = Date.now();
      await s.insertSession({ id_hash: 'old', admin_id: 'adm_1', csrf_token: 'c1', created_at_ms: now - 10_000, expires_at_ms: now - 1 });
      await s.insertSession({ id_hash: 'new', admin_id: 'adm_1', csrf_token: 'c2', created_at_ms: now, expires_at_ms: now + 60_000 });
      await s.deleteExpiredSessions(now);
      expect(await s.session('old')).to.equal(undefined);
      expect(await s.session('new')).to.deep.equal({ id_hash: 'new', admin_id: 'adm_1', csrf_token: 'c2', created_at_ms: now, expires_at_ms: now + 60_000 });
      await s.deleteSession('new');
      expect(await s.session('new')).to.equal(undefined);
    });

    it('keeps provider administrators by issuer and subject, ends their access, and uses each handshake once', async function () {
      const a = await s.createAccount('Acme', 'eu-std');
      const admin = { id: 'adm_p', email: 'oidc:0123456789abcdef0123456789abcdef', account_id: a.id, password_hash: '', created_at: '2026-11-26T09:00:00.000Z' };
      const identity = { admin_id: 'adm_p', issuer: 'https://idp.example', subject: 'u-1', email: 'ops@example.com' };
      await s.insertProviderAdmin(admin, identity, { actor, action: 'admin.create', target: { id: admin.id, accountId: a.id }, detail: {} });
      expect(await s.identityBySubject('https://idp.example', 'u-1')).to.deep.equal(identity);
      expect(await s.identityBySubject('https://other.example', 'u-1')).to.equal(undefined);
      expect(await s.identityOf('adm_p')).to.deep.equal(identity);
      // The same subject again (a second replica provisioning at once) is refused, and leaves nothing behind.
      expect(await rejection(s.insertProviderAdmin({ ...admin, id: 'adm_q', email: 'oidc:ffff' }, { ...identity, admin_id: 'adm_q' }))).to.be.instanceOf(InvalidRequestError);
      expect(await s.adminById('adm_q')).to.equal(undefined);
      await s.updateProviderAdmin('adm_p', null, 'new@example.com', { actor, action: 'admin.update', target: { id: 'adm_p', accountId: null }, detail: {} });
      expect(await s.adminById('adm_p')).to.include({ account_id: null });
      expect(await s.identityOf('adm_p')).to.include({ email: 'new@example.com' });

      const now = Date.now();
      const session = { id_hash: 'ps1', admin_id: 'adm_p', csrf_token: 'c', created_at_ms: now, expires_at_ms: now + 60_000 };
      const provider = { id_hash: 'ps1', admin_id: 'adm_p', refresh_token: 'sealed', recheck_at_ms: now - 1, idle_expires_at_ms: now + 60_000 };
      await s.insertProviderSession(session, provider);
      expect(await s.providerSession('ps1')).to.deep.equal(provider);
      expect((await s.dueProviderSessions(now, 10)).map((p) => p.id_hash)).to.deep.equal(['ps1']);
      // One replica wins the recheck.
      expect(await s.claimRecheck('ps1', now - 1, now + 60_000)).to.equal(true);
      expect(await s.claimRecheck('ps1', now - 1, now + 60_000)).to.equal(false);
      expect(await s.dueProviderSessions(now, 10)).to.deep.equal([]);
      await s.updateProviderSession({ ...provider, refresh_token: 'sealed2', recheck_at_ms: now + 5 });
      expect(await s.providerSession('ps1')).to.include({ refresh_token: 'sealed2', recheck_at_ms: now + 5 });

      const token = { id: 'tok_p', admin_id: 'adm_p', name: 'ci', token_hash: 'p'.repeat(64), display: 'gw_admin_abcd…wxyz', created_at: '2026-11-26T09:00:00.000Z', revoked_at: null, last_used_at: null };
      await s.insertToken(token);
      expect(await s.tokenExpiry('tok_p')).to.equal(undefined);
      await s.setTokenExpiry('tok_p', now + 1_000);
      await s.setTokenExpiry('tok_p', now + 2_000, { actor, action: 'token.renew', target: { id: 'tok_p', accountId: null }, detail: {} });
      expect(await s.tokenExpiry('tok_p')).to.equal(now + 2_000);

      const revoked = await s.endAdminAccess('adm_p', '2026-11-26T12:00:00.000Z',
        { actor, action: 'admin.access_ended', target: { id: 'adm_p', accountId: null }, detail: (n: number) => ({ tokens_revoked: n }) });
      expect(revoked).to.equal(1);
      expect(await s.session('ps1')).to.equal(undefined);
      expect(await s.providerSession('ps1')).to.equal(undefined);
      expect(await s.tokenById('tok_p')).to.include({ revoked_at: '2026-11-26T12:00:00.000Z' });
      expect((await s.listAudit(undefined, 1))[0]?.detail).to.deep.equal({ tokens_revoked: 1 });

      expect(await s.claimHandshake('state-hash', now + 60_000, now)).to.equal(true);
      expect(await s.claimHandshake('state-hash', now + 60_000, now)).to.equal(false);
    });

    it('reads daily usage, per-key totals and the period\'s totals exactly (money to the sub-unit)', async function () {
      const a = await s.createAccount('Acme', 'eu-std');
      const day1 = Date.UTC(2026, 10, 2, 10);
      const day2 = Date.UTC(2026, 10, 3, 23, 59, 59);
      // Costs whose sum passes 2^53 sub-units: a double would round it.
      const big = 4_503_599_627_370_497;
      await b.seedUsage([
        entry({ request_id: 'r1', account_id: a.id, key_id: 'k1', finished_at_ms: day1, cost_units: big }),
        entry({ request_id: 'r2', account_id: a.id, key_id: 'k1', finished_at_ms: day1 + 1000, cost_units: big }),
        entry({ request_id: 'r3', account_id: a.id, key_id: 'k2', finished_at_ms: day2, model: 'alpha-haiku-4-5', billable_units: 10, cost_units: 5 }),
        entry({ request_id: 'r4', account_id: a.id, key_id: 'k2', finished_at_ms: day2, environment: 'test', billable_units: 7, cost_units: 0 }),
        entry({ request_id: 'r5', account_id: 'acct_other', key_id: 'k9', finished_at_ms: day1 }),
      ]);
      const daily = await s.dailyByModel(a.id, Date.UTC(2026, 10, 1), Date.UTC(2026, 10, 4));
      expect(daily).to.deep.equal([
        { date: '2026-11-02', environment: 'live', model: 'alpha-sonnet-4-6', requests: 2, billable_units: 300, cost_units: BigInt(big) * 2n },
        { date: '2026-11-03', environment: 'live', model: 'alpha-haiku-4-5', requests: 1, billable_units: 10, cost_units: 5n },
        { date: '2026-11-03', environment: 'test', model: 'alpha-sonnet-4-6', requests: 1, billable_units: 7, cost_units: 0n },
      ]);
      expect(await s.dailyByModel(a.id, Date.UTC(2026, 10, 3), Date.UTC(2026, 10, 4))).to.have.length(2);
      expect((await s.keyDailyByModel('k2', Date.UTC(2026, 10, 1), Date.UTC(2026, 10, 4))).map((r) => r.requests)).to.deep.equal([1, 1]);
      expect([...(await s.perKeySince(a.id, day1 + 1)).entries()]).to.have.deep.members([
        ['k1', { requests: 1, billable_units: 150 }],
        ['k2', { requests: 2, billable_units: 17 }],
      ]);
      const start = billingPeriod(day1).startMs;
      expect(await s.usedUnits(a.id, start)).to.equal(310);
      expect(await s.usedUnits(a.id, start + 1)).to.equal(0);
      expect(await s.byModel(a.id, 'live', start)).to.deep.equal([
        { model: 'alpha-haiku-4-5', requests: 1, billable_units: 10, cost_units: 5n },
        { model: 'alpha-sonnet-4-6', requests: 2, billable_units: 300, cost_units: BigInt(big) * 2n },
      ]);
    });

    it('reads the residency report: live rows per day and route, one account\'s or all, unrecorded routes as nulls', async function () {
      const a = await s.createAccount('Acme', 'eu-std');
      const day1 = Date.UTC(2026, 10, 2, 0, 0, 0);
      const day2 = Date.UTC(2026, 10, 3, 23, 59, 59, 999);
      const EU = ['eu-central-1', 'eu-west-1', 'eu-west-3', 'eu-north-1', 'eu-south-1', 'eu-south-2', 'eu-central-2'];
      const verified = {
        residency: 'eu', call_region: 'eu-central-1', processing_regions: JSON.stringify(EU), regions_basis: 'verified',
        evidence_sha256: 'e1'.repeat(32), evidence_at_ms: day1 - 60_000, platform: 'bedrock',
      } as const;
      const declared = { ...verified, regions_basis: 'declared', evidence_sha256: null, evidence_at_ms: null, platform: 'messages' } as const;
      const london = { residency: 'uk', call_region: 'eu-west-2', processing_regions: '["eu-west-2"]', regions_basis: 'verified', evidence_sha256: 'e2'.repeat(32), evidence_at_ms: day1, platform: 'bedrock' } as const;
      await b.seedUsage([
        entry({ request_id: 'r1', account_id: a.id, key_id: 'k1', finished_at_ms: day1, ...verified }),
        // Evidence refreshed in between: a different digest, the same route, the same row of the report.
        entry({ request_id: 'r2', account_id: a.id, key_id: 'k1', finished_at_ms: day1 + 5, billable_units: 7, ...verified, evidence_sha256: 'e3'.repeat(32) }),
        entry({ request_id: 'r3', account_id: a.id, key_id: 'k1', finished_at_ms: day1 + 9, ...declared }),
        entry({ request_id: 'r4', account_id: a.id, key_id: 'k2', finished_at_ms: day1 + 9, billable_units: 20 }), // no route recorded
        entry({ request_id: 'r5', account_id: a.id, key_id: 'k1', finished_at_ms: day2, ...london }),
        entry({ request_id: 'r6', account_id: a.id, key_id: 'k3', finished_at_ms: day2, environment: 'test', ...london }), // test: never in it
        entry({ request_id: 'r7', account_id: 'acct_other', key_id: 'k9', finished_at_ms: day1 + 1, billable_units: 1, ...verified }),
        entry({ request_id: 'r8', account_id: a.id, key_id: 'k1', finished_at_ms: day2 + 1, ...london }), // the day after the range
      ]);
      const from = Date.UTC(2026, 10, 2);
      const to = Date.UTC(2026, 10, 4);
      const route = (r: typeof verified | typeof declared | typeof london) => ({
        tier: r.residency, call_region: r.call_region, processing_regions: JSON.parse(r.processing_regions) as string[], regions_basis: r.regions_basis,
        platform: r.platform,
      });
      const unrecorded = { tier: null, call_region: null, processing_regions: null, regions_basis: null, platform: null };
      expect(await s.residencyReport(a.id, from, to)).to.deep.equal([
        { date: '2026-11-02', ...unrecorded, requests: 1, billable_units: 20 },
        { date: '2026-11-02', ...route(declared), requests: 1, billable_units: 150 },
        { date: '2026-11-02', ...route(verified), requests: 2, billable_units: 157 },
        { date: '2026-11-03', ...route(london), requests: 1, billable_units: 150 },
      ]);
      // Every account: the other account's request joins the same route's row.
      const all = await s.residencyReport(undefined, from, to);
      expect(all.find((r) => r.date === '2026-11-02' && r.regions_basis === 'verified')).to.include({ requests: 3, billable_units: 158 });
      expect(all).to.have.length(4);
      expect(await s.residencyReport('acct_nobody', from, to)).to.deep.equal([]);
    });

    it('refiles the period totals when an account\'s anchor day moves', async function () {
      const a = await s.createAccount('Acme', 'eu-std');
      await b.seedUsage([
        entry({ request_id: 'r1', account_id: a.id, key_id: 'k', finished_at_ms: Date.UTC(2026, 9, 20) }),
        entry({ request_id: 'r2', account_id: a.id, key_id: 'k', finished_at_ms: Date.UTC(2026, 10, 5) }),
        entry({ request_id: 'r3', account_id: a.id, key_id: 'k', finished_at_ms: Date.UTC(2026, 10, 20) }),
      ]);
      expect(await s.usedUnits(a.id, Date.UTC(2026, 10, 1))).to.equal(300);
      await s.updateAccount(a.id, { anchor_day: 15 });
      // Periods now run from the 15th: 15 Oct-15 Nov holds r1 and r2, 15 Nov-15 Dec holds r3.
      expect(await s.usedUnits(a.id, Date.UTC(2026, 9, 15))).to.equal(300);
      expect(await s.usedUnits(a.id, Date.UTC(2026, 10, 15))).to.equal(150);
      expect(await s.usedUnits(a.id, Date.UTC(2026, 10, 1))).to.equal(0);
    });

    it('answers a ping', async function () {
      expect(await s.ping()).to.equal(true);
    });
  });
}
