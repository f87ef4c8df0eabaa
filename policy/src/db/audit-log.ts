import type { Db } from './database.js';

/** Who made a change: a CLI user, an administrator signed in to the dashboard, or an admin API token. */
export interface AuditActor {
  kind: 'cli' | 'admin' | 'token' | 'system';
  /** CLI user name, administrator email, or `token <id> (<email>)` */
  name: string;
  /** source address of the HTTP request; null from the CLI */
  address: string | null;
}

export interface AuditEntry {
  seq: number;
  at: string;
  actor_kind: AuditActor['kind'];
  actor: string;
  address: string | null;
  account_id: string | null;
  action: string;
  target_id: string;
  detail: Record<string, unknown>;
}

interface AuditRow extends Omit<AuditEntry, 'detail'> {
  detail: string;
}

/** The append-only audit trail (the schema's triggers refuse updates and deletes). */
export class AuditLog {
  constructor(private readonly db: Db, private readonly now: () => number = Date.now) {}

  append(actor: AuditActor, action: string, target: { id: string; accountId: string | null }, detail: Record<string, unknown> = {}): void {
    this.db
      .prepare('INSERT INTO audit_log (at, actor_kind, actor, address, account_id, action, target_id, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(new Date(this.now()).toISOString(), actor.kind, actor.name, actor.address, target.accountId, action, target.id, JSON.stringify(detail));
  }

  /** Newest first; one account's entries, or every entry when accountId is undefined. */
  list(accountId: string | undefined, limit = 500): AuditEntry[] {
    const rows = (accountId === undefined
      ? this.db.prepare('SELECT * FROM audit_log ORDER BY seq DESC LIMIT ?').all(limit)
      : this.db.prepare('SELECT * FROM audit_log WHERE account_id = ? ORDER BY seq DESC LIMIT ?').all(accountId, limit)) as AuditRow[];
    return rows.map((r) => ({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> }));
  }
}
