import { randomBytes, timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { GatewayError, ForbiddenError, type Logger } from '@gateway/shared';
import { formatGbp } from '../../billing.js';
import type { AdminAuth } from '../admin-auth.js';
import { SESSION_TTL_MS } from '../admin-auth.js';
import type { AdminService } from '../admin-service.js';
import { toGatewayError } from '../http/api-routes.js';
import { cookieValue, setCookie, sourceAddress } from '../http/security.js';
import { accountsPage, auditPage, overviewPage } from './account-pages.js';
import { administratorsPage } from './admin-pages.js';
import { APP_CSS, APP_JS } from './assets.js';
import { lastDays } from './daily-chart.js';
import { html, type Html } from './html.js';
import { hygienePage, keyDetailPage, keysPage, revokeConfirmPage, rotatedExtra, secretPage } from './key-pages.js';
import { page, type PageContext } from './layout.js';
import { residencyPage } from './residency-page.js';
import { residencyReportCsv } from '../residency-csv.js';

export const SESSION_COOKIE = 'gw_admin_session';
const SIGNIN_COOKIE = 'gw_admin_signin';

const sameToken = (a: string | undefined, b: string): boolean =>
  a !== undefined && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

type Page = (ctx: PageContext, req: Request, res: Response) => Promise<Html | void> | Html | void;

const field = (req: Request, name: string): string | undefined => {
  const v = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? v : undefined;
};
const blankToUndefined = (v: string | undefined): string | undefined => (v === undefined || v.trim() === '' ? undefined : v);

/** The server-rendered dashboard: a thin adapter from forms and pages to the admin service. */
export function dashboardRouter(service: AdminService, auth: AdminAuth, log: Logger, providerName?: string): Router {
  const router = express.Router();
  router.use(express.urlencoded({ extended: false, limit: '32kb' }));

  router.get('/assets/app.css', (_req, res) => void res.type('text/css').setHeader('cache-control', 'public, max-age=300').send(APP_CSS));
  router.get('/assets/app.js', (_req, res) => void res.type('text/javascript').setHeader('cache-control', 'public, max-age=300').send(APP_JS));

  const signInForm = (req: Request, res: Response, status: number, message?: string): void => {
    // Login CSRF: the form's token must match a cookie only this site can set (double submit). An existing token
    // is kept, so a second tab (or a stray request that lands here) does not invalidate the form already shown.
    const existing = cookieValue(req, SIGNIN_COOKIE);
    const token = existing !== undefined && /^[A-Za-z0-9_-]{32}$/.test(existing) ? existing : randomBytes(24).toString('base64url');
    setCookie(req, res, SIGNIN_COOKIE, token, 3600);
    res.status(status).type('html').send(page('Sign in', html`
      <main id="main">
        <div class="signin">
          <h1>Sign in</h1>
          ${message === undefined ? '' : html`<div class="error" role="alert">${message}</div>`}
          ${providerName === undefined ? '' : html`<p><a class="button" href="/auth/login">Sign in with ${providerName}</a></p>`}
        </div>
        ${!auth.passwordLogin ? '' : html`<form method="post" action="/signin" class="signin">
          <input type="hidden" name="_csrf" value="${token}">
          <label>Email <input type="email" name="email" autocomplete="username" required autofocus></label>
          <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
          <button type="submit">Sign in</button>
        </form>`}
      </main>`).value);
  };

  router.get('/favicon.ico', (_req, res) => void res.status(204).end());
  router.get('/signin', (req, res) => signInForm(req, res, 200));
  router.post('/signin', async (req, res) => {
    if (!sameToken(field(req, '_csrf'), cookieValue(req, SIGNIN_COOKIE) ?? '')) return signInForm(req, res, 403, 'The form expired; please try again.');
    try {
      const { cookie } = await auth.signIn(field(req, 'email') ?? '', field(req, 'password') ?? '', sourceAddress(req));
      setCookie(req, res, SESSION_COOKIE, cookie, SESSION_TTL_MS / 1000);
      res.redirect(303, '/');
    } catch (err: unknown) {
      const e = toGatewayError(err);
      if (e.retryAfterSeconds !== undefined) res.setHeader('retry-after', String(e.retryAfterSeconds));
      signInForm(req, res, e.status, e.publicMessage);
    }
  });

  // Every other dashboard route needs a session; every POST needs the session's CSRF token.
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    let view;
    try {
      view = await auth.session(cookieValue(req, SESSION_COOKIE), sourceAddress(req));
    } catch (err: unknown) {
      return next(err);
    }
    if (view === undefined) {
      if (req.method === 'GET') return res.redirect(303, '/signin');
      return res.status(401).type('text').send('Sign in first.');
    }
    if (req.method !== 'GET' && req.method !== 'HEAD' && !sameToken(field(req, '_csrf'), view.csrfToken)) {
      return next(new ForbiddenError('The form is missing its CSRF token, or it is stale; reload the page and try again.'));
    }
    res.locals['ctx'] = { session: view, nowMs: service.now() } satisfies PageContext;
    next();
  });

  const show = (render: Page) => async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const out = await render(res.locals['ctx'] as PageContext, req, res);
      if (out !== undefined) res.status(res.statusCode).type('html').send(out.value);
    } catch (err: unknown) {
      next(err);
    }
  };
  const p = (req: Request, name: string): string => String(req.params[name]);

  router.post('/signout', show(async (_ctx, req, res) => {
    await auth.signOut(cookieValue(req, SESSION_COOKIE));
    setCookie(req, res, SESSION_COOKIE, '', 0);
    res.redirect(303, '/signin');
  }));

  router.get('/', show((ctx, _req, res) => res.redirect(303, ctx.session.admin.account_id === null ? '/accounts' : `/accounts/${ctx.session.admin.account_id}`)));

  router.get('/accounts', show(async (ctx) => {
    const c = ctx.session.caller;
    if (ctx.session.admin.account_id !== null) throw new ForbiddenError('Only platform administrators see every account.');
    return accountsPage(ctx, await service.listAccounts(c), await service.listPlans(c));
  }));
  router.post('/accounts', show(async (ctx, req, res) => {
    const a = await service.createAccount(ctx.session.caller, { name: field(req, 'name'), plan: field(req, 'plan') });
    res.redirect(303, `/accounts/${a.id}`);
  }));
  router.post('/plans', show(async (ctx, req, res) => {
    const b = req.body as Record<string, string>;
    await service.createPlan(ctx.session.caller, {
      name: b['name'], residency: b['residency'], requests_per_minute: b['requests_per_minute'], concurrency: b['concurrency'],
      allowance: b['allowance'], overage_allowed: b['overage_allowed'], overage_ceiling: blankToUndefined(b['overage_ceiling']),
      models: blankToUndefined(b['models']),
    });
    res.redirect(303, '/accounts');
  }));

  router.get('/accounts/:id', show(async (ctx, req) => {
    const c = ctx.session.caller;
    const account = await service.getAccount(c, p(req, 'id'));
    const days = lastDays(ctx.nowMs, 30);
    return overviewPage(ctx, {
      account,
      usage: await service.accountUsage(c, account.id),
      daily: await service.dailyUsage(c, account.id, days[0], days[days.length - 1]),
      rate: await service.ratePosition(c, account.id),
      keyCount: (await service.listKeys(c, account.id)).length,
    });
  }));

  router.get('/accounts/:id/keys', show(async (ctx, req) => {
    const account = await service.getAccount(ctx.session.caller, p(req, 'id'));
    return keysPage(ctx, account.id, account.name, await service.keyRows(ctx.session.caller, account.id), service.catalogue);
  }));
  router.post('/accounts/:id/keys', show(async (ctx, req, res) => {
    const c = ctx.session.caller;
    const account = await service.getAccount(c, p(req, 'id'));
    const expires = blankToUndefined(field(req, 'expires_at'));
    try {
      const { record, key } = await service.createKey(c, account.id, {
        name: field(req, 'name'), environment: field(req, 'environment'), residency: field(req, 'residency'),
        privacy_mode: field(req, 'privacy_mode'), allowed_models: blankToUndefined(field(req, 'allowed_models')),
        allowed_ips: blankToUndefined(field(req, 'allowed_ips')),
        // datetime-local has no zone: the form says UTC.
        expires_at: expires === undefined ? undefined : /Z|[+-]\d\d:\d\d$/.test(expires) ? expires : `${expires}Z`,
      });
      return secretPage(ctx, 'Key created', record, key, html``);
    } catch (err: unknown) {
      if (!(err instanceof GatewayError) || err.status !== 400) throw err;
      res.status(400);
      return keysPage(ctx, account.id, account.name, await service.keyRows(c, account.id), service.catalogue, err.publicMessage);
    }
  }));

  router.get('/keys/:id', show(async (ctx, req) => {
    const c = ctx.session.caller;
    const key = await service.getKey(c, p(req, 'id'));
    return keyDetailPage(ctx, {
      key,
      replacement: await service.replacementOf(c, key.id),
      previous: key.rotated_from === null ? undefined : await service.getKey(c, key.rotated_from),
      idle: service.isIdle(key),
      daily: await service.keyDailyUsage(c, key.id, 30),
    }, service.catalogue);
  }));
  router.post('/keys/:id/rotate', show(async (ctx, req) => {
    const c = ctx.session.caller;
    const { record, key } = await service.rotateKey(c, p(req, 'id'));
    const old = await service.getKey(c, p(req, 'id'));
    return secretPage(ctx, 'Key rotated', record, key, rotatedExtra(ctx, old, record, service.isIdle(old)));
  }));
  router.get('/keys/:id/revoke', show(async (ctx, req) => {
    const key = await service.getKey(ctx.session.caller, p(req, 'id'));
    return revokeConfirmPage(ctx, key, service.isIdle(key));
  }));
  router.post('/keys/:id/revoke', show(async (ctx, req, res) => {
    const key = await service.revokeKey(ctx.session.caller, p(req, 'id'));
    res.redirect(303, `/keys/${key.id}`);
  }));

  router.get('/accounts/:id/hygiene', show(async (ctx, req) => {
    const account = await service.getAccount(ctx.session.caller, p(req, 'id'));
    return hygienePage(ctx, account.id, await service.hygiene(ctx.session.caller, account.id));
  }));
  const adminsPage = async (ctx: PageContext, created?: Parameters<typeof administratorsPage>[3]) => {
    const tokens = await service.administrators.listTokens(ctx.session.caller);
    return administratorsPage(ctx, await service.administrators.listAdmins(ctx.session.caller), tokens, created, undefined,
      await service.administrators.tokenExpiries(tokens));
  };
  router.get('/admins', show((ctx) => adminsPage(ctx)));
  router.post('/admins/tokens', show(async (ctx, req) => {
    const created = await service.administrators.createToken(ctx.session.caller, { email: ctx.session.admin.email, name: field(req, 'name') });
    return adminsPage(ctx, created);
  }));
  router.post('/admins/tokens/:id/renew', show(async (ctx, req, res) => {
    await service.administrators.renewToken(ctx.session.caller, p(req, 'id'));
    res.redirect(303, '/admins');
  }));
  router.post('/admins/tokens/:id/revoke', show(async (ctx, req, res) => {
    await service.administrators.revokeToken(ctx.session.caller, p(req, 'id'));
    res.redirect(303, '/admins');
  }));

  router.get('/audit', show(async (ctx, req) => {
    const account = typeof req.query['account'] === 'string' && req.query['account'] !== '' ? req.query['account'] : undefined;
    return auditPage(ctx, await service.auditTrail(ctx.session.caller, account), account);
  }));
  // The residency report, scoped as the audit log: every account (or one) for the platform, one's own otherwise.
  const residencyQuery = (ctx: PageContext, req: Request) => {
    const q = (n: string) => (typeof req.query[n] === 'string' && req.query[n] !== '' ? req.query[n] : undefined);
    const days = lastDays(ctx.nowMs, 30);
    return { accountId: q('account'), from: q('from') ?? (days[0] as string), to: q('to') ?? (days[days.length - 1] as string) };
  };
  router.get('/residency', show(async (ctx, req) => {
    const v = residencyQuery(ctx, req);
    return residencyPage(ctx, { ...v, rows: await service.residencyReport(ctx.session.caller, v.accountId, v.from, v.to) });
  }));
  router.get('/residency.csv', show(async (ctx, req, res) => {
    const v = residencyQuery(ctx, req);
    const rows = await service.residencyReport(ctx.session.caller, v.accountId, v.from, v.to);
    res.type('text/csv; charset=utf-8').setHeader('content-disposition', `attachment; filename="residency-report-${v.from}-${v.to}.csv"`);
    res.send(residencyReportCsv(rows));
  }));
  router.get('/accounts/:id/usage.csv', show(async (ctx, req, res) => {
    const q = (n: string) => (typeof req.query[n] === 'string' ? req.query[n] : undefined);
    const rows = await service.dailyUsage(ctx.session.caller, p(req, 'id'), q('from'), q('to'));
    const lines = ['date,model,environment,requests,billable_units,cost_gbp',
      ...rows.map((r) => [r.date, r.model, r.environment, r.requests, r.billable_units, formatGbp(r.environment === 'live' ? r.cost_units : 0n)].join(','))];
    res.type('text/csv').setHeader('content-disposition', `attachment; filename="usage-${p(req, 'id')}.csv"`);
    res.send(`${lines.join('\n')}\n`);
  }));

  // The one place dashboard errors become pages.
  router.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const e = toGatewayError(err);
    if (!e.expose || e.status >= 500) log.error({ err }, 'dashboard request failed');
    const title = e.status === 404 ? 'Not found' : e.status === 403 ? 'Not allowed' : 'Something went wrong';
    res.status(e.status).type('html').send(page(title, html`<main id="main"><h1>${title}</h1><p>${e.publicMessage}</p><p><a href="/">Back to the dashboard</a></p></main>`).value);
  });
  return router;
}
