/**
 * The policy service's durable state behind one interface, with two engines: SQLite (sqlite-store.ts, the
 * embedded default) and PostgreSQL (postgres/postgres-store.ts, `DATABASE_URL`, shared by any number of policy
 * replicas). Every method is asynchronous because PostgreSQL is; no SQL lives outside the two adapters. The rules
 * (who may change what, validation) are the admin service's; this is storage plus the integrity checks the
 * schema needs. The usage ledger's write path is apart (usage-ledger.ts); its read side is here.
 */
import type { Environment } from '@gateway/shared';
import type { AdminIdentity, AdminSession, AdminToken, Administrator, ProviderSession } from './administrators.js';
import type { AuditActor, AuditEntry } from './audit-log.js';
import type { NewKey } from './admin-store.js';
import type { Account, AccountOverrides, KeyRecord, Plan } from './records.js';
import type { DailyUsageRow, KeyTotals, ModelTotals, ResidencyReportRow } from './usage-queries.js';

export type StoreEngine = 'sqlite' | 'postgres';

export interface AuditTarget {
  id: string;
  accountId: string | null;
}

/**
 * The audit entry of a change, written in the same transaction as the change (no change without its entry, nor
 * the reverse). Target and detail may depend on the change's result (the id of a created key, say).
 */
export interface AuditDraft<T> {
  actor: AuditActor;
  action: string;
  target: AuditTarget | ((result: T) => AuditTarget);
  detail: Record<string, unknown> | ((result: T) => Record<string, unknown>);
}

/** One entry of the numbered change log every replica's key cache follows. */
export interface KeyChange {
  seq: number;
  entity: string;
  entity_id: string;
  change: string;
}

export interface AccountChanges {
  plan?: string;
  overrides?: Partial<AccountOverrides>;
  anchor_day?: number | null;
}

/** Plans, accounts and keys; every change is appended to the change log in its transaction. */
export interface KeyStore {
  createPlan(p: Plan, audit?: AuditDraft<Plan>): Promise<Plan>;
  updatePlan(name: string, changes: Partial<Omit<Plan, 'name'>>, audit?: AuditDraft<Plan>): Promise<Plan>;
  getPlan(name: string): Promise<Plan | undefined>;
  listPlans(): Promise<Plan[]>;

  createAccount(name: string, plan: string, overrides?: Partial<AccountOverrides>, anchorDay?: number | null, audit?: AuditDraft<Account>): Promise<Account>;
  /** Raises (or lowers) an account's numbers over its plan's; null clears an override. */
  updateAccount(id: string, changes: AccountChanges, audit?: AuditDraft<Account>): Promise<Account>;
  getAccount(id: string): Promise<Account | undefined>;
  listAccounts(): Promise<Account[]>;

  /** Creates a key and returns it with its secret, which is shown once and never stored. */
  createKey(k: NewKey, audit?: AuditDraft<CreatedKey>): Promise<CreatedKey>;
  getKey(id: string): Promise<KeyRecord | undefined>;
  findKeyByHash(hash: string): Promise<KeyRecord | undefined>;
  listKeys(accountId?: string): Promise<KeyRecord[]>;
  revokeKey(id: string, audit?: AuditDraft<KeyRecord>): Promise<KeyRecord>;
  /** A replacement key with the same settings; the old key stays valid until it is revoked. */
  rotateKey(id: string, audit?: AuditDraft<CreatedKey>): Promise<CreatedKey>;
  /** Last-used times, batched (the policy service writes them at most once a minute per key). */
  touchKeys(lastUsed: ReadonlyMap<string, number>): Promise<void>;

  /** Changes after `seq`, oldest first. A change is visible here only once every change numbered before it is. */
  changesSince(seq: number): Promise<KeyChange[]>;
  lastChangeSeq(): Promise<number>;
}

export interface CreatedKey {
  record: KeyRecord;
  key: string;
}

/** Administrators, their API tokens and their dashboard sessions. */
export interface AdministratorRecords {
  /** Refused (InvalidRequestError) when an administrator with this email exists. */
  insertAdmin(a: Administrator, audit?: AuditDraft<Administrator>): Promise<Administrator>;
  adminByEmail(email: string): Promise<Administrator | undefined>;
  adminById(id: string): Promise<Administrator | undefined>;
  listAdmins(accountId: string | undefined): Promise<Administrator[]>;
  insertToken(t: AdminToken, audit?: AuditDraft<AdminToken>): Promise<AdminToken>;
  /** Tokens of the given administrators, newest first. */
  listTokens(adminIds: readonly string[]): Promise<AdminToken[]>;
  tokenById(id: string): Promise<AdminToken | undefined>;
  tokenByHash(hash: string): Promise<AdminToken | undefined>;
  revokeToken(id: string, at: string, audit?: AuditDraft<void>): Promise<void>;
  touchToken(id: string, at: string): Promise<void>;
  insertSession(s: AdminSession): Promise<void>;
  session(idHash: string): Promise<AdminSession | undefined>;
  deleteSession(idHash: string): Promise<void>;
  deleteExpiredSessions(nowMs: number): Promise<void>;
}

