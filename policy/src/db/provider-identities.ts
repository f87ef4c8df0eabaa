import type { Db } from './database.js';
import type { AdminIdentity, ProviderSession } from './administrators.js';

/**
 * Identity-provider administrators in SQLite: their (issuer, subject), their sessions' recheck state, their API
 * tokens' lifetimes and the sign-in handshakes already completed (storage only; rules in admin/sign-in/).
 */
export class ProviderIdentityStore {
  constructor(private readonly db: Db) {}

  identityBySubject(issuer: string, subject: string): AdminIdentity | undefined {
    return this.db.prepare('SELECT * FROM admin_identities WHERE issuer = ? AND subject = ?').get(issuer, subject) as AdminIdentity | undefined;
  }

  identityOf(adminId: string): AdminIdentity | undefined {
    return this.db.prepare('SELECT * FROM admin_identities WHERE admin_id = ?').get(adminId) as AdminIdentity | undefined;
  }

  insertIdentity(i: AdminIdentity): void {
    this.db.prepare('INSERT INTO admin_identities (admin_id, issuer, subject, email) VALUES (?, ?, ?, ?)').run(i.admin_id, i.issuer, i.subject, i.email);
  }

  updateIdentity(adminId: string, accountId: string | null, email: string | null): void {
    this.db.prepare('UPDATE administrators SET account_id = ? WHERE id = ?').run(accountId, adminId);
    this.db.prepare('UPDATE admin_identities SET email = ? WHERE admin_id = ?').run(email, adminId);
  }

  insertProviderSession(p: ProviderSession): void {
    this.db
      .prepare('INSERT INTO provider_sessions (id_hash, admin_id, refresh_token, recheck_at_ms, idle_expires_at_ms) VALUES (?, ?, ?, ?, ?)')
      .run(p.id_hash, p.admin_id, p.refresh_token, p.recheck_at_ms, p.idle_expires_at_ms);
  }

  providerSession(idHash: string): ProviderSession | undefined {
    return this.db.prepare('SELECT * FROM provider_sessions WHERE id_hash = ?').get(idHash) as ProviderSession | undefined;
  }

  /** Sessions whose role is due to be re-read. */
  dueSessions(nowMs: number, limit: number): ProviderSession[] {
    return this.db.prepare('SELECT * FROM provider_sessions WHERE recheck_at_ms <= ? ORDER BY recheck_at_ms LIMIT ?').all(nowMs, limit) as ProviderSession[];
  }

  /** Compare-and-set on recheck_at_ms, so one replica (the one that wins) rechecks a session. */
  claimRecheck(idHash: string, expectedAtMs: number, nextAtMs: number): boolean {
    return this.db.prepare('UPDATE provider_sessions SET recheck_at_ms = ? WHERE id_hash = ? AND recheck_at_ms = ?').run(nextAtMs, idHash, expectedAtMs).changes === 1;
  }

  updateProviderSession(p: ProviderSession): void {
    this.db
      .prepare('UPDATE provider_sessions SET refresh_token = ?, recheck_at_ms = ?, idle_expires_at_ms = ? WHERE id_hash = ?')
      .run(p.refresh_token, p.recheck_at_ms, p.idle_expires_at_ms, p.id_hash);
  }

  deleteSession(idHash: string): void {
    this.db.prepare('DELETE FROM provider_sessions WHERE id_hash = ?').run(idHash);
    this.db.prepare('DELETE FROM admin_sessions WHERE id_hash = ?').run(idHash);
  }

  /** Ends every session of an administrator and revokes its API tokens; the number of tokens revoked. */
  endAccess(adminId: string, at: string): number {
    this.db.prepare('DELETE FROM provider_sessions WHERE admin_id = ?').run(adminId);
    this.db.prepare('DELETE FROM admin_sessions WHERE admin_id = ?').run(adminId);
    return this.db.prepare('UPDATE admin_tokens SET revoked_at = ? WHERE admin_id = ? AND revoked_at IS NULL').run(at, adminId).changes;
  }

  setTokenExpiry(tokenId: string, expiresAtMs: number): void {
    this.db
      .prepare('INSERT INTO admin_token_lifetimes (token_id, expires_at_ms) VALUES (?, ?) ON CONFLICT (token_id) DO UPDATE SET expires_at_ms = excluded.expires_at_ms')
      .run(tokenId, expiresAtMs);
  }

  tokenExpiry(tokenId: string): number | undefined {
    return (this.db.prepare('SELECT expires_at_ms FROM admin_token_lifetimes WHERE token_id = ?').get(tokenId) as { expires_at_ms: number } | undefined)?.expires_at_ms;
  }

  /** true the first time a handshake's state is used; false ever after (until it has expired). */
  claimHandshake(stateHash: string, expiresAtMs: number, nowMs: number): boolean {
    this.db.prepare('DELETE FROM sign_in_handshakes WHERE expires_at_ms <= ?').run(nowMs);
    return this.db.prepare('INSERT INTO sign_in_handshakes (state_hash, expires_at_ms) VALUES (?, ?) ON CONFLICT (state_hash) DO NOTHING').run(stateHash, expiresAtMs).changes === 1;
  }
}
