import { expect } from 'chai';
import { ConfigError, loadConfig } from '../src/config.js';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return [...err.problems];
    throw err;
  }
  return [];
};

describe('config: sign-in with an identity provider', function () {
  const base = {
    OIDC_ISSUER: 'https://login.example.com/tenant/v2.0', OIDC_CLIENT_ID: 'gw', OIDC_CLIENT_SECRET: 's3cret',
    OIDC_REDIRECT_URL: 'https://gateway-admin.example.com/auth/callback', OIDC_PLATFORM_GROUPS: 'a, b',
  };

  it('is off by default, with password sign-in on', function () {
    expect(loadConfig({}).signIn).to.deep.equal({ passwordLogin: true, oidc: undefined });
  });

  it('reads the contract\'s names and defaults', function () {
    const c = loadConfig({ ...base, OIDC_ACCOUNT_GROUPS: 'team-a=acct_1,team b=acct_2', ADMIN_PASSWORD_LOGIN: 'false', OIDC_ALLOWED_DOMAINS: '@Example.com' }).signIn;
    expect(c.passwordLogin).to.equal(false);
    expect(c.oidc).to.deep.include({
      scopes: ['openid', 'email', 'profile'], roleClaim: 'groups', platformGroups: ['a', 'b'],
      accountGroups: [['team-a', 'acct_1'], ['team b', 'acct_2']], allowedDomains: ['example.com'], sessionRecheckMs: 300_000,
    });
  });

  it('refuses plain http except on loopback, a redirect elsewhere than /auth/callback, and missing parts, all at once', function () {
    expect(problemsOf({ ...base, OIDC_ISSUER: 'http://127.0.0.1:9000', OIDC_REDIRECT_URL: 'http://localhost:8081/auth/callback' })).to.deep.equal([]);
    const p = problemsOf({ OIDC_ISSUER: 'http://idp.example.com', OIDC_REDIRECT_URL: 'https://x.example/other', OIDC_ACCOUNT_GROUPS: 'g=notanaccount', ADMIN_PASSWORD_LOGIN: 'no' }).join('\n');
    for (const name of ['OIDC_ISSUER must be an https URL', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', '/auth/callback', 'OIDC_ACCOUNT_GROUPS', 'ADMIN_PASSWORD_LOGIN']) expect(p).to.contain(name);
    expect(problemsOf({ OIDC_CLIENT_ID: 'x' })).to.deep.equal(['OIDC_CLIENT_ID set without OIDC_ISSUER']);
  });
});
