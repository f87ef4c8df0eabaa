import { randomBytes } from 'node:crypto';
import { AuthenticationError, ForbiddenError, hashApiKey } from '@gateway/shared';
import { isProviderAdmin, type Administrator } from '../db/administrators.js';
import type { AdministratorRecords, ProviderRecords } from '../db/gateway-store.js';
import { ADMIN_TOKEN_PATTERN } from './administrator-service.js';
import { dummyHash, verifyPassword } from './passwords.js';
import type { Caller } from './principal.js';
import { SignInThrottle } from './sign-in-throttle.js';

export const SESSION_TTL_MS = 12 * 3600_000;
/** A provider administrator's session ends after this long without a request. */
export const SESSION_IDLE_MS = 3600_000;

export interface SessionView {
  caller: Caller;
  admin: Administrator;
  csrfToken: string;
  /** the e-mail shown and audited: the password administrator's, or the provider's e-mail claim */
  email: string;
  /** signed in through the identity provider (signs out through /auth/logout) */
  viaProvider: boolean;
}

/** What the session check asks of the identity-provider sign-in (admin/sign-in/provider-sign-in.ts). */
export interface ProviderSessions {
  /** false: the session has ended (idle, or its role could not be re-read, or the provider refused it) */
  keep(idHash: string): Promise<boolean>;
}

export interface AdminAuthOptions {
  /** ADMIN_PASSWORD_LOGIN: false refuses password sign-in and the sessions of password administrators. */
  passwordLogin?: boolean;
  provider?: ProviderSessions;
}

/** Who an admin request comes from: an API token, or a dashboard session (signed in with email and password). */
export class AdminAuth {
  readonly throttle: SignInThrottle;

  readonly passwordLogin: boolean;

  constructor(
    private readonly admins: AdministratorRecords & Pick<ProviderRecords, 'identityOf' | 'tokenExpiry' | 'deleteProviderSession'>,
    private readonly now: () => number = Date.now,
    private readonly options: AdminAuthOptions = {},
  ) {
    this.throttle = new SignInThrottle(now);
    this.passwordLogin = options.passwordLogin ?? true;
  }

  /** `authorization: Bearer gw_admin_…` → the token's administrator. Unknown, malformed or revoked → 401. */
  async tokenCaller(authorization: string | undefined, address: string | null): Promise<Caller> {
    const m = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    const token = m?.[1];
    if (token === undefined || !ADMIN_TOKEN_PATTERN.test(token)) {
      throw new AuthenticationError('Missing or malformed admin token: send authorization: Bearer gw_admin_….');
    }
    const record = await this.admins.tokenByHash(hashApiKey(token));
    const admin = record === undefined || record.revoked_at !== null ? undefined : await this.admins.adminById(record.admin_id);
    if (record === undefined || admin === undefined) throw new AuthenticationError('Invalid admin token.');
    let email = admin.email;
    if (isProviderAdmin(admin)) {
      // A provider administrator's tokens end at their lifetime (no lifetime recorded: ended) unless renewed.
      const expires = await this.admins.tokenExpiry(record.id);
      if (expires === undefined || expires <= this.now()) throw new AuthenticationError('This admin token has expired; its owner can renew it in the dashboard.');
      email = (await this.admins.identityOf(admin.id))?.email ?? admin.email;
    }
    const nowIso = new Date(this.now()).toISOString();
    if (record.last_used_at === null || Date.parse(nowIso) - Date.parse(record.last_used_at) > 60_000) await this.admins.touchToken(record.id, nowIso);
    return { principal: { kind: 'token', adminId: admin.id, email, accountId: admin.account_id, tokenId: record.id }, address };
  }

  /**
   * Checks email and password; on success opens a session and returns its cookie value (only its hash is stored).
   * Repeated failures from one address or for one email are slowed down (429 with retry-after), even when the
   * password is then right, so guessing costs time.
   */
  async signIn(email: string, password: string, address: string): Promise<{ cookie: string; view: SessionView }> {
    if (!this.passwordLogin) throw new ForbiddenError('Password sign-in is switched off; sign in through your identity provider.');
    const keys = [`email:${email.toLowerCase()}`, `addr:${address}`];
    this.throttle.check(keys);
    const admin = await this.admins.adminByEmail(email.toLowerCase());
    // An administrator from the identity provider has no password: nothing may verify against its empty hash.
    const usable = admin !== undefined && !isProviderAdmin(admin);
    const ok = await verifyPassword(password, usable ? admin.password_hash : await dummyHash());
    if (admin === undefined || !usable || !ok) {
      this.throttle.fail(keys);
      throw new AuthenticationError('Wrong email or password.');
    }
    this.throttle.succeed(keys);
    const cookie = randomBytes(32).toString('base64url');
    const session = {
      id_hash: hashApiKey(cookie), admin_id: admin.id, csrf_token: randomBytes(24).toString('base64url'),
      created_at_ms: this.now(), expires_at_ms: this.now() + SESSION_TTL_MS,
    };
    await this.admins.deleteExpiredSessions(this.now());
    await this.admins.insertSession(session);
    return { cookie, view: await this.view(admin, session.csrf_token, address) };
  }

  async session(cookie: string | undefined, address: string | null): Promise<SessionView | undefined> {
    if (cookie === undefined || cookie === '') return undefined;
    const idHash = hashApiKey(cookie);
    const session = await this.admins.session(idHash);
    if (session === undefined || session.expires_at_ms <= this.now()) return undefined;
    const before = await this.admins.adminById(session.admin_id);
    if (before === undefined) return undefined;
    if (isProviderAdmin(before)) {
      if (this.options.provider === undefined || !(await this.options.provider.keep(idHash))) return undefined;
    } else if (!this.passwordLogin) {
      return undefined;
    }
    // A provider administrator is read again: the recheck may just have changed the role.
    const admin = isProviderAdmin(before) ? await this.admins.adminById(session.admin_id) : before;
    return admin === undefined ? undefined : this.view(admin, session.csrf_token, address);
  }

  async signOut(cookie: string | undefined): Promise<void> {
    // Both halves, whichever kind the session is (a provider session's refresh token goes with it).
    if (cookie !== undefined && cookie !== '') await this.admins.deleteProviderSession(hashApiKey(cookie));
  }

  private async view(admin: Administrator, csrfToken: string, address: string | null): Promise<SessionView> {
    const viaProvider = isProviderAdmin(admin);
    const email = viaProvider ? (await this.admins.identityOf(admin.id))?.email ?? admin.email : admin.email;
    return {
      admin,
      csrfToken,
      email,
      viaProvider,
      caller: { principal: { kind: 'admin', adminId: admin.id, email, accountId: admin.account_id }, address },
    };
  }
}
