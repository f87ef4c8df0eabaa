import { InvalidRequestError, NotFoundError, displayApiKey, generateApiKey, hashApiKey, newRecordId } from '@gateway/shared';
import type { Environment, PrivacyMode, Residency } from '@gateway/shared';
import type { Db } from './database.js';
import { rebuildAccountTotals } from './usage-totals.js';
import type { Account, AccountOverrides, KeyRecord, Plan } from './records.js';
import { accountFromRow, fullOverrides, keyFromRow, listJson, planFromRow, replacementKey, type AccountRow, type KeyRow, type PlanRow } from './rows.js';

export interface NewKey {
  account_id: string;
  name: string;
  environment: Environment;
  residency: Residency;
  privacy_mode: PrivacyMode;
  allowed_models?: string[] | null;
  allowed_ips?: string[] | null;
  expires_at?: string | null;
  requests_per_minute?: number | null;
  rotated_from?: string | null;
}

/**
 * Plans, accounts and keys in SQLite. The rules (who may change what, validation, the audit trail) live in
 * admin/admin-service.ts; this is storage plus the integrity checks the schema needs. Each change is logged
 * for the policy service's key cache.
 */
export class AdminStore {
  constructor(private readonly db: Db, private readonly now: () => number = Date.now) {}

  private logChange(entity: 'plan' | 'account' | 'key', id: string, change: string): void {
    this.db
      .prepare('INSERT INTO change_log (entity, entity_id, change, at_ms) VALUES (?, ?, ?, ?)')
      .run(entity, id, change, this.now());
  }

