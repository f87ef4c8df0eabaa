import { createHash, randomBytes } from 'node:crypto';
import { hashApiKey, newRecordId, type Logger, type OidcConfig } from '@gateway/shared';
import { NO_PASSWORD, type Administrator, type ProviderSession } from '../../db/administrators.js';
import type { AuditActor } from '../../db/audit-log.js';
import type { GatewayStore } from '../../db/gateway-store.js';
import { SESSION_IDLE_MS, SESSION_TTL_MS } from '../admin-auth.js';
import { HANDSHAKE_TTL_MS, OidcClient, type Handshake } from './oidc-client.js';
import { decideRole, type RefusalReason, type RoleDecision } from './provider-roles.js';
import { SealedBox } from './sealed-box.js';

const HANDSHAKE_PURPOSE = 'handshake';
const REFRESH_PURPOSE = 'refresh-token';

/** A sign-in the gateway refused: the reason is audited, the message shown on the page. */
export class SignInRefused extends Error {
  constructor(readonly reason: RefusalReason, readonly publicMessage: string) {
    super(`sign-in refused: ${reason}`);
    this.name = 'SignInRefused';
  }
}

/** A path on the admin port to go back to after sign-in: relative, one leading slash, never another origin. */
export function safeReturnPath(raw: unknown): string | undefined {
  if (raw === undefined || raw === '') return '/';
  if (typeof raw !== 'string' || raw.length > 512) return undefined;
  // '//host' and '/\host' are other origins to a browser; a scheme or a control character has no business here.
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\') || /[\u0000-\u001f\\]/.test(raw)) return undefined;
  return raw;
}

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

/** The administrators row's email column of a provider administrator: a handle, never the e-mail claim. */
export function providerAdminHandle(issuer: string, subject: string): string {
  return `oidc:${sha256(`${issuer}\n${subject}`).slice(0, 32)}`;
}

interface Identity {
  issuer: string;
  subject: string;
  email: string | null;
}

/**
 * Sign-in through the organisation's identity provider, in the admin service: maps the provider's claims to an
 * administrator (by issuer and subject), its role and a session; rechecks the role with the refresh token; ends a
 * refused administrator's sessions and API tokens. The protocol itself is OidcClient's (openid-client's).
 */
export class ProviderSignIn {
  private readonly box: SealedBox;
  readonly client: OidcClient;

  constructor(
    readonly settings: OidcConfig,
    private readonly store: GatewayStore,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.box = new SealedBox(settings.clientSecret);
    this.client = new OidcClient(settings);
  }

  get displayName(): string {
    return this.settings.displayName;
  }

  /** The provider's authorisation URL and the sealed handshake for the single-use cookie. */
  async start(returnTo: string): Promise<{ url: URL; cookie: string }> {
    const { url, handshake } = await this.client.begin(returnTo, this.now());
    return { url, cookie: this.box.seal(HANDSHAKE_PURPOSE, JSON.stringify(handshake)) };
  }

