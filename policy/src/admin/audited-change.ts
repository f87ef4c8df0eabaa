import { ForbiddenError } from '@gateway/shared';
import type { AuditLog } from '../db/audit-log.js';
import type { Db } from '../db/database.js';
import { auditActor, isPlatform, type Caller } from './principal.js';

type Target = { id: string; accountId: string | null };

/** Runs a change and writes its audit entry in one transaction: no change without its entry, nor the reverse. */
export function auditedChange<T>(
  d: { db: Db; audit: AuditLog },
  caller: Caller,
  action: string,
  target: Target | ((result: T) => Target),
  detail: Record<string, unknown> | ((result: T) => Record<string, unknown>),
  apply: () => T,
): T {
  return d.db.transaction(() => {
    const result = apply();
    d.audit.append(
      auditActor(caller),
      action,
      typeof target === 'function' ? target(result) : target,
      typeof detail === 'function' ? detail(result) : detail,
    );
    return result;
  }).immediate();
}

export function requirePlatform(caller: Caller, what: string): void {
  if (!isPlatform(caller)) throw new ForbiddenError(`Only platform administrators may ${what}.`);
}