  createPlan(p: Plan): Plan {
    return this.db.transaction(() => {
      if (this.getPlan(p.name) !== undefined) throw new InvalidRequestError(`plan "${p.name}" already exists`);
      this.db
        .prepare(
          `INSERT INTO plans (name, residency, requests_per_minute, concurrency, allowance, overage_allowed,
             overage_ceiling, models, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(p.name, p.residency, p.requests_per_minute, p.concurrency, p.allowance, p.overage_allowed ? 1 : 0,
          p.overage_ceiling, listJson(p.models), new Date(this.now()).toISOString());
      this.logChange('plan', p.name, 'created');
      return p;
    }).immediate();
  }

  updatePlan(name: string, changes: Partial<Omit<Plan, 'name'>>): Plan {
    return this.db.transaction(() => {
      const current = this.getPlan(name);
      if (current === undefined) throw new NotFoundError(`no plan "${name}"`);
      const next: Plan = { ...current, ...changes };
      this.db
        .prepare(
          `UPDATE plans SET residency = ?, requests_per_minute = ?, concurrency = ?, allowance = ?, overage_allowed = ?,
             overage_ceiling = ?, models = ? WHERE name = ?`,
        )
        .run(next.residency, next.requests_per_minute, next.concurrency, next.allowance, next.overage_allowed ? 1 : 0,
          next.overage_ceiling, listJson(next.models), name);
      this.logChange('plan', name, 'updated');
      return next;
    }).immediate();
  }

  getPlan(name: string): Plan | undefined {
    const row = this.db.prepare('SELECT * FROM plans WHERE name = ?').get(name) as PlanRow | undefined;
    return row === undefined ? undefined : planFromRow(row);
  }

  listPlans(): Plan[] {
    return (this.db.prepare('SELECT * FROM plans ORDER BY created_at, name').all() as PlanRow[]).map(planFromRow);
  }

  createAccount(name: string, plan: string, overrides: Partial<AccountOverrides> = {}, anchorDay: number | null = null): Account {
    return this.db.transaction(() => {
      if (this.getPlan(plan) === undefined) throw new InvalidRequestError(`no plan "${plan}"`);
      const id = newRecordId('acct');
      const o = fullOverrides(overrides);
      this.db
        .prepare(
          `INSERT INTO accounts (id, name, plan, requests_per_minute, concurrency, allowance, overage_allowed,
             overage_ceiling, anchor_day, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(id, name, plan, o.requests_per_minute, o.concurrency, o.allowance,
          o.overage_allowed === null ? null : o.overage_allowed ? 1 : 0, o.overage_ceiling, anchorDay,
          new Date(this.now()).toISOString());
      this.logChange('account', id, 'created');
      return this.getAccount(id) as Account;
    }).immediate();
  }

  /** Raises (or lowers) an account's numbers over its plan's; null clears an override. */
  updateAccount(id: string, changes: { plan?: string; overrides?: Partial<AccountOverrides>; anchor_day?: number | null }): Account {
    return this.db.transaction(() => {
      const current = this.getAccount(id);
      if (current === undefined) throw new NotFoundError(`no account "${id}"`);
      const plan = changes.plan ?? current.plan;
      if (this.getPlan(plan) === undefined) throw new InvalidRequestError(`no plan "${plan}"`);
      const o = { ...current.overrides, ...changes.overrides };
      const anchor = changes.anchor_day === undefined ? current.anchor_day : changes.anchor_day;
      this.db
        .prepare(
          `UPDATE accounts SET plan = ?, requests_per_minute = ?, concurrency = ?, allowance = ?, overage_allowed = ?,
             overage_ceiling = ?, anchor_day = ? WHERE id = ?`,
        )
        .run(plan, o.requests_per_minute, o.concurrency, o.allowance,
          o.overage_allowed === null ? null : o.overage_allowed ? 1 : 0, o.overage_ceiling, anchor, id);
      // Totals are kept per billing period: new period boundaries mean the account's totals are refiled.
      if (anchor !== current.anchor_day) rebuildAccountTotals(this.db, id, anchor);
      this.logChange('account', id, 'updated');
      return this.getAccount(id) as Account;
    }).immediate();
  }

  getAccount(id: string): Account | undefined {
    const row = this.db.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow | undefined;
    return row === undefined ? undefined : accountFromRow(row);
  }

  listAccounts(): Account[] {
    return (this.db.prepare('SELECT * FROM accounts ORDER BY created_at, id').all() as AccountRow[]).map(accountFromRow);
  }

  /** Creates a key and returns it with its secret, which is shown once and never stored. */
  createKey(k: NewKey): { record: KeyRecord; key: string } {
    return this.db.transaction(() => {
      const account = this.getAccount(k.account_id);
      if (account === undefined) throw new NotFoundError(`no account "${k.account_id}"`);
      const plan = this.getPlan(account.plan) as Plan;
      if (plan.residency === 'uk' && k.residency === 'eu') {
        throw new InvalidRequestError(`plan "${plan.name}" permits only uk keys; an eu key would exceed the plan's residency`);
      }
      const key = generateApiKey(k.environment);
      const id = newRecordId('key');
      this.db
        .prepare(
          `INSERT INTO api_keys (id, account_id, name, key_hash, display, environment, residency, privacy_mode,
             allowed_models, allowed_ips, expires_at, requests_per_minute, rotated_from, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(id, k.account_id, k.name, hashApiKey(key), displayApiKey(key), k.environment, k.residency, k.privacy_mode,
          listJson(k.allowed_models), listJson(k.allowed_ips), k.expires_at ?? null, k.requests_per_minute ?? null,
          k.rotated_from ?? null, new Date(this.now()).toISOString());
      this.logChange('key', id, 'created');
      return { record: this.getKey(id) as KeyRecord, key };
    }).immediate();
  }

  getKey(id: string): KeyRecord | undefined {
    const row = this.db.prepare('SELECT * FROM api_keys WHERE id = ?').get(id) as KeyRow | undefined;
    return row === undefined ? undefined : keyFromRow(row);
  }

  findKeyByHash(hash: string): KeyRecord | undefined {
    const row = this.db.prepare('SELECT * FROM api_keys WHERE key_hash = ?').get(hash) as KeyRow | undefined;
    return row === undefined ? undefined : keyFromRow(row);
  }

  listKeys(accountId?: string): KeyRecord[] {
    const rows = accountId === undefined
      ? this.db.prepare('SELECT * FROM api_keys ORDER BY created_at, id').all()
      : this.db.prepare('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, id').all(accountId);
    return (rows as KeyRow[]).map(keyFromRow);
  }

  revokeKey(id: string): KeyRecord {
    return this.db.transaction(() => {
      const current = this.getKey(id);
      if (current === undefined) throw new NotFoundError(`no key "${id}"`);
      if (current.revoked_at !== null) return current;
      this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(new Date(this.now()).toISOString(), id);
      this.logChange('key', id, 'revoked');
      return this.getKey(id) as KeyRecord;
    }).immediate();
  }

  /** A replacement key with the same settings; the old key stays valid until it is revoked. */
  rotateKey(id: string): { record: KeyRecord; key: string } {
    const old = this.getKey(id);
    if (old === undefined) throw new NotFoundError(`no key "${id}"`);
    if (old.revoked_at !== null) throw new InvalidRequestError(`key "${id}" is revoked; create a new key instead`);
    const plan = this.getPlan(this.getAccount(old.account_id)?.plan ?? '');
    return this.createKey(replacementKey(old, plan));
  }

  /** Last-used times, batched (the policy service writes them at most once a minute per key). */
  touchKeys(lastUsed: ReadonlyMap<string, number>): void {
    if (lastUsed.size === 0) return;
    const stmt = this.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
    this.db.transaction(() => {
      for (const [id, ms] of lastUsed) stmt.run(new Date(ms).toISOString(), id);
    })();
  }

  /** Changes after `seq`, oldest first. */
  changesSince(seq: number): Array<{ seq: number; entity: string; entity_id: string; change: string }> {
    return this.db
      .prepare('SELECT seq, entity, entity_id, change FROM change_log WHERE seq > ? ORDER BY seq')
      .all(seq) as Array<{ seq: number; entity: string; entity_id: string; change: string }>;
  }

  lastChangeSeq(): number {
    const row = this.db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM change_log').get() as { seq: number };
    return row.seq;
  }
}
