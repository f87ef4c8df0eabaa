import { ForbiddenError, NotFoundError, hashApiKey, newRecordId, randomBase62 } from '@gateway/shared';
import { isProviderAdmin, type Administrator, type AdminToken } from '../db/administrators.js';
import type { Account } from '../db/records.js';
import type { AdminServiceDeps } from './admin-service.js';
import { audited, requirePlatform } from './audited-change.js';
import { hashPassword } from './passwords.js';
import { callerAccount, type Caller } from './principal.js';
import { EMAIL, MIN_PASSWORD_LENGTH, Problems, text } from './validation.js';

export const ADMIN_TOKEN_PATTERN = /^gw_admin_[A-Za-z0-9]{32}$/;
/** OIDC_TOKEN_MAX_LIFETIME_MS's default: how long a provider administrator's API token lives unless renewed. */
export const PROVIDER_TOKEN_LIFETIME_MS = 30 * 86_400_000;

/**
 * Administrators and admin API tokens. Platform administrators (no account) manage everything; an account
 * administrator may add administrators and tokens within their own account only. Every change is audited.
 */
export class AdministratorService {
  constructor(
    private readonly d: AdminServiceDeps,
    /** the account, if the caller may see it (AdminService.getAccount: 404 otherwise) */
    private readonly visibleAccount: (caller: Caller, id: string) => Promise<Account>,
  ) {}

  async listAdmins(caller: Caller): Promise<Administrator[]> {
    const own = callerAccount(caller);
    return this.d.store.listAdmins(own ?? undefined);
  }

  /** The API tokens of the administrators the caller may see (never their secrets: only display forms exist). */
  async listTokens(caller: Caller): Promise<Array<AdminToken & { email: string }>> {
    const admins = await this.listAdmins(caller);
    const email = new Map(admins.map((a) => [a.id, a.email]));
    return (await this.d.store.listTokens(admins.map((a) => a.id))).map((t) => ({ ...t, email: email.get(t.admin_id) ?? '' }));
  }

  async createAdmin(caller: Caller, input: { email?: unknown; password?: unknown; account_id?: unknown }): Promise<Administrator> {
    const p = new Problems();
    const email = text(p, 'email', input.email, 320).toLowerCase();
    if (email !== '' && !EMAIL.test(email)) p.add('email is not an email address');
    const password = typeof input.password === 'string' ? input.password : '';
    if ([...password].length < MIN_PASSWORD_LENGTH) p.add(`password must be at least ${MIN_PASSWORD_LENGTH} characters`);
    const accountId = input.account_id === undefined || input.account_id === null || input.account_id === '' ? null : String(input.account_id);
    // Account administrators may add administrators to their own account only; platform ones anywhere.
    if (accountId === null) requirePlatform(caller, 'create platform administrators');
    else await this.visibleAccount(caller, accountId);
    if (email !== '' && (await this.d.store.adminByEmail(email)) !== undefined) p.add(`an administrator "${email}" already exists`);
    p.throwIfAny();
    const admin: Administrator = {
      id: newRecordId('adm'), email, account_id: accountId, password_hash: await hashPassword(password),
      created_at: new Date(this.d.now()).toISOString(),
    };
    // The store refuses an email taken meanwhile (by another process) in the insert's own transaction.
    return this.d.store.insertAdmin(admin,
      audited(caller, 'admin.create', { id: admin.id, accountId }, { email, account_id: accountId, role: accountId === null ? 'platform' : 'account' }));
  }

  /** A new API token `gw_admin_<32 base62>` for an administrator, returned once; only its SHA-256 is stored. */
  async createToken(caller: Caller, input: { email?: unknown; name?: unknown }): Promise<{ record: AdminToken; token: string }> {
    const p = new Problems();
    const name = text(p, 'name', input.name, 100);
    const email = text(p, 'email', input.email, 320).toLowerCase();
    p.throwIfAny();
    const admin = await this.visibleAdmin(caller, email);
    const token = `gw_admin_${randomBase62(32)}`;
    const record: AdminToken = {
      id: newRecordId('tok'), admin_id: admin.id, name, token_hash: hashApiKey(token),
      display: `gw_admin_${token.slice(9, 13)}…${token.slice(-4)}`, created_at: new Date(this.d.now()).toISOString(),
      revoked_at: null, last_used_at: null,
    };
    await this.d.store.insertToken(record,
      audited(caller, 'token.create', { id: record.id, accountId: admin.account_id }, { name, admin: admin.email, display: record.display }));
    // A provider administrator's access ends when the person leaves; a token must not outlive that unchecked.
    if (isProviderAdmin(admin)) await this.d.store.setTokenExpiry(record.id, this.d.now() + this.lifetimeMs());
    return { record, token };
  }

  /** Another full lifetime for a provider administrator's token: only its owner, signed in, may do it. */
  async renewToken(caller: Caller, id: string): Promise<number> {
    const token = await this.d.store.tokenById(id);
    const p = caller.principal;
    if (token === undefined || p.kind === 'cli' || token.admin_id !== p.adminId) throw new NotFoundError(`no token "${id}" of yours`);
    if (p.kind !== 'admin') throw new ForbiddenError('Only the token\'s owner, signed in to the dashboard, may renew it.');
    if (token.revoked_at !== null) throw new ForbiddenError('A revoked token cannot be renewed.');
    const expires = this.d.now() + this.lifetimeMs();
    await this.d.store.setTokenExpiry(id, expires,
      audited(caller, 'token.renew', { id, accountId: p.accountId }, { name: token.name, expires_at: new Date(expires).toISOString() }));
    return expires;
  }

  /** When each of these tokens ends (provider administrators' tokens only). */
  async tokenExpiries(tokens: readonly AdminToken[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const t of tokens) {
      const at = await this.d.store.tokenExpiry(t.id);
      if (at !== undefined) out.set(t.id, at);
    }
    return out;
  }

  private lifetimeMs(): number {
    return this.d.providerTokenLifetimeMs ?? PROVIDER_TOKEN_LIFETIME_MS;
  }

  async revokeToken(caller: Caller, id: string): Promise<AdminToken> {
    const token = await this.d.store.tokenById(id);
    const owner = token === undefined ? undefined : await this.d.store.adminById(token.admin_id);
    const own = callerAccount(caller);
    if (token === undefined || owner === undefined || (own !== null && owner.account_id !== own)) throw new NotFoundError(`no token "${id}"`);
    if (token.revoked_at === null) {
      await this.d.store.revokeToken(id, new Date(this.d.now()).toISOString(),
        audited(caller, 'token.revoke', { id, accountId: owner.account_id }, { name: token.name, admin: owner.email }));
    }
    return (await this.d.store.tokenById(id)) as AdminToken;
  }

  private async visibleAdmin(caller: Caller, email: string): Promise<Administrator> {
    const admin = await this.d.store.adminByEmail(email);
    const own = callerAccount(caller);
    if (admin === undefined || (own !== null && admin.account_id !== own)) throw new NotFoundError(`no administrator "${email}"`);
    return admin;
  }
}