  /**
   * The callback: the handshake cookie must be this browser's (login CSRF), bound to the answer's state, unused
   * (any replica), and the provider's answer must pass every check; then the claims must give a role.
   */
  async complete(query: URLSearchParams, handshakeCookie: string | undefined, address: string): Promise<{ cookie: string; returnTo: string; admin: Administrator }> {
    const refuse = async (reason: RefusalReason, message: string, who?: Identity): Promise<never> => {
      await this.audit(who, 'admin.sign_in_refused', address, { reason });
      throw new SignInRefused(reason, message);
    };
    if (handshakeCookie === undefined || handshakeCookie === '') {
      return refuse('handshake_missing', 'This sign-in was not started in this browser (or it took too long). Start again from the sign-in page.');
    }
    const handshake = this.openHandshake(handshakeCookie);
    if (handshake === undefined) return refuse('handshake_invalid', 'This sign-in could not be checked (or it took too long). Start again from the sign-in page.');
    if (query.get('state') !== handshake.state) return refuse('state_mismatch', 'The answer from the identity provider does not belong to the sign-in this browser started. Start again from the sign-in page.');
    if (!(await this.store.claimHandshake(sha256(handshake.state), handshake.expiresAtMs, this.now()))) {
      return refuse('handshake_used', 'This sign-in was already completed once. Start again from the sign-in page.');
    }
    const error = query.get('error');
    if (error !== null) return refuse('provider_error', `The identity provider did not sign you in (${error.slice(0, 100)}).`);
    let result;
    try {
      result = await this.client.finish(query, handshake);
    } catch (err: unknown) {
      // Which check failed is logged for the operator (no token, code or secret in it); the page says only that it failed.
      this.log.warn({ check: err instanceof Error ? `${err.name}: ${err.message}`.slice(0, 300) : 'unknown' }, 'identity provider answer refused');
      return refuse('token_invalid', 'The answer from the identity provider did not pass the gateway\'s checks. Start again from the sign-in page.');
    }
    const who = identityOf(result.claims);
    const decision = decideRole(result.claims, this.settings);
    if (decision.kind === 'refused') {
      await this.endAccessOf(who, decision.reason, address);
      return refuse(decision.reason, decision.message, who);
    }
    if (decision.kind === 'account' && (await this.store.getAccount(decision.accountId)) === undefined) {
      await this.endAccessOf(who, 'unknown_account', address);
      return refuse('unknown_account', `Your group maps to account ${decision.accountId}, which does not exist in this gateway. Ask a platform administrator.`, who);
    }
    const admin = await this.provision(who, decision, address);
    const cookie = randomBytes(32).toString('base64url');
    const nowMs = this.now();
    const refresh = result.refreshToken;
    const recheckAt = nowMs + this.settings.sessionRecheckMs;
    await this.store.deleteExpiredSessions(nowMs);
    await this.store.insertProviderSession(
      // Without a refresh token the role cannot be re-read: the session lasts no longer than one recheck period.
      { id_hash: hashApiKey(cookie), admin_id: admin.id, csrf_token: randomBytes(24).toString('base64url'), created_at_ms: nowMs,
        expires_at_ms: refresh === undefined ? Math.min(recheckAt, nowMs + SESSION_TTL_MS) : nowMs + SESSION_TTL_MS },
      { id_hash: hashApiKey(cookie), admin_id: admin.id, refresh_token: refresh === undefined ? null : this.box.seal(REFRESH_PURPOSE, refresh),
        recheck_at_ms: recheckAt, idle_expires_at_ms: nowMs + SESSION_IDLE_MS },
    );
    await this.audit(who, 'admin.sign_in', address, { role: admin.account_id === null ? 'platform' : 'account' }, admin);
    return { cookie, returnTo: handshake.returnTo, admin };
  }

  /**
   * Whether a provider session goes on: not idle too long, and its role re-read when due (one replica does it).
   * A refused recheck ends the administrator's sessions and API tokens.
   */
  async keep(idHash: string): Promise<boolean> {
    const p = await this.store.providerSession(idHash);
    const nowMs = this.now();
    if (p === undefined || p.idle_expires_at_ms <= nowMs) return false;
    if (p.recheck_at_ms <= nowMs && !(await this.recheck(p))) return false;
    // The idle clock moves at most once a minute per session, not with every page.
    if (p.idle_expires_at_ms - nowMs < SESSION_IDLE_MS - 60_000) {
      const fresh = await this.store.providerSession(idHash);
      if (fresh !== undefined) await this.store.updateProviderSession({ ...fresh, idle_expires_at_ms: nowMs + SESSION_IDLE_MS });
    }
    return true;
  }

  /** Rechecks every session due (called on a timer on every replica; each session is claimed by one). */
  async recheckDue(): Promise<void> {
    for (const p of await this.store.dueProviderSessions(this.now(), 100)) await this.recheck(p);
  }

