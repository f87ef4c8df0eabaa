import { randomBytes } from 'node:crypto';
import { AuthenticationError, hashApiKey } from '@gateway/shared';
import type { Administrator } from '../db/administrators.js';
import type { AdministratorRecords } from '../db/gateway-store.js';
import { ADMIN_TOKEN_PATTERN } from './administrator-service.js';
import { dummyHash, verifyPassword } from './passwords.js';
import type { Caller } from './principal.js';
import { SignInThrottle } from './sign-in-throttle.js';

export const SESSION_TTL_MS = 12 * 3600_000;

export interface SessionView {
  caller: Caller;
  admin: Administrator;
  csrfToken: string;
}

/** Who an admin request comes from: an API token, or a dashboard session (signed in with email and password). */
export class AdminAuth {
  readonly throttle: SignInThrottle;

  constructor(private readonly admins: AdministratorRecords, private readonly now: () => number = Date.now) {
    this.throttle = new SignInThrottle(now);
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
    const nowIso = new Date(this.now()).toISOString();
    if (record.last_used_at === null || Date.parse(nowIso) - Date.parse(record.last_used_at) > 60_000) await this.admins.touchToken(record.id, nowIso);
    return { principal: { kind: 'token', adminId: admin.id, email: admin.email, accountId: admin.account_id, tokenId: record.id }, address };
  }

  /**
   * Checks email and password; on success opens a session and returns its cookie value (only its hash is stored).
   * Repeated failures from one address or for one email are slowed down (429 with retry-after), even when the
   * password is then right, so guessing costs time.
   */
  async signIn(email: string, password: string, address: string): Promise<{ cookie: string; view: SessionView }> {
    const keys = [`email:${email.toLowerCase()}`, `addr:${address}`];
    this.throttle.check(keys);
    const admin = await this.admins.adminByEmail(email.toLowerCase());
    const ok = await verifyPassword(password, admin?.password_hash ?? (await dummyHash()));
    if (admin === undefined || !ok) {
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
    return { cookie, view: this.view(admin, session.csrf_token, address) };
  }

  async session(cookie: string | undefined, address: string | null): Promise<SessionView | undefined> {
    if (cookie === undefined || cookie === '') return undefined;
    const session = await this.admins.session(hashApiKey(cookie));
    if (session === undefined || session.expires_at_ms <= this.now()) return undefined;
    const admin = await this.admins.adminById(session.admin_id);
    return admin === undefined ? undefined : this.view(admin, session.csrf_token, address);
  }

  async signOut(cookie: string | undefined): Promise<void> {
    if (cookie !== undefined && cookie !== '') await this.admins.deleteSession(hashApiKey(cookie));
  }

  private view(admin: Administrator, csrfToken: string, address: string | null): SessionView {
    return {
      admin,
      csrfToken,
      caller: { principal: { kind: 'admin', adminId: admin.id, email: admin.email, accountId: admin.account_id }, address },
    };
  }
}
