import { ForbiddenError } from '@gateway/shared';
import type { AuditDraft, AuditTarget } from '../db/gateway-store.js';
import { auditActor, isPlatform, type Caller } from './principal.js';

/**
 * The audit entry of a change, for the store to write in the change's own transaction: no change without its
 * entry, nor the reverse.
 */
export function audited<T>(
  caller: Caller,
  action: string,
  target: AuditTarget | ((result: T) => AuditTarget),
  detail: Record<string, unknown> | ((result: T) => Record<string, unknown>),
): AuditDraft<T> {
  return { actor: auditActor(caller), action, target, detail };
}

export function requirePlatform(caller: Caller, what: string): void {
  if (!isPlatform(caller)) throw new ForbiddenError(`Only platform administrators may ${what}.`);
}