/** Administrators from the identity provider: identities, session rechecks, token lifetimes, used handshakes. */
export interface ProviderRecords {
  identityBySubject(issuer: string, subject: string): Promise<AdminIdentity | undefined>;
  identityOf(adminId: string): Promise<AdminIdentity | undefined>;
  /** The administrator and its identity in one transaction; refused (InvalidRequestError) if either exists. */
  insertProviderAdmin(a: Administrator, identity: AdminIdentity, audit?: AuditDraft<Administrator>): Promise<Administrator>;
  /** The role (account) and e-mail claim read at a sign-in or recheck. */
  updateProviderAdmin(adminId: string, accountId: string | null, email: string | null, audit?: AuditDraft<void>): Promise<void>;
  /** The session and its provider side in one transaction. */
  insertProviderSession(s: AdminSession, p: ProviderSession): Promise<void>;
  providerSession(idHash: string): Promise<ProviderSession | undefined>;
  dueProviderSessions(nowMs: number, limit: number): Promise<ProviderSession[]>;
  claimRecheck(idHash: string, expectedAtMs: number, nextAtMs: number): Promise<boolean>;
  updateProviderSession(p: ProviderSession): Promise<void>;
  /** Both halves of a session. */
  deleteProviderSession(idHash: string): Promise<void>;
  /** Every session of the administrator ends and its API tokens are revoked, with the audit entry; tokens revoked. */
  endAdminAccess(adminId: string, at: string, audit?: AuditDraft<number>): Promise<number>;
  setTokenExpiry(tokenId: string, expiresAtMs: number, audit?: AuditDraft<void>): Promise<void>;
  tokenExpiry(tokenId: string): Promise<number | undefined>;
  claimHandshake(stateHash: string, expiresAtMs: number, nowMs: number): Promise<boolean>;
}

/** The append-only audit trail. */
export interface AuditStore {
  appendAudit(actor: AuditActor, action: string, target: AuditTarget, detail?: Record<string, unknown>): Promise<void>;
  /** Newest first; one account's entries, or every entry when accountId is undefined. */
  listAudit(accountId: string | undefined, limit?: number): Promise<AuditEntry[]>;
}

/** The read side of the usage ledger: what the admin API, the dashboard and the usage reports read. */
export interface UsageReads {
  /** One row per UTC day, environment and model in [fromMs, toMs). */
  dailyByModel(accountId: string, fromMs: number, toMs: number): Promise<DailyUsageRow[]>;
  keyDailyByModel(keyId: string, fromMs: number, toMs: number): Promise<DailyUsageRow[]>;
  /** Requests and billable units of each of an account's keys since `fromMs`. */
  perKeySince(accountId: string, fromMs: number): Promise<Map<string, KeyTotals>>;
  /** Billable units of live traffic in the billing period starting at `startMs` (from the period totals). */
  usedUnits(accountId: string, startMs: number): Promise<number>;
  /** The period's totals per model for one environment. */
  byModel(accountId: string, environment: Environment, startMs: number): Promise<ModelTotals[]>;
  /**
   * Live requests and billable units per UTC day and route (tier, call region, processing regions, basis) in
   * [fromMs, toMs), one account's or every account's (undefined); days ascending, rows without a route first.
   */
  residencyReport(accountId: string | undefined, fromMs: number, toMs: number): Promise<ResidencyReportRow[]>;
}

export interface GatewayStore extends KeyStore, AdministratorRecords, ProviderRecords, AuditStore, UsageReads {
  readonly engine: StoreEngine;
  /** Whether the database answers (health checks). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** The audit entry's target and detail for a change's result. */
export function resolveAudit<T>(draft: AuditDraft<T>, result: T): { target: AuditTarget; detail: Record<string, unknown> } {
  return {
    target: typeof draft.target === 'function' ? draft.target(result) : draft.target,
    detail: typeof draft.detail === 'function' ? draft.detail(result) : draft.detail,
  };
}
