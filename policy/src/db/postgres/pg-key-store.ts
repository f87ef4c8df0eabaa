import { InvalidRequestError, NotFoundError, displayApiKey, generateApiKey, hashApiKey, newRecordId } from '@gateway/shared';
import type pg from 'pg';
import { billingPeriod } from '../../billing.js';
import type { NewKey } from '../admin-store.js';
import { resolveAudit, type AccountChanges, type AuditDraft, type CreatedKey, type KeyChange } from '../gateway-store.js';
import type { Account, AccountOverrides, KeyRecord, Plan } from '../records.js';
import { accountFromRow, fullOverrides, keyFromRow, listJson, planFromRow, replacementKey, type AccountRow, type KeyRow, type PlanRow } from '../rows.js';
import { inTransaction, isUniqueViolation, type Queryable } from './pg-pool.js';

/**
 * The transaction-level advisory lock every change-log append takes ("gwchlg"). It serialises the appends until
 * their transactions commit, so change numbers become visible in order: a replica that has read change n can
 * never later find a committed change below n (with plain sequences, a transaction that took n-1 could commit
 * after one that took n, and a poller past n would skip it for good).
 */
const CHANGE_LOG_LOCK = 0x67776368_6c67n.toString();

/** Appends an audit row in the change's transaction. */
export async function appendAuditRow<T>(c: Queryable, draft: AuditDraft<T>, result: T, nowMs: number): Promise<void> {
  const { target, detail } = resolveAudit(draft, result);
  await c.query(
    'INSERT INTO audit_log (at, actor_kind, actor, address, account_id, action, target_id, detail) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
    [new Date(nowMs).toISOString(), draft.actor.kind, draft.actor.name, draft.actor.address, target.accountId, draft.action, target.id, JSON.stringify(detail)],
  );
}

/** Plans, accounts, keys and the change log in PostgreSQL: the same rules as admin-store.ts, statement for statement. */
export class PgKeyStore {
  constructor(private readonly pool: pg.Pool, private readonly now: () => number = Date.now) {}

  /** A change, its change-log entry and its audit row in one transaction. */
  private change<T>(apply: (c: pg.PoolClient) => Promise<T>, audit: AuditDraft<T> | undefined): Promise<T> {
    return inTransaction(this.pool, async (c) => {
      const result = await apply(c);
      if (audit !== undefined) await appendAuditRow(c, audit, result, this.now());
      return result;
    });
  }

  private async logChange(c: Queryable, entity: 'plan' | 'account' | 'key', id: string, change: string): Promise<void> {
    await c.query('SELECT pg_advisory_xact_lock($1)', [CHANGE_LOG_LOCK]);
    await c.query('INSERT INTO change_log (entity, entity_id, change, at_ms) VALUES ($1, $2, $3, $4)', [entity, id, change, this.now()]);
  }

