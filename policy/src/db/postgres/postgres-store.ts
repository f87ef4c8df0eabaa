import { InvalidRequestError, type Environment } from '@gateway/shared';
import type pg from 'pg';
import type { NewKey } from '../admin-store.js';
import type { AdminIdentity, AdminSession, AdminToken, Administrator, ProviderSession } from '../administrators.js';
import type { AuditActor, AuditEntry } from '../audit-log.js';
import type { AccountChanges, AuditDraft, AuditTarget, CreatedKey, GatewayStore, KeyChange } from '../gateway-store.js';
import type { Account, AccountOverrides, KeyRecord, Plan } from '../records.js';
import { RESIDENCY_GROUPS, residencyRow, type DailyUsageRow, type KeyTotals, type ModelTotals, type RawResidencyRow, type ResidencyReportRow } from '../usage-queries.js';
import { PgKeyStore, appendAuditRow } from './pg-key-store.js';
import { migratePostgres } from './pg-migrate.js';
import { createPool, inTransaction, isUniqueViolation } from './pg-pool.js';

const DAY = `to_char(to_timestamp(finished_at_ms / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;

/**
 * The PostgreSQL engine (`DATABASE_URL`): one database shared by any number of policy replicas and gatewayctl.
 * The same tables, columns and rules as the SQLite engine; each change and its audit row commit in one
 * transaction on one pooled connection.
 */
export class PostgresStore implements GatewayStore {
  readonly engine = 'postgres';
  private readonly keys: PgKeyStore;

  private constructor(readonly pool: pg.Pool, private readonly now: () => number) {
    this.keys = new PgKeyStore(pool, now);
  }

  /** Connects, then brings the schema up to date (safe when several replicas start at once). */
  static async open(url: string, options: { now?: () => number; onIdleError?: (err: Error) => void; poolSize?: number } = {}): Promise<PostgresStore> {
    const pool = createPool(url, options.onIdleError ?? (() => undefined), options.poolSize);
    try {
      await migratePostgres(pool);
    } catch (err: unknown) {
      await pool.end();
      throw err;
    }
    return new PostgresStore(pool, options.now ?? Date.now);
  }

  // ---- plans, accounts, keys (pg-key-store.ts) -----------------------------------------------------------------

  createPlan(p: Plan, audit?: AuditDraft<Plan>): Promise<Plan> {
    return this.keys.createPlan(p, audit);
  }
  updatePlan(name: string, changes: Partial<Omit<Plan, 'name'>>, audit?: AuditDraft<Plan>): Promise<Plan> {
    return this.keys.updatePlan(name, changes, audit);
  }
  getPlan(name: string): Promise<Plan | undefined> {
    return this.keys.getPlan(name);
  }
  listPlans(): Promise<Plan[]> {
    return this.keys.listPlans();
  }
  createAccount(name: string, plan: string, overrides?: Partial<AccountOverrides>, anchorDay?: number | null, audit?: AuditDraft<Account>): Promise<Account> {
    return this.keys.createAccount(name, plan, overrides, anchorDay, audit);
  }
  updateAccount(id: string, changes: AccountChanges, audit?: AuditDraft<Account>): Promise<Account> {
    return this.keys.updateAccount(id, changes, audit);
  }
  getAccount(id: string): Promise<Account | undefined> {
    return this.keys.getAccount(id);
  }
  listAccounts(): Promise<Account[]> {
    return this.keys.listAccounts();
  }
  createKey(k: NewKey, audit?: AuditDraft<CreatedKey>): Promise<CreatedKey> {
    return this.keys.createKey(k, audit);
  }
  getKey(id: string): Promise<KeyRecord | undefined> {
    return this.keys.getKey(id);
  }
  findKeyByHash(hash: string): Promise<KeyRecord | undefined> {
    return this.keys.findKeyByHash(hash);
  }
  listKeys(accountId?: string): Promise<KeyRecord[]> {
    return this.keys.listKeys(accountId);
  }
  revokeKey(id: string, audit?: AuditDraft<KeyRecord>): Promise<KeyRecord> {
    return this.keys.revokeKey(id, audit);
  }
  rotateKey(id: string, audit?: AuditDraft<CreatedKey>): Promise<CreatedKey> {
    return this.keys.rotateKey(id, audit);
  }
  touchKeys(lastUsed: ReadonlyMap<string, number>): Promise<void> {
    return this.keys.touchKeys(lastUsed);
  }
  changesSince(seq: number): Promise<KeyChange[]> {
    return this.keys.changesSince(seq);
  }
  lastChangeSeq(): Promise<number> {
    return this.keys.lastChangeSeq();
  }

  // ---- administrators ------------------------------------------------------------------------------------------

  async insertAdmin(a: Administrator, audit?: AuditDraft<Administrator>): Promise<Administrator> {
    try {
      return await inTransaction(this.pool, async (c) => {
        await c.query('INSERT INTO administrators (id, email, account_id, password_hash, created_at) VALUES ($1, $2, $3, $4, $5)',
          [a.id, a.email, a.account_id, a.password_hash, a.created_at]);
        if (audit !== undefined) await appendAuditRow(c, audit, a, this.now());
        return a;
      });
    } catch (err: unknown) {
      if (isUniqueViolation(err)) throw new InvalidRequestError(`an administrator "${a.email}" already exists`);
      throw err;
    }
  }
  async adminByEmail(email: string): Promise<Administrator | undefined> {
    return (await this.pool.query<Administrator>('SELECT * FROM administrators WHERE email = $1', [email.toLowerCase()])).rows[0];
  }
  async adminById(id: string): Promise<Administrator | undefined> {
    return (await this.pool.query<Administrator>('SELECT * FROM administrators WHERE id = $1', [id])).rows[0];
  }
  async listAdmins(accountId: string | undefined): Promise<Administrator[]> {
    return (accountId === undefined
      ? await this.pool.query<Administrator>('SELECT * FROM administrators ORDER BY created_at, id')
      : await this.pool.query<Administrator>('SELECT * FROM administrators WHERE account_id = $1 ORDER BY created_at, id', [accountId])).rows;
  }
  insertToken(t: AdminToken, audit?: AuditDraft<AdminToken>): Promise<AdminToken> {
    return inTransaction(this.pool, async (c) => {
      await c.query('INSERT INTO admin_tokens (id, admin_id, name, token_hash, display, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [t.id, t.admin_id, t.name, t.token_hash, t.display, t.created_at]);
      if (audit !== undefined) await appendAuditRow(c, audit, t, this.now());
      return t;
    });
  }
  async listTokens(adminIds: readonly string[]): Promise<AdminToken[]> {
    if (adminIds.length === 0) return [];
    return (await this.pool.query<AdminToken>('SELECT * FROM admin_tokens WHERE admin_id = ANY($1::text[]) ORDER BY created_at DESC, id', [adminIds])).rows;
  }
  async tokenById(id: string): Promise<AdminToken | undefined> {
    return (await this.pool.query<AdminToken>('SELECT * FROM admin_tokens WHERE id = $1', [id])).rows[0];
  }
  async tokenByHash(hash: string): Promise<AdminToken | undefined> {
    return (await this.pool.query<AdminToken>('SELECT * FROM admin_tokens WHERE token_hash = $1', [hash])).rows[0];
  }
  revokeToken(id: string, at: string, audit?: AuditDraft<void>): Promise<void> {
    return inTransaction(this.pool, async (c) => {
      await c.query('UPDATE admin_tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [at, id]);
      if (audit !== undefined) await appendAuditRow(c, audit, undefined, this.now());
    });
  }
  async touchToken(id: string, at: string): Promise<void> {
    await this.pool.query('UPDATE admin_tokens SET last_used_at = $1 WHERE id = $2', [at, id]);
  }
  async insertSession(s: AdminSession): Promise<void> {
    await this.pool.query('INSERT INTO admin_sessions (id_hash, admin_id, csrf_token, created_at_ms, expires_at_ms) VALUES ($1, $2, $3, $4, $5)',
      [s.id_hash, s.admin_id, s.csrf_token, s.created_at_ms, s.expires_at_ms]);
  }
  async session(idHash: string): Promise<AdminSession | undefined> {
    return (await this.pool.query<AdminSession>('SELECT * FROM admin_sessions WHERE id_hash = $1', [idHash])).rows[0];
  }
  async deleteSession(idHash: string): Promise<void> {
    await this.pool.query('DELETE FROM admin_sessions WHERE id_hash = $1', [idHash]);
  }
  async deleteExpiredSessions(nowMs: number): Promise<void> {
    await this.pool.query('DELETE FROM admin_sessions WHERE expires_at_ms <= $1', [nowMs]);
  }

  // ---- identity-provider administrators -------------------------------------------------------------------------

  async identityBySubject(issuer: string, subject: string): Promise<AdminIdentity | undefined> {
    return (await this.pool.query<AdminIdentity>('SELECT * FROM admin_identities WHERE issuer = $1 AND subject = $2', [issuer, subject])).rows[0];
  }
  async identityOf(adminId: string): Promise<AdminIdentity | undefined> {
    return (await this.pool.query<AdminIdentity>('SELECT * FROM admin_identities WHERE admin_id = $1', [adminId])).rows[0];
  }
  async insertProviderAdmin(a: Administrator, identity: AdminIdentity, audit?: AuditDraft<Administrator>): Promise<Administrator> {
    try {
      return await inTransaction(this.pool, async (c) => {
        await c.query('INSERT INTO administrators (id, email, account_id, password_hash, created_at) VALUES ($1, $2, $3, $4, $5)',
          [a.id, a.email, a.account_id, a.password_hash, a.created_at]);
        await c.query('INSERT INTO admin_identities (admin_id, issuer, subject, email) VALUES ($1, $2, $3, $4)',
          [identity.admin_id, identity.issuer, identity.subject, identity.email]);
        if (audit !== undefined) await appendAuditRow(c, audit, a, this.now());
        return a;
      });
    } catch (err: unknown) {
      if (isUniqueViolation(err)) throw new InvalidRequestError(`an administrator for ${identity.issuer} subject ${identity.subject} already exists`);
      throw err;
    }
  }
  updateProviderAdmin(adminId: string, accountId: string | null, email: string | null, audit?: AuditDraft<void>): Promise<void> {
    return inTransaction(this.pool, async (c) => {
      await c.query('UPDATE administrators SET account_id = $1 WHERE id = $2', [accountId, adminId]);
      await c.query('UPDATE admin_identities SET email = $1 WHERE admin_id = $2', [email, adminId]);
      if (audit !== undefined) await appendAuditRow(c, audit, undefined, this.now());
    });
  }
  insertProviderSession(s: AdminSession, p: ProviderSession): Promise<void> {
    return inTransaction(this.pool, async (c) => {
      await c.query('INSERT INTO admin_sessions (id_hash, admin_id, csrf_token, created_at_ms, expires_at_ms) VALUES ($1, $2, $3, $4, $5)',
        [s.id_hash, s.admin_id, s.csrf_token, s.created_at_ms, s.expires_at_ms]);
      await c.query('INSERT INTO provider_sessions (id_hash, admin_id, refresh_token, recheck_at_ms, idle_expires_at_ms) VALUES ($1, $2, $3, $4, $5)',
        [p.id_hash, p.admin_id, p.refresh_token, p.recheck_at_ms, p.idle_expires_at_ms]);
    });
  }
  async providerSession(idHash: string): Promise<ProviderSession | undefined> {
    return (await this.pool.query<ProviderSession>('SELECT * FROM provider_sessions WHERE id_hash = $1', [idHash])).rows[0];
  }
  async dueProviderSessions(nowMs: number, limit: number): Promise<ProviderSession[]> {
    return (await this.pool.query<ProviderSession>('SELECT * FROM provider_sessions WHERE recheck_at_ms <= $1 ORDER BY recheck_at_ms LIMIT $2', [nowMs, limit])).rows;
  }
  async claimRecheck(idHash: string, expectedAtMs: number, nextAtMs: number): Promise<boolean> {
    return (await this.pool.query('UPDATE provider_sessions SET recheck_at_ms = $1 WHERE id_hash = $2 AND recheck_at_ms = $3', [nextAtMs, idHash, expectedAtMs])).rowCount === 1;
  }
  async updateProviderSession(p: ProviderSession): Promise<void> {
    await this.pool.query('UPDATE provider_sessions SET refresh_token = $1, recheck_at_ms = $2, idle_expires_at_ms = $3 WHERE id_hash = $4',
      [p.refresh_token, p.recheck_at_ms, p.idle_expires_at_ms, p.id_hash]);
  }
  deleteProviderSession(idHash: string): Promise<void> {
    return inTransaction(this.pool, async (c) => {
      await c.query('DELETE FROM provider_sessions WHERE id_hash = $1', [idHash]);
      await c.query('DELETE FROM admin_sessions WHERE id_hash = $1', [idHash]);
    });
  }
  endAdminAccess(adminId: string, at: string, audit?: AuditDraft<number>): Promise<number> {
    return inTransaction(this.pool, async (c) => {
      await c.query('DELETE FROM provider_sessions WHERE admin_id = $1', [adminId]);
      await c.query('DELETE FROM admin_sessions WHERE admin_id = $1', [adminId]);
      const revoked = (await c.query('UPDATE admin_tokens SET revoked_at = $1 WHERE admin_id = $2 AND revoked_at IS NULL', [at, adminId])).rowCount ?? 0;
      if (audit !== undefined) await appendAuditRow(c, audit, revoked, this.now());
      return revoked;
    });
  }
  setTokenExpiry(tokenId: string, expiresAtMs: number, audit?: AuditDraft<void>): Promise<void> {
    return inTransaction(this.pool, async (c) => {
      await c.query('INSERT INTO admin_token_lifetimes (token_id, expires_at_ms) VALUES ($1, $2) ON CONFLICT (token_id) DO UPDATE SET expires_at_ms = excluded.expires_at_ms',
        [tokenId, expiresAtMs]);
      if (audit !== undefined) await appendAuditRow(c, audit, undefined, this.now());
    });
  }
  async tokenExpiry(tokenId: string): Promise<number | undefined> {
    const row = (await this.pool.query<{ expires_at_ms: number }>('SELECT expires_at_ms FROM admin_token_lifetimes WHERE token_id = $1', [tokenId])).rows[0];
    return row === undefined ? undefined : Number(row.expires_at_ms);
  }
  async claimHandshake(stateHash: string, expiresAtMs: number, nowMs: number): Promise<boolean> {
    await this.pool.query('DELETE FROM sign_in_handshakes WHERE expires_at_ms <= $1', [nowMs]);
    return (await this.pool.query('INSERT INTO sign_in_handshakes (state_hash, expires_at_ms) VALUES ($1, $2) ON CONFLICT (state_hash) DO NOTHING', [stateHash, expiresAtMs])).rowCount === 1;
  }

  // ---- audit ---------------------------------------------------------------------------------------------------

  async appendAudit(actor: AuditActor, action: string, target: AuditTarget, detail: Record<string, unknown> = {}): Promise<void> {
    await appendAuditRow(this.pool, { actor, action, target, detail }, undefined, this.now());
  }
  async listAudit(accountId: string | undefined, limit = 500): Promise<AuditEntry[]> {
    const r = accountId === undefined
      ? await this.pool.query<AuditEntry & { detail: string }>('SELECT * FROM audit_log ORDER BY seq DESC LIMIT $1', [limit])
      : await this.pool.query<AuditEntry & { detail: string }>('SELECT * FROM audit_log WHERE account_id = $1 ORDER BY seq DESC LIMIT $2', [accountId, limit]);
    return r.rows.map((row) => ({ ...row, detail: JSON.parse(row.detail) as Record<string, unknown> }));
  }

  // ---- usage (read side) ---------------------------------------------------------------------------------------

  dailyByModel(accountId: string, fromMs: number, toMs: number): Promise<DailyUsageRow[]> {
    return this.daily('account_id', accountId, fromMs, toMs);
  }
  keyDailyByModel(keyId: string, fromMs: number, toMs: number): Promise<DailyUsageRow[]> {
    return this.daily('key_id', keyId, fromMs, toMs);
  }
  private async daily(column: 'account_id' | 'key_id', id: string, fromMs: number, toMs: number): Promise<DailyUsageRow[]> {
    const r = await this.pool.query<{ date: string; environment: Environment; model: string; requests: number; billable_units: string; cost_units: string }>(
      `SELECT ${DAY} AS date, environment, model, COUNT(*) AS requests, SUM(billable_units)::text AS billable_units,
         SUM(cost_units)::text AS cost_units
       FROM usage_ledger WHERE ${column} = $1 AND finished_at_ms >= $2 AND finished_at_ms < $3
       GROUP BY 1, environment, model ORDER BY 1, environment, model COLLATE "C"`,
      [id, fromMs, toMs],
    );
    return r.rows.map((row) => ({ ...row, billable_units: Number(row.billable_units), cost_units: BigInt(row.cost_units) }));
  }
  async perKeySince(accountId: string, fromMs: number): Promise<Map<string, KeyTotals>> {
    const r = await this.pool.query<{ key_id: string; requests: number; billable_units: string }>(
      `SELECT key_id, COUNT(*) AS requests, SUM(billable_units)::text AS billable_units
       FROM usage_ledger WHERE account_id = $1 AND finished_at_ms >= $2 GROUP BY key_id`,
      [accountId, fromMs],
    );
    return new Map(r.rows.map((row) => [row.key_id, { requests: row.requests, billable_units: Number(row.billable_units) }]));
  }
  async usedUnits(accountId: string, startMs: number): Promise<number> {
    const r = await this.pool.query<{ used: string }>(
      `SELECT COALESCE(SUM(billable_units), 0)::text AS used FROM usage_totals
       WHERE account_id = $1 AND environment = 'live' AND period_start_ms = $2`,
      [accountId, startMs],
    );
    return Number(r.rows[0]?.used ?? 0);
  }
  async byModel(accountId: string, environment: Environment, startMs: number): Promise<ModelTotals[]> {
    const r = await this.pool.query<{ model: string; requests: number; billable_units: number; cost_units: string }>(
      `SELECT model, requests, billable_units, cost_units::text AS cost_units FROM usage_totals
       WHERE account_id = $1 AND environment = $2 AND period_start_ms = $3 ORDER BY model COLLATE "C"`,
      [accountId, environment, startMs],
    );
    return r.rows.map((row) => ({ ...row, cost_units: BigInt(row.cost_units) }));
  }
  async residencyReport(accountId: string | undefined, fromMs: number, toMs: number): Promise<ResidencyReportRow[]> {
    // As SQLite's: byte order ("C") and nulls first, so both engines list the rows alike.
    const r = await this.pool.query<RawResidencyRow>(
      `SELECT ${DAY} AS date, ${RESIDENCY_GROUPS.join(', ')}, COUNT(*) AS requests, SUM(billable_units)::text AS billable_units
       FROM usage_ledger
       WHERE ${accountId === undefined ? '' : 'account_id = $3 AND '}environment = 'live' AND finished_at_ms >= $1 AND finished_at_ms < $2
       GROUP BY 1, ${RESIDENCY_GROUPS.join(', ')}
       ORDER BY 1, ${RESIDENCY_GROUPS.map((c) => `${c} COLLATE "C" NULLS FIRST`).join(', ')}`,
      accountId === undefined ? [fromMs, toMs] : [fromMs, toMs, accountId],
    );
    return r.rows.map(residencyRow);
  }

  async ping(): Promise<boolean> {
    try {
      await this.pool.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
