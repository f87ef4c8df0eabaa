import type { Db } from './database.js';

export interface Administrator {
  id: string;
  email: string;
  /** null: a platform administrator, who sees every account */
  account_id: string | null;
  password_hash: string;
  created_at: string;
}

export interface AdminToken {
  id: string;
  admin_id: string;
  name: string;
  token_hash: string;
  display: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface AdminSession {
  id_hash: string;
  admin_id: string;
  csrf_token: string;
  created_at_ms: number;
  expires_at_ms: number;
}

/** Administrators, their API tokens and their dashboard sessions in SQLite (storage only; rules in admin/). */
export class AdministratorStore {
  constructor(private readonly db: Db) {}

  insertAdmin(a: Administrator): void {
    this.db
      .prepare('INSERT INTO administrators (id, email, account_id, password_hash, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(a.id, a.email, a.account_id, a.password_hash, a.created_at);
  }

  adminByEmail(email: string): Administrator | undefined {
    return this.db.prepare('SELECT * FROM administrators WHERE email = ?').get(email) as Administrator | undefined;
  }

  adminById(id: string): Administrator | undefined {
    return this.db.prepare('SELECT * FROM administrators WHERE id = ?').get(id) as Administrator | undefined;
  }

  listAdmins(accountId: string | undefined): Administrator[] {
    return (accountId === undefined
      ? this.db.prepare('SELECT * FROM administrators ORDER BY created_at, id').all()
      : this.db.prepare('SELECT * FROM administrators WHERE account_id = ? ORDER BY created_at, id').all(accountId)) as Administrator[];
  }

  insertToken(t: AdminToken): void {
    this.db
      .prepare('INSERT INTO admin_tokens (id, admin_id, name, token_hash, display, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(t.id, t.admin_id, t.name, t.token_hash, t.display, t.created_at);
  }

  /** Tokens of the given administrators, newest first. */
  listTokens(adminIds: readonly string[]): AdminToken[] {
    if (adminIds.length === 0) return [];
    const marks = adminIds.map(() => '?').join(', ');
    return this.db.prepare(`SELECT * FROM admin_tokens WHERE admin_id IN (${marks}) ORDER BY created_at DESC, id`).all(...adminIds) as AdminToken[];
  }

  tokenById(id: string): AdminToken | undefined {
    return this.db.prepare('SELECT * FROM admin_tokens WHERE id = ?').get(id) as AdminToken | undefined;
  }

  tokenByHash(hash: string): AdminToken | undefined {
    return this.db.prepare('SELECT * FROM admin_tokens WHERE token_hash = ?').get(hash) as AdminToken | undefined;
  }

  revokeToken(id: string, at: string): void {
    this.db.prepare('UPDATE admin_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);
  }

  touchToken(id: string, at: string): void {
    this.db.prepare('UPDATE admin_tokens SET last_used_at = ? WHERE id = ?').run(at, id);
  }

  insertSession(s: AdminSession): void {
    this.db
      .prepare('INSERT INTO admin_sessions (id_hash, admin_id, csrf_token, created_at_ms, expires_at_ms) VALUES (?, ?, ?, ?, ?)')
      .run(s.id_hash, s.admin_id, s.csrf_token, s.created_at_ms, s.expires_at_ms);
  }

  session(idHash: string): AdminSession | undefined {
    return this.db.prepare('SELECT * FROM admin_sessions WHERE id_hash = ?').get(idHash) as AdminSession | undefined;
  }

  deleteSession(idHash: string): void {
    this.db.prepare('DELETE FROM admin_sessions WHERE id_hash = ?').run(idHash);
  }

  deleteExpiredSessions(nowMs: number): void {
    this.db.prepare('DELETE FROM admin_sessions WHERE expires_at_ms <= ?').run(nowMs);
  }
}

/** An administrator from the identity provider: who the provider says it is (never matched by e-mail). */
export interface AdminIdentity {
  admin_id: string;
  issuer: string;
  subject: string;
  /** the e-mail claim at the last sign-in (shown and audited) */
  email: string | null;
}

/** A provider administrator's session, beside its AdminSession. */
export interface ProviderSession {
  id_hash: string;
  admin_id: string;
  /** sealed (admin/sign-in/sealed-box.ts); null: the session ends at its recheck */
  refresh_token: string | null;
  recheck_at_ms: number;
  idle_expires_at_ms: number;
}

/**
 * The password_hash of an administrator from the identity provider: no password verifies against it, here or
 * on an older replica during a rolling upgrade (its verifier refuses anything but a complete scrypt$… hash).
 */
export const NO_PASSWORD = '';

export function isProviderAdmin(a: Pick<Administrator, 'password_hash'>): boolean {
  return a.password_hash === NO_PASSWORD;
}
