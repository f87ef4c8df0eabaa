import { InvalidRequestError, NotFoundError } from '@gateway/shared';
import { accountUsage } from './account-usage.js';
import { billingPeriod } from '../billing.js';
import type { ModelCatalogue } from '../catalogue.js';
import type { AuditEntry } from '../db/audit-log.js';
import type { CreatedKey, GatewayStore } from '../db/gateway-store.js';
import { effectiveLimits, type Account, type AccountOverrides, type EffectiveLimits, type KeyRecord, type Plan } from '../db/records.js';
import type { DailyUsageRow, KeyTotals, ResidencyReportRow } from '../db/usage-queries.js';
import { AdministratorService } from './administrator-service.js';
import { audited, requirePlatform } from './audited-change.js';
import { HYGIENE_IDLE_MS, ROTATION_IDLE_MS, keyState, type KeyState } from './key-state.js';
import { callerAccount, type Caller } from './principal.js';
import { ENVIRONMENTS, PLAN_NAME, PRIVACY_MODES, Problems, RESIDENCIES, bool, expiry, int, ips, models, oneOf, text } from './validation.js';

export { keyState, type KeyState } from './key-state.js';

/** The current per-minute window and concurrency of an account's live traffic (from the counter store). */
export type RateProbe = (accountId: string, limits: EffectiveLimits) => Promise<{ remaining: number; resetUnix: number; inFlight: number } | null>;

export interface AdminServiceDeps {
  store: GatewayStore;
  catalogue: ModelCatalogue;
  now: () => number;
  rates?: RateProbe;
  /** OIDC_TOKEN_MAX_LIFETIME_MS */
  providerTokenLifetimeMs?: number;
}

/** Raw input of a key, as the CLI, the API or a form sends it; the service checks every field. */
export interface KeyInput {
  name?: unknown;
  environment?: unknown;
  residency?: unknown;
  privacy_mode?: unknown;
  allowed_models?: unknown;
  allowed_ips?: unknown;
  expires_at?: unknown;
  requests_per_minute?: unknown;
}

export interface LimitInput {
  requests_per_minute?: unknown;
  concurrency?: unknown;
  allowance?: unknown;
  overage_allowed?: unknown;
  overage_ceiling?: unknown;
}

export interface KeyRow {
  record: KeyRecord;
  state: KeyState;
  period: KeyTotals;
}

/**
 * Every rule about plans, accounts, keys and administrators, in one place, under gatewayctl, the admin API and
 * the dashboard alike. Account isolation lives here: an account administrator asking about another account
 * gets the same 404 as for an account that does not exist. Every change is written to the audit log in the
 * same transaction as the change itself (the store writes the entry it is given with the change).
 */
export class AdminService {
  /** Administrators and their API tokens, under the same rules and audit. */
  readonly administrators: AdministratorService;

  constructor(private readonly d: AdminServiceDeps) {
    this.administrators = new AdministratorService(d, (caller, id) => this.getAccount(caller, id));
  }

  get catalogue(): ModelCatalogue {
    return this.d.catalogue;
  }

  now(): number {
    return this.d.now();
  }

  // ---- plans -------------------------------------------------------------------------------------------------

  async listPlans(caller: Caller): Promise<Plan[]> {
    const plans = await this.d.store.listPlans();
    const own = callerAccount(caller);
    if (own === null) return plans;
    const account = await this.d.store.getAccount(own);
    return plans.filter((p) => p.name === account?.plan);
  }

  async createPlan(caller: Caller, input: { name?: unknown; residency?: unknown; models?: unknown } & LimitInput): Promise<Plan> {
    this.requirePlatform(caller, 'create plans');
    const p = new Problems();
    const name = text(p, 'name', input.name, 64);
    if (name !== '' && !PLAN_NAME.test(name)) p.add('name may hold only letters, digits, ".", "_" and "-"');
    const plan: Plan = {
      name,
      residency: oneOf(p, 'residency', input.residency, RESIDENCIES),
      requests_per_minute: this.requiredInt(p, 'requests_per_minute', input.requests_per_minute, 1),
      concurrency: this.requiredInt(p, 'concurrency', input.concurrency, 1),
      allowance: this.requiredInt(p, 'allowance', input.allowance, 0),
      overage_allowed: bool(p, 'overage_allowed', input.overage_allowed) ?? false,
      overage_ceiling: int(p, 'overage_ceiling', input.overage_ceiling, 0) ?? 0,
      models: models(p, 'models', input.models, this.d.catalogue),
    };
    p.throwIfAny();
    return this.d.store.createPlan(plan, audited(caller, 'plan.create', { id: plan.name, accountId: null }, { ...plan }));
  }

