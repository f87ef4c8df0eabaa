import { InvalidRequestError, NotFoundError, hashApiKey, newRecordId, randomBase62 } from '@gateway/shared';
import type { Administrator, AdminToken } from '../db/administrators.js';
import type { Account } from '../db/records.js';
import type { AdminServiceDeps } from './admin-service.js';
import { auditedChange, requirePlatform } from './audited-change.js';
import { hashPassword } from './passwords.js';
import { callerAccount, type Caller } from './principal.js';
import { EMAIL, MIN_PASSWORD_LENGTH, Problems, text } from './validation.js';

export const ADMIN_TOKEN_PATTERN = /^gw_admin_[A-Za-z0-9]{32}$/;

/**
 * Administrators and admin API tokens. Platform administrators (no account) manage everything; an account
 * administrator may add administrators and tokens within their own account only. Every change is audited.
 */
export class AdministratorService {
  constructor(
    private readonly d: AdminServiceDeps,
    /** the account, if the caller may see it (AdminService.getAccount: 404 otherwise) */
    private readonly visibleAccount: (caller: Caller, id: string) => Account,
  ) {}

  listAdmins(caller: Caller): Administrator[] {
    const own = callerAccount(caller);
    return this.d.admins.listAdmins(own ?? undefined);
  }

  /** The API tokens of the administrators the caller may see (never their secrets: only display forms exist). */
  listTokens(caller: Caller): Array<AdminToken & { email: string }> {
    const admins = this.listAdmins(caller);
    const email = new Map(admins.map((a) => [a.id, a.email]));
    return this.d.admins.listTokens(admins.map((a) => a.id)).map((t) => ({ ...t, email: email.get(t.admin_id) ?? '' }));
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
    else this.visibleAccount(caller, accountId);
    if (email !== '' && this.d.admins.adminByEmail(email) !== undefined) p.add(`an administrator "${email}" already exists`);
    p.throwIfAny();
    const admin: Administrator = {
      id: newRecordId('adm'), email, account_id: accountId, password_hash: await hashPassword(password),
      created_at: new Date(this.d.now()).toISOString(),
    };
    return auditedChange(this.d, caller, 'admin.create', { id: admin.id, accountId }, { email, account_id: accountId, role: accountId === null ? 'platform' : 'account' },
      () => {
        if (this.d.admins.adminByEmail(email) !== undefined) throw new InvalidRequestError(`an administrator "${email}" already exists`);
        this.d.admins.insertAdmin(admin);
        return admin;
      });
  }

  /** A new API token `gw_admin_<32 base62>` for an administrator, returned once; only its SHA-256 is stored. */
  createToken(caller: Caller, input: { email?: unknown; name?: unknown }): { record: AdminToken; token: string } {
    const p = new Problems();
    const name = text(p, 'name', input.name, 100);
    const email = text(p, 'email', input.email, 320).toLowerCase();
    p.throwIfAny();
    const admin = this.visibleAdmin(caller, email);
    const token = `gw_admin_${randomBase62(32)}`;
    const record: AdminToken = {
      id: newRecordId('tok'), admin_id: admin.id, name, token_hash: hashApiKey(token),
      display: `gw_admin_${token.slice(9, 13)}…${token.slice(-4)}`, created_at: new Date(this.d.now()).toISOString(),
      revoked_at: null, last_used_at: null,
    };
    auditedChange(this.d, caller, 'token.create', { id: record.id, accountId: admin.account_id }, { name, admin: admin.email, display: record.display },
      () => this.d.admins.insertToken(record));
    return { record, token };
  }

  revokeToken(caller: Caller, id: string): AdminToken {
    const token = this.d.admins.tokenById(id);
    const owner = token === undefined ? undefined : this.d.admins.adminById(token.admin_id);
    const own = callerAccount(caller);
    if (token === undefined || owner === undefined || (own !== null && owner.account_id !== own)) throw new NotFoundError(`no token "${id}"`);
    if (token.revoked_at === null) {
      auditedChange(this.d, caller, 'token.revoke', { id, accountId: owner.account_id }, { name: token.name, admin: owner.email },
        () => this.d.admins.revokeToken(id, new Date(this.d.now()).toISOString()));
    }
    return this.d.admins.tokenById(id) as AdminToken;
  }

  private visibleAdmin(caller: Caller, email: string): Administrator {
    const admin = this.d.admins.adminByEmail(email);
    const own = callerAccount(caller);
    if (admin === undefined || (own !== null && admin.account_id !== own)) throw new NotFoundError(`no administrator "${email}"`);
    return admin;
  }
}