  /** A sign-in refused before the provider was asked (an absolute return URL): audited like the others. */
  async refuseStart(reason: RefusalReason, address: string, detail: Record<string, unknown>): Promise<void> {
    await this.audit(undefined, 'admin.sign_in_refused', address, { reason, ...detail });
  }

  /** Sign-out: the local session ends (audited); the provider's sign-out page, where it has one. */
  async signOut(idHash: string, admin: Administrator, address: string): Promise<URL | undefined> {
    await this.store.deleteProviderSession(idHash);
    const identity = await this.store.identityOf(admin.id);
    if (identity !== undefined) await this.audit({ issuer: identity.issuer, subject: identity.subject, email: identity.email }, 'admin.sign_out', address, {}, admin);
    return this.client.endSessionUrl();
  }

  /** true: the session goes on (rechecked now, or by another replica); false: it has ended. */
  private async recheck(p: ProviderSession): Promise<boolean> {
    const nowMs = this.now();
    // Claimed for a minute: if this replica dies mid-way, another one takes it up then.
    if (!(await this.store.claimRecheck(p.id_hash, p.recheck_at_ms, nowMs + 60_000))) return (await this.store.providerSession(p.id_hash)) !== undefined;
    // A session signed out, expired or idle is not rechecked again: its refresh token is dropped with it.
    const session = await this.store.session(p.id_hash);
    const identity = await this.store.identityOf(p.admin_id);
    const refresh = p.refresh_token === null ? undefined : this.box.open(REFRESH_PURPOSE, p.refresh_token);
    if (session === undefined || session.expires_at_ms <= nowMs || p.idle_expires_at_ms <= nowMs || identity === undefined || refresh === undefined) {
      await this.store.deleteProviderSession(p.id_hash);
      return false;
    }
    const who: Identity = { issuer: identity.issuer, subject: identity.subject, email: identity.email };
    let result;
    try {
      result = await this.client.refresh(refresh, identity.subject);
    } catch (err: unknown) {
      const refused = typeof (err as { error?: unknown }).error === 'string';
      this.log.warn({ refused, check: err instanceof Error ? err.message.slice(0, 200) : 'unknown' }, 'session recheck with the identity provider failed');
      if (refused) {
        // The provider said no (invalid_grant: the person left, or the grant was revoked): access ends.
        await this.endAccessOf(who, 'recheck_failed', null);
        await this.audit(who, 'admin.sign_in_refused', null, { reason: 'recheck_failed', recheck: true });
      } else {
        // The provider could not be asked: this session ends (fail closed), the administrator keeps its tokens.
        await this.store.deleteProviderSession(p.id_hash);
      }
      return false;
    }
    const decision = decideRole(result.claims, this.settings);
    if (decision.kind === 'refused' || (decision.kind === 'account' && (await this.store.getAccount(decision.accountId)) === undefined)) {
      const reason = decision.kind === 'refused' ? decision.reason : 'unknown_account';
      await this.endAccessOf(who, reason, null);
      await this.audit(who, 'admin.sign_in_refused', null, { reason, recheck: true });
      return false;
    }
    const admin = await this.store.adminById(p.admin_id);
    const accountId = decision.kind === 'account' ? decision.accountId : null;
    const email = identityOf(result.claims).email;
    if (admin !== undefined && (admin.account_id !== accountId || identity.email !== email)) {
      await this.store.updateProviderAdmin(admin.id, accountId, email,
        { actor: this.actor(who, null), action: 'admin.update', target: { id: admin.id, accountId }, detail: { iss: who.issuer, sub: who.subject, account_id: accountId, recheck: true } });
    }
    await this.store.updateProviderSession({ ...p, refresh_token: this.box.seal(REFRESH_PURPOSE, result.refreshToken ?? refresh), recheck_at_ms: nowMs + this.settings.sessionRecheckMs });
    return true;
  }