  async updatePlan(caller: Caller, name: string, input: { residency?: unknown; models?: unknown } & LimitInput): Promise<Plan> {
    this.requirePlatform(caller, 'change plans');
    const p = new Problems();
    const changes: Partial<Plan> = {};
    if (input.residency !== undefined) changes.residency = oneOf(p, 'residency', input.residency, RESIDENCIES);
    const rpm = int(p, 'requests_per_minute', input.requests_per_minute, 1);
    if (rpm !== undefined) changes.requests_per_minute = rpm;
    const conc = int(p, 'concurrency', input.concurrency, 1);
    if (conc !== undefined) changes.concurrency = conc;
    const allowance = int(p, 'allowance', input.allowance, 0);
    if (allowance !== undefined) changes.allowance = allowance;
    const overage = bool(p, 'overage_allowed', input.overage_allowed);
    if (overage !== undefined) changes.overage_allowed = overage;
    const ceiling = int(p, 'overage_ceiling', input.overage_ceiling, 0);
    if (ceiling !== undefined) changes.overage_ceiling = ceiling;
    if (input.models !== undefined) changes.models = models(p, 'models', input.models, this.d.catalogue);
    p.throwIfAny();
    return this.d.store.updatePlan(name, changes, audited(caller, 'plan.update', { id: name, accountId: null }, { ...changes }));
  }

  // ---- accounts ----------------------------------------------------------------------------------------------

  async listAccounts(caller: Caller): Promise<Account[]> {
    const own = callerAccount(caller);
    const all = await this.d.store.listAccounts();
    return own === null ? all : all.filter((a) => a.id === own);
  }

  /** The account, if the caller may see it; otherwise the same 404 as for no account at all. */
  async getAccount(caller: Caller, id: string): Promise<Account> {
    const own = callerAccount(caller);
    const account = own === null || own === id ? await this.d.store.getAccount(id) : undefined;
    if (account === undefined) throw new NotFoundError(`no account "${id}"`);
    return account;
  }

  async limits(account: Account): Promise<EffectiveLimits> {
    return effectiveLimits((await this.d.store.getPlan(account.plan)) as Plan, account);
  }

  async createAccount(caller: Caller, input: { name?: unknown; plan?: unknown; anchor_day?: unknown } & LimitInput): Promise<Account> {
    this.requirePlatform(caller, 'create accounts');
    const p = new Problems();
    const name = text(p, 'name', input.name, 200);
    const plan = text(p, 'plan', input.plan, 64);
    if (plan !== '' && (await this.d.store.getPlan(plan)) === undefined) p.add(`no plan "${plan}"`);
    const overrides = this.overrides(p, input);
    const anchor = int(p, 'anchor_day', input.anchor_day, 1, 28) ?? null;
    p.throwIfAny();
    return this.d.store.createAccount(name, plan, overrides, anchor,
      audited(caller, 'account.create', (a) => ({ id: a.id, accountId: a.id }), { name, plan, overrides, anchor_day: anchor }));
  }

  async updateAccount(caller: Caller, id: string, input: { plan?: unknown; anchor_day?: unknown } & LimitInput): Promise<Account> {
    this.requirePlatform(caller, 'change accounts');
    await this.getAccount(caller, id);
    const p = new Problems();
    let plan: string | undefined;
    if (input.plan !== undefined) {
      plan = text(p, 'plan', input.plan, 64);
      if (plan !== '' && (await this.d.store.getPlan(plan)) === undefined) p.add(`no plan "${plan}"`);
    }
    const overrides = this.overrides(p, input);
    const anchor = int(p, 'anchor_day', input.anchor_day, 1, 28);
    p.throwIfAny();
    const changes = { ...(plan === undefined ? {} : { plan }), overrides, ...(anchor === undefined ? {} : { anchor_day: anchor }) };
    return this.d.store.updateAccount(id, changes, audited(caller, 'account.update', { id, accountId: id }, { ...changes }));
  }

  // ---- keys --------------------------------------------------------------------------------------------------

  async listKeys(caller: Caller, accountId?: string): Promise<KeyRecord[]> {
    if (accountId !== undefined) {
      await this.getAccount(caller, accountId);
      return this.d.store.listKeys(accountId);
    }
    const own = callerAccount(caller);
    return own === null ? this.d.store.listKeys() : this.d.store.listKeys(own);
  }

  /** Keys with their state and this billing period's requests and billable units (one grouped ledger scan). */
  async keyRows(caller: Caller, accountId: string): Promise<KeyRow[]> {
    const account = await this.getAccount(caller, accountId);
    const now = this.d.now();
    const period = billingPeriod(now, account.anchor_day);
    const totals = await this.d.store.perKeySince(accountId, period.startMs);
    return (await this.d.store.listKeys(accountId)).map((record) => ({
      record,
      state: keyState(record, now),
      period: totals.get(record.id) ?? { requests: 0, billable_units: 0 },
    }));
  }

