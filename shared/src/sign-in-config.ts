/**
 * Dashboard sign-in settings (CONTRACT.md "Sign-in with an identity provider"), read with the rest of the config:
 * problems are pushed onto the caller's list so every one is reported together.
 */
export interface OidcConfig {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The only redirect URI ever sent (`…/auth/callback` on the admin port); never built from `Host`. */
  readonly redirectUrl: string;
  readonly scopes: readonly string[];
  readonly roleClaim: string;
  readonly platformGroups: readonly string[];
  /** group → account id */
  readonly accountGroups: ReadonlyArray<readonly [string, string]>;
  readonly platformEmails: readonly string[];
  /** Checked only against a verified e-mail or the provider's domain claim (`hd`). Empty: any domain. */
  readonly allowedDomains: readonly string[];
  /** How often a session's role is re-read from the provider; without a refresh token, the session's length. */
  readonly sessionRecheckMs: number;
  readonly displayName: string;
  /** How long an API token of a provider administrator lives unless its signed-in owner renews it. */
  readonly tokenMaxLifetimeMs: number;
}

export interface SignInConfig {
  /** ADMIN_PASSWORD_LOGIN: false hides and refuses the password form (gatewayctl keeps working). */
  readonly passwordLogin: boolean;
  readonly oidc: OidcConfig | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

const list = (raw: string | undefined): string[] => (raw ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');

/** Loopback hosts, the only ones allowed over plain http (a provider in a test, or on the same machine). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

function secureUrl(problems: string[], name: string, raw: string): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    problems.push(`${name} is not a URL (got "${raw}")`);
    return;
  }
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return;
  problems.push(`${name} must be an https URL (http only on loopback) (got "${raw}")`);
}

export function readSignInConfig(env: Env, problems: string[], int: (name: string, fallback: number, min: number, max: number) => number): SignInConfig {
  const str = (name: string): string | undefined => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const passwordRaw = str('ADMIN_PASSWORD_LOGIN') ?? 'true';
  if (passwordRaw !== 'true' && passwordRaw !== 'false') problems.push('ADMIN_PASSWORD_LOGIN must be true or false');
  const issuer = str('OIDC_ISSUER');
  const sessionRecheckMs = int('OIDC_SESSION_RECHECK_MS', 300_000, 1_000, 86_400_000);
  const tokenMaxLifetimeMs = int('OIDC_TOKEN_MAX_LIFETIME_MS', 30 * 86_400_000, 60_000, 365 * 86_400_000);
  if (issuer === undefined) {
    const stray = Object.keys(env).filter((k) => k.startsWith('OIDC_') && str(k) !== undefined);
    if (stray.length > 0) problems.push(`${stray.sort().join(', ')} set without OIDC_ISSUER`);
    return { passwordLogin: passwordRaw !== 'false', oidc: undefined };
  }
  secureUrl(problems, 'OIDC_ISSUER', issuer);
  const need = (name: string): string => {
    const v = str(name);
    if (v === undefined) problems.push(`${name} is required with OIDC_ISSUER`);
    return v ?? '';
  };
  const clientId = need('OIDC_CLIENT_ID');
  const clientSecret = need('OIDC_CLIENT_SECRET');
  const redirectUrl = need('OIDC_REDIRECT_URL');
  if (redirectUrl !== '') {
    secureUrl(problems, 'OIDC_REDIRECT_URL', redirectUrl);
    if (!/^[^?#]*\/auth\/callback$/.test(redirectUrl)) problems.push(`OIDC_REDIRECT_URL must end in /auth/callback, with no query (got "${redirectUrl}")`);
  }
  const scopes = (str('OIDC_SCOPES') ?? 'openid email profile').split(/\s+/).filter((s) => s !== '');
  if (!scopes.includes('openid')) problems.push('OIDC_SCOPES must include openid');
  const accountGroups: Array<[string, string]> = [];
  for (const pair of list(str('OIDC_ACCOUNT_GROUPS'))) {
    const eq = pair.lastIndexOf('=');
    const group = pair.slice(0, eq).trim();
    const account = pair.slice(eq + 1).trim();
    if (eq <= 0 || !/^acct_[A-Za-z0-9_-]+$/.test(account)) problems.push(`OIDC_ACCOUNT_GROUPS entries must be group=acct_… (got "${pair}")`);
    else accountGroups.push([group, account]);
  }
  const platformGroups = list(str('OIDC_PLATFORM_GROUPS'));
  const platformEmails = list(str('OIDC_PLATFORM_EMAILS')).map((e) => e.toLowerCase());
  if (platformGroups.length === 0 && accountGroups.length === 0 && platformEmails.length === 0) {
    problems.push('OIDC_ISSUER needs at least one of OIDC_PLATFORM_GROUPS, OIDC_ACCOUNT_GROUPS, OIDC_PLATFORM_EMAILS (nobody would get a role)');
  }
  return {
    passwordLogin: passwordRaw !== 'false',
    oidc: {
      issuer, clientId, clientSecret, redirectUrl, scopes,
      roleClaim: str('OIDC_ROLE_CLAIM') ?? 'groups',
      platformGroups, accountGroups, platformEmails,
      allowedDomains: list(str('OIDC_ALLOWED_DOMAINS')).map((d) => d.toLowerCase().replace(/^@/, '')),
      sessionRecheckMs,
      displayName: str('OIDC_DISPLAY_NAME') ?? 'your identity provider',
      tokenMaxLifetimeMs,
    },
  };
}