  private openHandshake(cookie: string): Handshake | undefined {
    const plain = this.box.open(HANDSHAKE_PURPOSE, cookie);
    if (plain === undefined) return undefined;
    try {
      const h = JSON.parse(plain) as Handshake;
      if (typeof h.state !== 'string' || typeof h.nonce !== 'string' || typeof h.verifier !== 'string' || typeof h.expiresAtMs !== 'number') return undefined;
      if (h.expiresAtMs <= this.now() || h.expiresAtMs > this.now() + HANDSHAKE_TTL_MS) return undefined;
      return safeReturnPath(h.returnTo) === undefined ? undefined : h;
    } catch {
      return undefined;
    }
  }

  /** The administrator for (iss, sub): created at first sign-in, its role and e-mail claim updated at each. */
  private async provision(who: Identity, decision: Exclude<RoleDecision, { kind: 'refused' }>, address: string): Promise<Administrator> {
    const accountId = decision.kind === 'account' ? decision.accountId : null;
    const existing = await this.store.identityBySubject(who.issuer, who.subject);
    if (existing !== undefined) {
      const admin = await this.store.adminById(existing.admin_id);
      if (admin !== undefined && (admin.account_id !== accountId || existing.email !== who.email)) {
        await this.store.updateProviderAdmin(admin.id, accountId, who.email,
          { actor: this.actor(who, address), action: 'admin.update', target: { id: admin.id, accountId }, detail: { iss: who.issuer, sub: who.subject, account_id: accountId } });
      }
      const now = await this.store.adminById(existing.admin_id);
      if (now !== undefined) return now;
    }
    const admin: Administrator = {
      id: newRecordId('adm'), email: providerAdminHandle(who.issuer, who.subject), account_id: accountId, password_hash: NO_PASSWORD,
      created_at: new Date(this.now()).toISOString(),
    };
    return this.store.insertProviderAdmin(admin, { admin_id: admin.id, issuer: who.issuer, subject: who.subject, email: who.email },
      { actor: this.actor(who, address), action: 'admin.create', target: { id: admin.id, accountId },
        detail: { iss: who.issuer, sub: who.subject, email: who.email, account_id: accountId, role: accountId === null ? 'platform' : 'account', via: 'identity provider' } });
  }

  /** A refused sign-in or recheck: the administrator (if one exists for this identity) loses its sessions and API tokens. */
  private async endAccessOf(who: Identity, reason: RefusalReason, address: string | null): Promise<void> {
    const existing = await this.store.identityBySubject(who.issuer, who.subject);
    const admin = existing === undefined ? undefined : await this.store.adminById(existing.admin_id);
    if (admin === undefined) return;
    await this.store.endAdminAccess(admin.id, new Date(this.now()).toISOString(),
      { actor: this.actor(who, address), action: 'admin.access_ended', target: { id: admin.id, accountId: admin.account_id },
        detail: (revoked: number) => ({ iss: who.issuer, sub: who.subject, reason, tokens_revoked: revoked }) });
  }

  private actor(who: Identity | undefined, address: string | null): AuditActor {
    return who === undefined ? { kind: 'system', name: 'identity provider sign-in', address } : { kind: 'admin', name: who.email ?? who.subject, address };
  }

  private async audit(who: Identity | undefined, action: string, address: string | null, detail: Record<string, unknown>, admin?: Administrator): Promise<void> {
    await this.store.appendAudit(this.actor(who, address), action,
      { id: admin?.id ?? (who === undefined ? '-' : `sub:${who.subject}`), accountId: admin?.account_id ?? null },
      { ...(who === undefined ? {} : { iss: who.issuer, sub: who.subject, email: who.email }), ...detail });
  }
}

function identityOf(claims: Readonly<Record<string, unknown>>): Identity {
  const email = claims['email'];
  return { issuer: String(claims['iss']), subject: String(claims['sub']), email: typeof email === 'string' ? email.toLowerCase() : null };
}