  async getKey(caller: Caller, id: string): Promise<KeyRecord> {
    const key = await this.d.store.getKey(id);
    const own = callerAccount(caller);
    if (key === undefined || (own !== null && key.account_id !== own)) throw new NotFoundError(`no key "${id}"`);
    return key;
  }

  async createKey(caller: Caller, accountId: string, input: KeyInput): Promise<CreatedKey> {
    const account = await this.getAccount(caller, accountId);
    const plan = (await this.d.store.getPlan(account.plan)) as Plan;
    const p = new Problems();
    const name = text(p, 'name', input.name, 100);
    const environment = oneOf(p, 'environment', input.environment, ENVIRONMENTS);
    const residency = oneOf(p, 'residency', input.residency, RESIDENCIES);
    const privacy = oneOf(p, 'privacy_mode', input.privacy_mode, PRIVACY_MODES, 'off');
    const allowedModels = models(p, 'allowed_models', input.allowed_models, this.d.catalogue);
    const allowedIps = ips(p, 'allowed_ips', input.allowed_ips);
    const expiresAt = expiry(p, 'expires_at', input.expires_at, this.d.now());
    const rpm = int(p, 'requests_per_minute', input.requests_per_minute, 1) ?? null;
    // A key cannot exceed its plan's tier: a uk-only plan issues only uk keys.
    if (plan.residency === 'uk' && residency === 'eu') {
      p.add(`plan "${plan.name}" permits only uk keys; an eu key would exceed the plan's residency`);
    }
    p.throwIfAny();
    const settings = {
      account_id: accountId, name, environment, residency, privacy_mode: privacy, allowed_models: allowedModels,
      allowed_ips: allowedIps, expires_at: expiresAt, requests_per_minute: rpm,
    };
    return this.d.store.createKey(settings,
      audited(caller, 'key.create', (r) => ({ id: r.record.id, accountId }), (r) => keyAuditDetail(r.record)));
  }

  async revokeKey(caller: Caller, id: string): Promise<KeyRecord> {
    const key = await this.getKey(caller, id);
    if (key.revoked_at !== null) return key;
    return this.d.store.revokeKey(id, audited(caller, 'key.revoke', { id, accountId: key.account_id }, { display: key.display, name: key.name }));
  }

  /** A replacement with the same settings; the old key stays valid until it is revoked. */
  async rotateKey(caller: Caller, id: string): Promise<CreatedKey> {
    const old = await this.getKey(caller, id);
    if (keyState(old, this.d.now()) !== 'active') throw new InvalidRequestError(`key "${id}" is ${keyState(old, this.d.now())}; create a new key instead`);
    return this.d.store.rotateKey(id, audited(caller, 'key.rotate', (r) => ({ id: r.record.id, accountId: old.account_id }),
      (r) => ({ ...keyAuditDetail(r.record), rotated_from: id })));
  }

  /** The key that replaced this one, if it was rotated. */
  async replacementOf(caller: Caller, id: string): Promise<KeyRecord | undefined> {
    const key = await this.getKey(caller, id);
    return (await this.d.store.listKeys(key.account_id)).find((k) => k.rotated_from === id);
  }

  /** After a rotation: idle once unused for ROTATION_IDLE_MS (or never used), so it can be revoked safely. */
  isIdle(key: KeyRecord): boolean {
    return key.last_used_at === null || this.d.now() - Date.parse(key.last_used_at) > ROTATION_IDLE_MS;
  }

  /** Live keys worth a look: no expiry, idle over 30 days, or no IP restriction. */
  async hygiene(caller: Caller, accountId?: string): Promise<Array<{ record: KeyRecord; noExpiry: boolean; idle: boolean; noIpRestriction: boolean }>> {
    const now = this.d.now();
    return (await this.listKeys(caller, accountId))
      .filter((k) => k.environment === 'live' && keyState(k, now) === 'active')
      .map((record) => {
        const lastSeen = Date.parse(record.last_used_at ?? record.created_at);
        return {
          record,
          noExpiry: record.expires_at === null,
          idle: now - lastSeen > HYGIENE_IDLE_MS,
          noIpRestriction: record.allowed_ips === null || record.allowed_ips.length === 0,
        };
      })
      .filter((h) => h.noExpiry || h.idle || h.noIpRestriction);
  }

  // ---- usage -------------------------------------------------------------------------------------------------

  async accountUsage(caller: Caller, accountId: string): ReturnType<typeof accountUsage> {
    const account = await this.getAccount(caller, accountId);
    return accountUsage(accountId, await this.limits(account), this.d.store, this.d.now());
  }

  /** Daily rows per model between two UTC dates, both included. */
  async dailyUsage(caller: Caller, accountId: string, from: string | undefined, to: string | undefined): Promise<DailyUsageRow[]> {
    await this.getAccount(caller, accountId);
    const { fromMs, toMs } = this.dateRange(from, to);
    return this.d.store.dailyByModel(accountId, fromMs, toMs);
  }

