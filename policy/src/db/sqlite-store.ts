import { InvalidRequestError, type Environment } from '@gateway/shared';
import { AdminStore, type NewKey } from './admin-store.js';
import { AdministratorStore, type AdminIdentity, type AdminSession, type AdminToken, type Administrator, type ProviderSession } from './administrators.js';
import { ProviderIdentityStore } from './provider-identities.js';
import { AuditLog, type AuditActor, type AuditEntry } from './audit-log.js';
import type { Db } from './database.js';
import {
  resolveAudit,
  type AccountChanges,
  type AuditDraft,
  type AuditTarget,
  type CreatedKey,
  type GatewayStore,
  type KeyChange,
} from './gateway-store.js';
import type { Account, AccountOverrides, KeyRecord, Plan } from './records.js';
import { UsageQueries, type DailyUsageRow, type KeyTotals, type ModelTotals, type ResidencyReportRow } from './usage-queries.js';

/**
 * The SQLite engine (better-sqlite3): the embedded default, one policy process per database file. Statements
 * run synchronously underneath; each change and its audit entry commit in one immediate transaction, which no
 * other work can interleave with (nothing is awaited inside it).
 */
export class SqliteStore implements GatewayStore {
  readonly engine = 'sqlite';
  private readonly keys: AdminStore;
  private readonly admins: AdministratorStore;
  private readonly providers: ProviderIdentityStore;
  private readonly audit: AuditLog;
  private readonly usage: UsageQueries;

  constructor(readonly db: Db, now: () => number = Date.now) {
    this.keys = new AdminStore(db, now);
    this.admins = new AdministratorStore(db);
    this.providers = new ProviderIdentityStore(db);
    this.audit = new AuditLog(db, now);
    this.usage = new UsageQueries(db);
  }

  /** Runs a change (and its audit entry) in one transaction; a thrown error rejects the promise. */
  private async change<T>(apply: () => T, draft: AuditDraft<T> | undefined): Promise<T> {
    return this.db.transaction(() => {
      const result = apply();
      if (draft !== undefined) {
        const { target, detail } = resolveAudit(draft, result);
        this.audit.append(draft.actor, draft.action, target, detail);
      }
      return result;
    }).immediate();
  }

  // ---- plans, accounts, keys -----------------------------------------------------------------------------------

  createPlan(p: Plan, audit?: AuditDraft<Plan>): Promise<Plan> {
    return this.change(() => this.keys.createPlan(p), audit);
  }
  updatePlan(name: string, changes: Partial<Omit<Plan, 'name'>>, audit?: AuditDraft<Plan>): Promise<Plan> {
    return this.change(() => this.keys.updatePlan(name, changes), audit);
  }
  async getPlan(name: string): Promise<Plan | undefined> {
    return this.keys.getPlan(name);
  }
  async listPlans(): Promise<Plan[]> {
    return this.keys.listPlans();
  }
  createAccount(name: string, plan: string, overrides: Partial<AccountOverrides> = {}, anchorDay: number | null = null, audit?: AuditDraft<Account>): Promise<Account> {
    return this.change(() => this.keys.createAccount(name, plan, overrides, anchorDay), audit);
  }
  updateAccount(id: string, changes: AccountChanges, audit?: AuditDraft<Account>): Promise<Account> {
    return this.change(() => this.keys.updateAccount(id, changes), audit);
  }
  async getAccount(id: string): Promise<Account | undefined> {
    return this.keys.getAccount(id);
  }
  async listAccounts(): Promise<Account[]> {
    return this.keys.listAccounts();
  }
  createKey(k: NewKey, audit?: AuditDraft<CreatedKey>): Promise<CreatedKey> {
    return this.change(() => this.keys.createKey(k), audit);
  }
  async getKey(id: string): Promise<KeyRecord | undefined> {
    return this.keys.getKey(id);
  }
  async findKeyByHash(hash: string): Promise<KeyRecord | undefined> {
    return this.keys.findKeyByHash(hash);
  }
  async listKeys(accountId?: string): Promise<KeyRecord[]> {
    return this.keys.listKeys(accountId);
  }
  revokeKey(id: string, audit?: AuditDraft<KeyRecord>): Promise<KeyRecord> {
    return this.change(() => this.keys.revokeKey(id), audit);
  }
  rotateKey(id: string, audit?: AuditDraft<CreatedKey>): Promise<CreatedKey> {
    return this.change(() => this.keys.rotateKey(id), audit);
  }
  async touchKeys(lastUsed: ReadonlyMap<string, number>): Promise<void> {
    this.keys.touchKeys(lastUsed);
  }
  async changesSince(seq: number): Promise<KeyChange[]> {
    return this.keys.changesSince(seq);
  }
  async lastChangeSeq(): Promise<number> {
    return this.keys.lastChangeSeq();
  }

  // ---- administrators ------------------------------------------------------------------------------------------

