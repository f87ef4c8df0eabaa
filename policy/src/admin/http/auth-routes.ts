import { timingSafeEqual } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { hashApiKey, type Logger } from '@gateway/shared';
import type { AdminAuth } from '../admin-auth.js';
import { SESSION_TTL_MS } from '../admin-auth.js';
import { SESSION_COOKIE } from '../dashboard/dashboard-routes.js';
import { html } from '../dashboard/html.js';
import { page } from '../dashboard/layout.js';
import { SignInRefused, safeReturnPath, type ProviderSignIn } from '../sign-in/provider-sign-in.js';
import { HANDSHAKE_TTL_MS } from '../sign-in/oidc-client.js';
import { cookieValue, isLoopback, setCookie, sourceAddress } from './security.js';

/** The single-use sign-in handshake cookie (sealed: state, nonce, PKCE verifier, return path). */
export const HANDSHAKE_COOKIE = 'gw_admin_oidc';

/**
 * `SameSite=Lax`, unlike the session cookie: the provider's redirect back is a cross-site navigation, and the
 * handshake must come with it. It is scoped to /auth, lives ten minutes and is cleared by the callback.
 */
function setHandshakeCookie(req: Request, res: Response, value: string, maxAgeSeconds: number): void {
  const secure = isLoopback(req.socket.remoteAddress) ? '' : '; Secure';
  res.append('set-cookie', `${HANDSHAKE_COOKIE}=${value}; Path=/auth; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`);
}

const sameToken = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const refusedPage = (res: Response, status: number, message: string): void => {
  res.status(status).type('html').send(page('Sign-in refused', html`
    <main id="main" class="signin">
      <h1>Sign-in refused</h1>
      <div class="error" role="alert">${message}</div>
      <p><a href="/signin">Back to the sign-in page</a></p>
    </main>`).value);
};

/**
 * GET /auth/login, GET /auth/callback, POST /auth/logout (CONTRACT.md "Sign-in with an identity provider").
 * The session cookie is SameSite=Strict, so a browser arriving from the provider would not send it on the next
 * request of a redirect chain: the callback answers with a page that moves on by itself (a same-site hop).
 */
export function authRouter(auth: AdminAuth, provider: ProviderSignIn | undefined, log: Logger): Router {
  const router = express.Router();

  router.get('/auth/login', async (req, res) => {
    if (provider === undefined) return refusedPage(res, 404, 'Sign-in through an identity provider is not configured on this gateway.');
    const raw = req.query['return_to'];
    const returnTo = safeReturnPath(raw);
    if (returnTo === undefined) {
      await provider.refuseStart('return_url', sourceAddress(req), { return_to: String(raw).slice(0, 200) });
      return refusedPage(res, 400, 'The address to return to after sign-in must be a page of this dashboard.');
    }
    try {
      const { url, cookie } = await provider.start(returnTo);
      setHandshakeCookie(req, res, cookie, HANDSHAKE_TTL_MS / 1000);
      res.redirect(303, url.href);
    } catch (err: unknown) {
      log.error({ err }, 'identity provider discovery failed');
      refusedPage(res, 502, `${provider.displayName} could not be reached. Try again in a moment.`);
    }
  });

  router.get('/auth/callback', async (req, res) => {
    if (provider === undefined) return refusedPage(res, 404, 'Sign-in through an identity provider is not configured on this gateway.');
    setHandshakeCookie(req, res, '', 0);
    const query = new URLSearchParams(req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '');
    try {
      const previous = cookieValue(req, SESSION_COOKIE);
      const { cookie, returnTo } = await provider.complete(query, cookieValue(req, HANDSHAKE_COOKIE), sourceAddress(req));
      if (previous !== undefined && previous !== '') await auth.signOut(previous);
      setCookie(req, res, SESSION_COOKIE, cookie, SESSION_TTL_MS / 1000);
      res.status(200).type('html').send(page('Signed in',
        html`<main id="main"><h1>Signed in</h1><p><a href="${returnTo}">Continue to the dashboard</a></p></main>`,
        html`<meta http-equiv="refresh" content="0;url=${returnTo}">`).value);
    } catch (err: unknown) {
      if (err instanceof SignInRefused) return refusedPage(res, 403, err.publicMessage);
      log.error({ err }, 'identity provider sign-in failed');
      refusedPage(res, 500, 'Sign-in failed on the gateway. Try again in a moment.');
    }
  });

  router.post('/auth/logout', express.urlencoded({ extended: false, limit: '8kb' }), async (req, res) => {
    const cookie = cookieValue(req, SESSION_COOKIE);
    const view = await auth.session(cookie, sourceAddress(req));
    const csrf = (req.body as Record<string, unknown> | undefined)?.['_csrf'];
    if (view === undefined || cookie === undefined) return res.redirect(303, '/signin');
    if (typeof csrf !== 'string' || !sameToken(csrf, view.csrfToken)) return refusedPage(res, 403, 'The form is missing its CSRF token, or it is stale; reload the page and try again.');
    const end = view.viaProvider && provider !== undefined ? await provider.signOut(hashApiKey(cookie), view.admin, sourceAddress(req)) : undefined;
    await auth.signOut(cookie);
    setCookie(req, res, SESSION_COOKIE, '', 0);
    res.status(200).type('html').send(page('Signed out', html`
      <main id="main" class="signin"><h1>Signed out</h1>
        <p>You are signed out of the gateway${end === undefined ? '' : html`; <a href="${end.href}">signing you out of ${provider?.displayName ?? ''}</a> too`}.</p>
        <p><a href="/signin">Sign in again</a></p></main>`,
      end === undefined ? '' : html`<meta http-equiv="refresh" content="0;url=${end.href}">`).value);
  });
  return router;
}
