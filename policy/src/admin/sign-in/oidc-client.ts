import * as oidc from 'openid-client';
import { isLoopbackHost, type OidcConfig } from '@gateway/shared';

/** How long a started sign-in may take at the provider before its handshake expires. */
export const HANDSHAKE_TTL_MS = 10 * 60_000;
/** Bounded clock skew between the gateway and the provider, for the ID token's iat/exp/nbf. */
export const CLOCK_TOLERANCE_S = 30;

/** What travels in the handshake cookie (sealed): everything the callback needs to check the answer. */
export interface Handshake {
  state: string;
  nonce: string;
  verifier: string;
  /** a relative path on the admin port, checked when the sign-in starts */
  returnTo: string;
  expiresAtMs: number;
}

export interface TokenResult {
  claims: Readonly<Record<string, unknown>>;
  refreshToken: string | undefined;
}

/**
 * The OpenID Connect client: discovery, the authorisation request (code + PKCE S256, state, nonce), the code
 * exchange with every check (state, nonce, PKCE, ID token signature, issuer, audience, expiry) and refreshes.
 * The protocol is openid-client's job (certified); this adapter only feeds it our settings. The redirect URI is
 * always OIDC_REDIRECT_URL, never anything built from the request's Host.
 */
export class OidcClient {
  private discovered: Promise<oidc.Configuration> | undefined;

  constructor(private readonly settings: OidcConfig) {}

  /** Discovery once, retried on the next use if the provider was unreachable. */
  configuration(): Promise<oidc.Configuration> {
    if (this.discovered === undefined) {
      const s = this.settings;
      const insecure = new URL(s.issuer).protocol === 'http:' && isLoopbackHost(new URL(s.issuer).hostname);
      this.discovered = oidc.discovery(new URL(s.issuer), s.clientId,
        { [oidc.clockTolerance]: CLOCK_TOLERANCE_S, redirect_uris: [s.redirectUrl], response_types: ['code'] },
        oidc.ClientSecretPost(s.clientSecret), {
          // The ID token's signature is checked against the provider's keys even though it came straight from the
          // token endpoint (openid-client would otherwise rely on TLS alone, as OIDC Core permits).
          execute: insecure ? [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks] : [oidc.enableNonRepudiationChecks],
          timeout: 10,
        });
      this.discovered.catch(() => {
        this.discovered = undefined;
      });
    }
    return this.discovered;
  }

  async begin(returnTo: string, nowMs: number): Promise<{ url: URL; handshake: Handshake }> {
    const config = await this.configuration();
    const handshake: Handshake = {
      state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier(), returnTo,
      expiresAtMs: nowMs + HANDSHAKE_TTL_MS,
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUrl,
      scope: this.settings.scopes.join(' '),
      state: handshake.state,
      nonce: handshake.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(handshake.verifier),
      code_challenge_method: 'S256',
      // A refresh token (to recheck the role) needs consent at providers that follow the spec on offline_access.
      ...(this.settings.scopes.includes('offline_access') ? { prompt: 'consent' } : {}),
    });
    return { url, handshake };
  }

  /** The callback's query, checked against the handshake and exchanged for tokens. Throws on any failed check. */
  async finish(query: URLSearchParams, handshake: Handshake): Promise<TokenResult> {
    const config = await this.configuration();
    const current = new URL(this.settings.redirectUrl);
    current.search = query.toString();
    const tokens = await oidc.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: handshake.verifier, expectedState: handshake.state, expectedNonce: handshake.nonce, idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (claims === undefined) throw new Error('the token response has no ID token');
    return { claims, refreshToken: tokens.refresh_token };
  }

  /** The claims again, from a refreshed ID token (or the user info endpoint when the provider sends none). */
  async refresh(refreshToken: string, subject: string): Promise<TokenResult> {
    const config = await this.configuration();
    const tokens = await oidc.refreshTokenGrant(config, refreshToken);
    const claims = tokens.claims() ?? (await oidc.fetchUserInfo(config, tokens.access_token, subject));
    if (claims['sub'] !== subject) throw new Error('the refreshed identity is another subject');
    return { claims, refreshToken: tokens.refresh_token ?? refreshToken };
  }

  /** The provider's sign-out page, when it has one. */
  async endSessionUrl(): Promise<URL | undefined> {
    try {
      const config = await this.configuration();
      if (config.serverMetadata().end_session_endpoint === undefined) return undefined;
      return oidc.buildEndSessionUrl(config, { client_id: this.settings.clientId });
    } catch {
      return undefined;
    }
  }
}