  /**
   * Live requests per UTC day and route between two UTC dates, both included, for a record of processing. Scoped as
   * the audit trail is: platform callers every account's (or one account's), account administrators their own.
   */
  async residencyReport(caller: Caller, accountId: string | undefined, from: string | undefined, to: string | undefined): Promise<ResidencyReportRow[]> {
    const one = accountId !== undefined && accountId !== '' ? (await this.getAccount(caller, accountId)).id : callerAccount(caller) ?? undefined;
    const { fromMs, toMs } = this.dateRange(from, to);
    return this.d.store.residencyReport(one, fromMs, toMs);
  }

  async keyDailyUsage(caller: Caller, keyId: string, days: number): Promise<DailyUsageRow[]> {
    await this.getKey(caller, keyId);
    const toMs = startOfUtcDay(this.d.now()) + 86_400_000;
    return this.d.store.keyDailyByModel(keyId, toMs - days * 86_400_000, toMs);
  }

  async ratePosition(caller: Caller, accountId: string): Promise<{ limit: number; remaining: number; resetUnix: number; concurrency: number; inFlight: number } | null> {
    const account = await this.getAccount(caller, accountId);
    const limits = await this.limits(account);
    const probe = this.d.rates === undefined ? null : await this.d.rates(accountId, limits).catch(() => null);
    if (probe === null) return null;
    return { limit: limits.requests_per_minute, remaining: probe.remaining, resetUnix: probe.resetUnix, concurrency: limits.concurrency, inFlight: probe.inFlight };
  }

  private dateRange(from: string | undefined, to: string | undefined): { fromMs: number; toMs: number } {
    const p = new Problems();
    const day = (field: string, v: string | undefined, fallback: number): number => {
      if (v === undefined || v === '') return fallback;
      const ms = /^\d{4}-\d{2}-\d{2}$/.test(v) ? Date.parse(`${v}T00:00:00Z`) : Number.NaN;
      if (Number.isNaN(ms)) p.add(`${field} must be a date YYYY-MM-DD (got ${JSON.stringify(v)})`);
      return ms;
    };
    const today = startOfUtcDay(this.d.now());
    const fromMs = day('from', from, today - 29 * 86_400_000);
    const toMs = day('to', to, today) + 86_400_000;
    if (fromMs >= toMs) p.add('from must not be after to');
    if (toMs - fromMs > 366 * 86_400_000) p.add('the range may span at most 366 days');
    p.throwIfAny();
    return { fromMs, toMs };
  }

  // ---- audit -------------------------------------------------------------------------------------------------

  /** Platform callers read every entry (or one account's); account administrators only their account's. */
  async auditTrail(caller: Caller, accountId?: string): Promise<AuditEntry[]> {
    if (accountId !== undefined && accountId !== '') {
      await this.getAccount(caller, accountId);
      return this.d.store.listAudit(accountId);
    }
    const own = callerAccount(caller);
    return this.d.store.listAudit(own ?? undefined);
  }

  // ---- helpers -----------------------------------------------------------------------------------------------

  private requirePlatform(caller: Caller, what: string): void {
    requirePlatform(caller, what);
  }

  private requiredInt(p: Problems, field: string, v: unknown, min: number): number {
    const n = int(p, field, v, min);
    if (n === undefined && (v === undefined || v === null)) p.add(`${field} is required`);
    return n ?? min;
  }

  private overrides(p: Problems, input: LimitInput): Partial<AccountOverrides> {
    const o: Partial<AccountOverrides> = {};
    const rpm = int(p, 'requests_per_minute', input.requests_per_minute, 1);
    if (rpm !== undefined) o.requests_per_minute = rpm;
    const conc = int(p, 'concurrency', input.concurrency, 1);
    if (conc !== undefined) o.concurrency = conc;
    const allowance = int(p, 'allowance', input.allowance, 0);
    if (allowance !== undefined) o.allowance = allowance;
    const overage = bool(p, 'overage_allowed', input.overage_allowed);
    if (overage !== undefined) o.overage_allowed = overage;
    const ceiling = int(p, 'overage_ceiling', input.overage_ceiling, 0);
    if (ceiling !== undefined) o.overage_ceiling = ceiling;
    return o;
  }
}

function keyAuditDetail(k: KeyRecord): Record<string, unknown> {
  return {
    name: k.name, display: k.display, environment: k.environment, residency: k.residency, privacy_mode: k.privacy_mode,
    allowed_models: k.allowed_models, allowed_ips: k.allowed_ips, expires_at: k.expires_at,
  };
}

export function startOfUtcDay(ms: number): number {
  return ms - (ms % 86_400_000);
}