  createPlan(p: Plan, audit?: AuditDraft<Plan>): Promise<Plan> {
    return this.change(async (c) => {
      if ((await this.getPlan(p.name, c)) !== undefined) throw new InvalidRequestError(`plan "${p.name}" already exists`);
      try {
        await c.query(
          `INSERT INTO plans (name, residency, requests_per_minute, concurrency, allowance, overage_allowed, overage_ceiling, models, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [p.name, p.residency, p.requests_per_minute, p.concurrency, p.allowance, p.overage_allowed ? 1 : 0, p.overage_ceiling,
            listJson(p.models), new Date(this.now()).toISOString()],
        );
      } catch (err: unknown) {
        // Two replicas creating the same plan at once: the second sees the first's row only at insert.
        if (isUniqueViolation(err)) throw new InvalidRequestError(`plan "${p.name}" already exists`);
        throw err;
      }
      await this.logChange(c, 'plan', p.name, 'created');
      return p;
    }, audit);
  }

  updatePlan(name: string, changes: Partial<Omit<Plan, 'name'>>, audit?: AuditDraft<Plan>): Promise<Plan> {
    return this.change(async (c) => {
      const current = await this.getPlan(name, c, true);
      if (current === undefined) throw new NotFoundError(`no plan "${name}"`);
      const next: Plan = { ...current, ...changes };
      await c.query(
        `UPDATE plans SET residency = $1, requests_per_minute = $2, concurrency = $3, allowance = $4, overage_allowed = $5,
           overage_ceiling = $6, models = $7 WHERE name = $8`,
        [next.residency, next.requests_per_minute, next.concurrency, next.allowance, next.overage_allowed ? 1 : 0,
          next.overage_ceiling, listJson(next.models), name],
      );
      await this.logChange(c, 'plan', name, 'updated');
      return next;
    }, audit);
  }

  async getPlan(name: string, c: Queryable = this.pool, forUpdate = false): Promise<Plan | undefined> {
    const r = await c.query<PlanRow>(`SELECT * FROM plans WHERE name = $1${forUpdate ? ' FOR UPDATE' : ''}`, [name]);
    return r.rows[0] === undefined ? undefined : planFromRow(r.rows[0]);
  }

  async listPlans(): Promise<Plan[]> {
    return (await this.pool.query<PlanRow>('SELECT * FROM plans ORDER BY created_at, name')).rows.map(planFromRow);
  }

  createAccount(name: string, plan: string, overrides: Partial<AccountOverrides> = {}, anchorDay: number | null = null, audit?: AuditDraft<Account>): Promise<Account> {
    return this.change(async (c) => {
      if ((await this.getPlan(plan, c)) === undefined) throw new InvalidRequestError(`no plan "${plan}"`);
      const id = newRecordId('acct');
      const o = fullOverrides(overrides);
      await c.query(
        `INSERT INTO accounts (id, name, plan, requests_per_minute, concurrency, allowance, overage_allowed, overage_ceiling, anchor_day, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [id, name, plan, o.requests_per_minute, o.concurrency, o.allowance, o.overage_allowed === null ? null : o.overage_allowed ? 1 : 0,
          o.overage_ceiling, anchorDay, new Date(this.now()).toISOString()],
      );
      await this.logChange(c, 'account', id, 'created');
      return (await this.getAccount(id, c)) as Account;
    }, audit);
  }

  updateAccount(id: string, changes: AccountChanges, audit?: AuditDraft<Account>): Promise<Account> {
    return this.change(async (c) => {
      const current = await this.getAccount(id, c, true);
      if (current === undefined) throw new NotFoundError(`no account "${id}"`);
      const plan = changes.plan ?? current.plan;
      if ((await this.getPlan(plan, c)) === undefined) throw new InvalidRequestError(`no plan "${plan}"`);
      const o = { ...current.overrides, ...changes.overrides };
      const anchor = changes.anchor_day === undefined ? current.anchor_day : changes.anchor_day;
      await c.query(
        `UPDATE accounts SET plan = $1, requests_per_minute = $2, concurrency = $3, allowance = $4, overage_allowed = $5,
           overage_ceiling = $6, anchor_day = $7 WHERE id = $8`,
        [plan, o.requests_per_minute, o.concurrency, o.allowance, o.overage_allowed === null ? null : o.overage_allowed ? 1 : 0,
          o.overage_ceiling, anchor, id],
      );
      // Totals are kept per billing period: new period boundaries mean the account's totals are refiled.
      if (anchor !== current.anchor_day) await rebuildTotals(c, id, anchor);
      await this.logChange(c, 'account', id, 'updated');
      return (await this.getAccount(id, c)) as Account;
    }, audit);
  }

  async getAccount(id: string, c: Queryable = this.pool, forUpdate = false): Promise<Account | undefined> {
    const r = await c.query<AccountRow>(`SELECT * FROM accounts WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [id]);
    return r.rows[0] === undefined ? undefined : accountFromRow(r.rows[0]);
  }

  async listAccounts(): Promise<Account[]> {
    return (await this.pool.query<AccountRow>('SELECT * FROM accounts ORDER BY created_at, id')).rows.map(accountFromRow);
  }

  createKey(k: NewKey, audit?: AuditDraft<CreatedKey>): Promise<CreatedKey> {
    return this.change((c) => this.insertKey(c, k), audit);
  }

  private async insertKey(c: pg.PoolClient, k: NewKey): Promise<CreatedKey> {
    const account = await this.getAccount(k.account_id, c);
    if (account === undefined) throw new NotFoundError(`no account "${k.account_id}"`);
    const plan = (await this.getPlan(account.plan, c)) as Plan;
    if (plan.residency === 'uk' && k.residency === 'eu') {
      throw new InvalidRequestError(`plan "${plan.name}" permits only uk keys; an eu key would exceed the plan's residency`);
    }
    const key = generateApiKey(k.environment);
    const id = newRecordId('key');
    await c.query(
      `INSERT INTO api_keys (id, account_id, name, key_hash, display, environment, residency, privacy_mode, allowed_models, allowed_ips,
         expires_at, requests_per_minute, rotated_from, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [id, k.account_id, k.name, hashApiKey(key), displayApiKey(key), k.environment, k.residency, k.privacy_mode, listJson(k.allowed_models),
        listJson(k.allowed_ips), k.expires_at ?? null, k.requests_per_minute ?? null, k.rotated_from ?? null, new Date(this.now()).toISOString()],
    );
    await this.logChange(c, 'key', id, 'created');
    return { record: (await this.getKey(id, c)) as KeyRecord, key };
  }

  async getKey(id: string, c: Queryable = this.pool, forUpdate = false): Promise<KeyRecord | undefined> {
    const r = await c.query<KeyRow>(`SELECT * FROM api_keys WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [id]);
    return r.rows[0] === undefined ? undefined : keyFromRow(r.rows[0]);
  }

  async findKeyByHash(hash: string): Promise<KeyRecord | undefined> {
    const r = await this.pool.query<KeyRow>({ name: 'key_by_hash', text: 'SELECT * FROM api_keys WHERE key_hash = $1', values: [hash] });
    return r.rows[0] === undefined ? undefined : keyFromRow(r.rows[0]);
  }

  async listKeys(accountId?: string): Promise<KeyRecord[]> {
    const r = accountId === undefined
      ? await this.pool.query<KeyRow>('SELECT * FROM api_keys ORDER BY created_at, id')
      : await this.pool.query<KeyRow>('SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at, id', [accountId]);
    return r.rows.map(keyFromRow);
  }

  revokeKey(id: string, audit?: AuditDraft<KeyRecord>): Promise<KeyRecord> {
    return this.change(async (c) => {
      const current = await this.getKey(id, c, true);
      if (current === undefined) throw new NotFoundError(`no key "${id}"`);
      if (current.revoked_at !== null) return current;
      await c.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2', [new Date(this.now()).toISOString(), id]);
      await this.logChange(c, 'key', id, 'revoked');
      return (await this.getKey(id, c)) as KeyRecord;
    }, audit);
  }

  rotateKey(id: string, audit?: AuditDraft<CreatedKey>): Promise<CreatedKey> {
    return this.change(async (c) => {
      const old = await this.getKey(id, c);
      if (old === undefined) throw new NotFoundError(`no key "${id}"`);
      if (old.revoked_at !== null) throw new InvalidRequestError(`key "${id}" is revoked; create a new key instead`);
      const plan = await this.getPlan((await this.getAccount(old.account_id, c))?.plan ?? '', c);
      return this.insertKey(c, replacementKey(old, plan));
    }, audit);
  }

  async touchKeys(lastUsed: ReadonlyMap<string, number>): Promise<void> {
    if (lastUsed.size === 0) return;
    const ids = [...lastUsed.keys()];
    const at = [...lastUsed.values()].map((ms) => new Date(ms).toISOString());
    await this.pool.query(
      'UPDATE api_keys AS k SET last_used_at = v.at FROM unnest($1::text[], $2::text[]) AS v(id, at) WHERE k.id = v.id',
      [ids, at],
    );
  }

  async changesSince(seq: number): Promise<KeyChange[]> {
    const r = await this.pool.query<KeyChange>({
      name: 'changes_since',
      text: 'SELECT seq, entity, entity_id, change FROM change_log WHERE seq > $1 ORDER BY seq',
      values: [seq],
    });
    return r.rows;
  }

  async lastChangeSeq(): Promise<number> {
    return (await this.pool.query<{ seq: number }>('SELECT COALESCE(MAX(seq), 0)::bigint AS seq FROM change_log')).rows[0]?.seq ?? 0;
  }
}

/** Refiles an account's period totals from its ledger rows under the billing periods of `anchorDay`. */
async function rebuildTotals(c: Queryable, accountId: string, anchorDay: number | null): Promise<void> {
  const rows = await c.query<{ environment: string; model: string; billable_units: number; cost_units: number; finished_at_ms: number }>(
    'SELECT environment, model, billable_units, cost_units, finished_at_ms FROM usage_ledger WHERE account_id = $1',
    [accountId],
  );
  const totals = new Map<string, { environment: string; model: string; start: number; requests: number; units: number; cost: bigint }>();
  for (const r of rows.rows) {
    const start = billingPeriod(r.finished_at_ms, anchorDay).startMs;
    const k = `${r.environment}\u0000${start}\u0000${r.model}`;
    const t = totals.get(k) ?? { environment: r.environment, model: r.model, start, requests: 0, units: 0, cost: 0n };
    t.requests += 1;
    t.units += r.billable_units;
    t.cost += BigInt(r.cost_units);
    totals.set(k, t);
  }
  await c.query('DELETE FROM usage_totals WHERE account_id = $1', [accountId]);
  for (const t of totals.values()) {
    await c.query(
      `INSERT INTO usage_totals (account_id, environment, period_start_ms, model, requests, billable_units, cost_units)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [accountId, t.environment, t.start, t.model, t.requests, t.units, t.cost.toString()],
    );
  }
}
