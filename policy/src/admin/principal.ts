import type { AuditActor } from '../db/audit-log.js';

/**
 * Who is asking. The CLI runs on the gateway's own data directory, so it acts as the platform; administrators
 * (signed in to the dashboard, or through one of their API tokens) act within their role.
 */
export type Principal =
  | { kind: 'cli'; user: string }
  | { kind: 'admin'; adminId: string; email: string; accountId: string | null }
  | { kind: 'token'; adminId: string; email: string; accountId: string | null; tokenId: string };

export interface Caller {
  principal: Principal;
  /** the HTTP request's source address; null from the CLI */
  address: string | null;
}

/** Platform callers see every account; account administrators only their own. */
export function callerAccount(caller: Caller): string | null {
  return caller.principal.kind === 'cli' ? null : caller.principal.accountId;
}

export function isPlatform(caller: Caller): boolean {
  return callerAccount(caller) === null;
}

export function auditActor(caller: Caller): AuditActor {
  const p = caller.principal;
  switch (p.kind) {
    case 'cli':
      return { kind: 'cli', name: p.user, address: caller.address };
    case 'admin':
      return { kind: 'admin', name: p.email, address: caller.address };
    case 'token':
      return { kind: 'token', name: `${p.tokenId} (${p.email})`, address: caller.address };
  }
}
