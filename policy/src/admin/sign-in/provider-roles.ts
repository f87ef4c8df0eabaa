import type { OidcConfig } from '@gateway/shared';

/** Why a sign-in (or a recheck) was refused: stable words for the audit log, and a sentence for the page. */
export type RefusalReason =
  | 'no_role' | 'two_accounts' | 'group_overage' | 'domain' | 'unknown_account'
  | 'handshake_missing' | 'handshake_invalid' | 'state_mismatch' | 'handshake_used' | 'provider_error' | 'token_invalid'
  | 'recheck_failed' | 'return_url';

export type RoleDecision =
  | { kind: 'platform' }
  | { kind: 'account'; accountId: string }
  | { kind: 'refused'; reason: RefusalReason; message: string };

export type RoleRules = Pick<OidcConfig, 'roleClaim' | 'platformGroups' | 'accountGroups' | 'platformEmails' | 'allowedDomains'>;

/** The e-mail claim, only when the provider says it is verified. */
export function verifiedEmail(claims: Readonly<Record<string, unknown>>): string | undefined {
  const email = claims['email'];
  return typeof email === 'string' && claims['email_verified'] === true ? email.toLowerCase() : undefined;
}

function groupsOf(claims: Readonly<Record<string, unknown>>, claim: string): string[] {
  const v = claims[claim];
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((g): g is string => typeof g === 'string') : [];
}

/**
 * The role an ID token's claims give, by the configured rules; pure. Domains are checked only on a verified
 * e-mail or the provider's own domain claim (Google's `hd`): an unverified e-mail proves nothing. Entra's group
 * overage (a pointer to the groups instead of the groups) and groups mapping to two accounts are refused, never
 * guessed at.
 */
export function decideRole(claims: Readonly<Record<string, unknown>>, rules: RoleRules): RoleDecision {
  const email = verifiedEmail(claims);
  if (rules.allowedDomains.length > 0) {
    const hd = typeof claims['hd'] === 'string' ? claims['hd'].toLowerCase() : undefined;
    const domain = hd ?? email?.slice(email.lastIndexOf('@') + 1);
    if (domain === undefined || !rules.allowedDomains.includes(domain)) {
      return { kind: 'refused', reason: 'domain', message: domain === undefined
        ? 'Your identity provider did not give a verified e-mail address or domain, which this gateway requires.'
        : `Your domain (${domain}) is not one this gateway accepts.` };
    }
  }
  const names = claims['_claim_names'];
  if (claims['hasgroups'] === true || (typeof names === 'object' && names !== null && rules.roleClaim in names)) {
    return { kind: 'refused', reason: 'group_overage', message:
      'You are in too many groups for your identity provider to list them in the sign-in token. Ask your identity administrator to send only the groups assigned to this application.' };
  }
  const groups = groupsOf(claims, rules.roleClaim);
  if (groups.some((g) => rules.platformGroups.includes(g)) || (email !== undefined && rules.platformEmails.includes(email))) return { kind: 'platform' };
  const accounts = new Set(rules.accountGroups.filter(([g]) => groups.includes(g)).map(([, a]) => a));
  if (accounts.size > 1) {
    return { kind: 'refused', reason: 'two_accounts', message:
      `Your groups give you access to more than one account (${[...accounts].sort().join(', ')}); an administrator belongs to one. Ask your identity administrator to remove one of the groups.` };
  }
  const [only] = accounts;
  if (only !== undefined) return { kind: 'account', accountId: only };
  return { kind: 'refused', reason: 'no_role', message: 'Your identity provider signed you in, but none of your groups gives you a role in this gateway.' };
}
