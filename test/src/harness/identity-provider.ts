import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import Provider from 'oidc-provider';

/** A user of the test identity provider: the claims its ID tokens carry (mutable: "removed from the group"). */
export interface TestUser {
  email?: string;
  email_verified?: boolean;
  groups?: string[];
  /** other claims as given (hd, hasgroups, _claim_names, …) */
  extra?: Record<string, unknown>;
}

/** How the next token response's ID token is altered (once): what a broken or hostile provider would send. */
export type IdTokenTamper = 'expired' | 'signature' | 'issuer' | 'audience';

export interface TestClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

const listen = (server: Server): Promise<number> =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

/** A free loopback port (for a redirect URL that must be known before its server starts). */
export async function freePort(): Promise<number> {
  const s = createServer();
  const port = await listen(s);
  await new Promise((resolve) => s.close(resolve));
  return port;
}

/**
 * A real OpenID provider (`oidc-provider`, with its development login and consent pages) on a free loopback
 * port, behind a small front server that can alter one token response's ID token (re-signed with the provider's
 * own key, or a wrong one), so the gateway's checks of the token are tested against a real flow.
 */
export class TestIdentityProvider {
  readonly users = new Map<string, TestUser>();
  /** the token endpoint's ID token is altered this way once, then this goes back to undefined */
  tamper: IdTokenTamper | undefined;
  /** true: the provider's redirect back to a client is held (answered with a page) and its URL kept in `held` */
  holdCallback = false;
  held: string | undefined;
  /** alters the next authorisation request (what a hostile page could send the browser to), once */
  alterAuthorisation: ((u: URL) => void) | undefined;
  issuer = '';
  private front!: Server;
  private back!: Server;
  private backPort = 0;
  private key!: JWK;

  static async start(clients: TestClient[]): Promise<TestIdentityProvider> {
    const p = new TestIdentityProvider();
    await p.run(clients);
    return p;
  }

  private async run(clients: TestClient[]): Promise<void> {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    this.key = { ...(await exportJWK(privateKey)), kid: 'test-key-1', alg: 'RS256', use: 'sig' };
    this.front = createServer((req, res) => void this.forward(req, res));
    const port = await listen(this.front);
    this.issuer = `http://127.0.0.1:${port}`;
    const users = this.users;
    const provider = new Provider(this.issuer, {
      clients: clients.map((c) => ({ ...c, grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_post' })),
      jwks: { keys: [this.key] },
      cookies: { keys: ['test-provider-cookie-key'] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], groups: ['groups', 'hasgroups', 'hd', '_claim_names', '_claim_sources'] },
      scopes: ['openid', 'offline_access', 'email', 'profile', 'groups'],
      // Claims in the ID token itself (as Entra, Okta, Google and Keycloak put groups and e-mail), not only in user info.
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
      pkce: { required: () => true },
      ttl: { IdToken: 300, AccessToken: 300, RefreshToken: 3600, Session: 3600, Interaction: 600, Grant: 3600, AuthorizationCode: 60 },
      findAccount: (_ctx: unknown, sub: string) => {
        if (!users.has(sub)) return undefined;
        return {
          accountId: sub,
          // Read at every token (and refresh): a change to the user shows at the next recheck.
          claims: () => {
            const u = users.get(sub) ?? {};
            return { sub, ...(u.email === undefined ? {} : { email: u.email, email_verified: u.email_verified ?? true }), ...(u.groups === undefined ? {} : { groups: u.groups }), ...u.extra };
          },
        };
      },
      // Everyone the test names exists (devInteractions accepts any login); an unknown login gets no account.
      renderError: (ctx: { type: string; body: string }, out: Record<string, unknown>) => {
        ctx.type = 'html';
        ctx.body = `<!doctype html><title>provider error</title><pre>${JSON.stringify(out).replace(/</g, '&lt;')}</pre>`;
      },
    });
    this.back = createServer(provider.callback());
    this.backPort = await listen(this.back);
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'POST' || req.url?.startsWith('/token') !== true || this.tamper === undefined) {
      this.relay(req, res, undefined, undefined);
      return;
    }
    // Only a code exchange is altered, never a session recheck's refresh that happens to come first.
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const code = new URLSearchParams(body.toString('utf8')).get('grant_type') === 'authorization_code';
      const tamper = code ? this.tamper : undefined;
      if (code) this.tamper = undefined;
      this.relay(req, res, tamper, body);
    });
  }

  private relay(req: IncomingMessage, res: ServerResponse, tamper: IdTokenTamper | undefined, body: Buffer | undefined): void {
    let path = req.url ?? '/';
    const alter = this.alterAuthorisation;
    if (alter !== undefined && req.method === 'GET' && path.startsWith('/auth?')) {
      this.alterAuthorisation = undefined;
      const u = new URL(path, this.issuer);
      alter(u);
      path = `${u.pathname}${u.search}`;
    }
    const upstream = request({ host: '127.0.0.1', port: this.backPort, method: req.method, path, headers: req.headers }, (up) => {
      const location = up.headers.location;
      if (this.holdCallback && typeof location === 'string' && /\/auth\/callback\?/.test(location)) {
        this.holdCallback = false;
        this.held = location;
        up.resume();
        res.writeHead(200, { 'content-type': 'text/plain', ...(up.headers['set-cookie'] === undefined ? {} : { 'set-cookie': up.headers['set-cookie'] }) });
        res.end('held by the test');
        return;
      }
      if (tamper === undefined || up.statusCode !== 200) {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      up.on('data', (c: Buffer) => chunks.push(c));
      up.on('end', () => {
        void this.altered(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>, tamper).then((body) => {
          const text = JSON.stringify(body);
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
          res.end(text);
        });
      });
    });
    upstream.on('error', () => res.destroy());
    if (body === undefined) req.pipe(upstream);
    else upstream.end(body);
  }

  private async altered(body: Record<string, unknown>, tamper: IdTokenTamper): Promise<Record<string, unknown>> {
    const idToken = body['id_token'];
    if (typeof idToken !== 'string') return body;
    const claims = decodeJwt(idToken);
    const header = decodeProtectedHeader(idToken);
    const now = Math.floor(Date.now() / 1000);
    if (tamper === 'expired') Object.assign(claims, { iat: now - 900, exp: now - 600 });
    if (tamper === 'issuer') claims.iss = 'http://127.0.0.1:9/another-issuer';
    if (tamper === 'audience') claims.aud = 'another-client';
    const key = tamper === 'signature'
      ? (await generateKeyPair('RS256', { extractable: true })).privateKey
      : await importJWK(this.key, 'RS256');
    return { ...body, id_token: await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: header.typ ?? 'JWT', kid: 'test-key-1' }).sign(key) };
  }

  async close(): Promise<void> {
    for (const s of [this.front, this.back]) {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    }
  }
}