  insertAdmin(a: Administrator, audit?: AuditDraft<Administrator>): Promise<Administrator> {
    return this.change(() => {
      if (this.admins.adminByEmail(a.email) !== undefined) throw new InvalidRequestError(`an administrator "${a.email}" already exists`);
      this.admins.insertAdmin(a);
      return a;
    }, audit);
  }
  async adminByEmail(email: string): Promise<Administrator | undefined> {
    return this.admins.adminByEmail(email);
  }
  async adminById(id: string): Promise<Administrator | undefined> {
    return this.admins.adminById(id);
  }
  async listAdmins(accountId: string | undefined): Promise<Administrator[]> {
    return this.admins.listAdmins(accountId);
  }
  insertToken(t: AdminToken, audit?: AuditDraft<AdminToken>): Promise<AdminToken> {
    return this.change(() => {
      this.admins.insertToken(t);
      return t;
    }, audit);
  }
  async listTokens(adminIds: readonly string[]): Promise<AdminToken[]> {
    return this.admins.listTokens(adminIds);
  }
  async tokenById(id: string): Promise<AdminToken | undefined> {
    return this.admins.tokenById(id);
  }
  async tokenByHash(hash: string): Promise<AdminToken | undefined> {
    return this.admins.tokenByHash(hash);
  }
  revokeToken(id: string, at: string, audit?: AuditDraft<void>): Promise<void> {
    return this.change(() => this.admins.revokeToken(id, at), audit);
  }
  async touchToken(id: string, at: string): Promise<void> {
    this.admins.touchToken(id, at);
  }
  async insertSession(s: AdminSession): Promise<void> {
    this.admins.insertSession(s);
  }
  async session(idHash: string): Promise<AdminSession | undefined> {
    return this.admins.session(idHash);
  }
  async deleteSession(idHash: string): Promise<void> {
    this.admins.deleteSession(idHash);
  }
  async deleteExpiredSessions(nowMs: number): Promise<void> {
    this.admins.deleteExpiredSessions(nowMs);
  }

  // ---- identity-provider administrators -------------------------------------------------------------------------

  async identityBySubject(issuer: string, subject: string): Promise<AdminIdentity | undefined> {
    return this.providers.identityBySubject(issuer, subject);
  }
  async identityOf(adminId: string): Promise<AdminIdentity | undefined> {
    return this.providers.identityOf(adminId);
  }
  insertProviderAdmin(a: Administrator, identity: AdminIdentity, audit?: AuditDraft<Administrator>): Promise<Administrator> {
    return this.change(() => {
      if (this.admins.adminByEmail(a.email) !== undefined || this.providers.identityBySubject(identity.issuer, identity.subject) !== undefined) {
        throw new InvalidRequestError(`an administrator for ${identity.issuer} subject ${identity.subject} already exists`);
      }
      this.admins.insertAdmin(a);
      this.providers.insertIdentity(identity);
      return a;
    }, audit);
  }
  updateProviderAdmin(adminId: string, accountId: string | null, email: string | null, audit?: AuditDraft<void>): Promise<void> {
    return this.change(() => this.providers.updateIdentity(adminId, accountId, email), audit);
  }
  insertProviderSession(s: AdminSession, p: ProviderSession): Promise<void> {
    return this.change(() => {
      this.admins.insertSession(s);
      this.providers.insertProviderSession(p);
    }, undefined);
  }
  async providerSession(idHash: string): Promise<ProviderSession | undefined> {
    return this.providers.providerSession(idHash);
  }
  async dueProviderSessions(nowMs: number, limit: number): Promise<ProviderSession[]> {
    return this.providers.dueSessions(nowMs, limit);
  }
  async claimRecheck(idHash: string, expectedAtMs: number, nextAtMs: number): Promise<boolean> {
    return this.providers.claimRecheck(idHash, expectedAtMs, nextAtMs);
  }
  async updateProviderSession(p: ProviderSession): Promise<void> {
    this.providers.updateProviderSession(p);
  }
  deleteProviderSession(idHash: string): Promise<void> {
    return this.change(() => this.providers.deleteSession(idHash), undefined);
  }
  endAdminAccess(adminId: string, at: string, audit?: AuditDraft<number>): Promise<number> {
    return this.change(() => this.providers.endAccess(adminId, at), audit);
  }
  setTokenExpiry(tokenId: string, expiresAtMs: number, audit?: AuditDraft<void>): Promise<void> {
    return this.change(() => this.providers.setTokenExpiry(tokenId, expiresAtMs), audit);
  }
  async tokenExpiry(tokenId: string): Promise<number | undefined> {
    return this.providers.tokenExpiry(tokenId);
  }
  async claimHandshake(stateHash: string, expiresAtMs: number, nowMs: number): Promise<boolean> {
    return this.providers.claimHandshake(stateHash, expiresAtMs, nowMs);
  }

  // ---- audit ---------------------------------------------------------------------------------------------------

  async appendAudit(actor: AuditActor, action: string, target: AuditTarget, detail: Record<string, unknown> = {}): Promise<void> {
    this.audit.append(actor, action, target, detail);
  }
  async listAudit(accountId: string | undefined, limit?: number): Promise<AuditEntry[]> {
    return this.audit.list(accountId, limit);
  }

  // ---- usage (read side) ---------------------------------------------------------------------------------------

  async dailyByModel(accountId: string, fromMs: number, toMs: number): Promise<DailyUsageRow[]> {
    return this.usage.dailyByModel(accountId, fromMs, toMs);
  }
  async keyDailyByModel(keyId: string, fromMs: number, toMs: number): Promise<DailyUsageRow[]> {
    return this.usage.keyDailyByModel(keyId, fromMs, toMs);
  }
  async perKeySince(accountId: string, fromMs: number): Promise<Map<string, KeyTotals>> {
    return this.usage.perKeySince(accountId, fromMs);
  }
  async usedUnits(accountId: string, startMs: number): Promise<number> {
    return this.usage.usedUnits(accountId, startMs);
  }
  async byModel(accountId: string, environment: Environment, startMs: number): Promise<ModelTotals[]> {
    return this.usage.byModel(accountId, environment, startMs);
  }
  async residencyReport(accountId: string | undefined, fromMs: number, toMs: number): Promise<ResidencyReportRow[]> {
    return this.usage.residencyReport(accountId, fromMs, toMs);
  }

  async ping(): Promise<boolean> {
    try {
      this.db.prepare('SELECT 1').get();
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
