import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { GatewayError, InternalError, InvalidRequestError, MethodNotAllowedError, NotFoundError, vendorErrorBody, type Logger } from '@gateway/shared';
import type { AdminAuth } from '../admin-auth.js';
import { accountJson, apiKeyJson, createdKeyJson, dailyUsageJson } from '../admin-json.js';
import type { AdminService } from '../admin-service.js';
import type { Caller } from '../principal.js';
import { residencyReportCsv } from '../residency-csv.js';
import { sourceAddress } from './security.js';

type Handler = (caller: Caller, req: Request) => Promise<unknown>;

/** An answer that is not JSON (the residency report as CSV). */
class TextReply {
  constructor(readonly contentType: string, readonly body: string, readonly filename: string) {}
}

const asObject = (body: unknown): Record<string, unknown> => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InvalidRequestError('The body must be a JSON object.');
  return body as Record<string, unknown>;
};
const param = (req: Request, name: string): string => String(req.params[name]);
const query = (req: Request, name: string): string | undefined => (typeof req.query[name] === 'string' ? req.query[name] : undefined);

/** The admin API (CONTRACT.md "Admin API and dashboard"): bearer admin tokens, JSON, vendor-shaped errors. */
export function adminApiRouter(service: AdminService, auth: AdminAuth, log: Logger): Router {
  const router = express.Router();
  router.use(express.json({ limit: '64kb', type: () => true }));

  const route = (handler: Handler) => async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const caller = await auth.tokenCaller(req.headers.authorization, sourceAddress(req));
      const out = await handler(caller, req);
      if (out instanceof TextReply) {
        res.status(200).type(out.contentType).setHeader('content-disposition', `attachment; filename="${out.filename}"`);
        res.send(out.body);
      } else {
        res.status(200).json(out);
      }
    } catch (err: unknown) {
      next(err);
    }
  };
  const now = () => service.now();

  router.get('/accounts', route(async (c) => (await service.listAccounts(c)).map(accountJson)));
  router.post('/accounts', route(async (c, req) => {
    const b = asObject(req.body);
    return accountJson(await service.createAccount(c, { ...b, ...((b['overrides'] ?? {}) as object) }));
  }));
  router.get('/accounts/:id/keys', route(async (c, req) => (await service.listKeys(c, param(req, 'id'))).map((k) => apiKeyJson(k, now()))));
  router.post('/accounts/:id/keys', route(async (c, req) => {
    const { record, key } = await service.createKey(c, param(req, 'id'), asObject(req.body));
    return { ...createdKeyJson(record, key), display: record.display, state: 'active', created_at: record.created_at };
  }));
  router.post('/keys/:id/revoke', route(async (c, req) => apiKeyJson(await service.revokeKey(c, param(req, 'id')), now())));
  router.post('/keys/:id/rotate', route(async (c, req) => {
    const { record, key } = await service.rotateKey(c, param(req, 'id'));
    return { ...createdKeyJson(record, key), display: record.display, state: 'active', created_at: record.created_at, rotated_from: param(req, 'id') };
  }));
  router.get('/accounts/:id/usage', route(async (c, req) =>
    (await service.dailyUsage(c, param(req, 'id'), query(req, 'from'), query(req, 'to'))).map(dailyUsageJson)));
  router.get('/audit', route((c, req) => service.auditTrail(c, query(req, 'account'))));
  router.get('/residency-report', route(async (c, req) => {
    const format = query(req, 'format') ?? 'json';
    if (format !== 'json' && format !== 'csv') throw new InvalidRequestError(`format must be json or csv (got ${JSON.stringify(format)})`);
    const rows = await service.residencyReport(c, query(req, 'account'), query(req, 'from'), query(req, 'to'));
    return format === 'csv' ? new TextReply('text/csv; charset=utf-8', residencyReportCsv(rows), 'residency-report.csv') : rows;
  }));

  // A known path with the wrong method is 405, as on the proxy; anything else 404.
  for (const path of ['/accounts', '/accounts/:id/keys', '/keys/:id/revoke', '/keys/:id/rotate', '/accounts/:id/usage', '/audit', '/residency-report']) {
    router.all(path, (req: Request, _res: Response, next: NextFunction) => next(new MethodNotAllowedError(req.method, req.originalUrl.split('?')[0] as string)));
  }
  router.use((req: Request, _res: Response, next: NextFunction) => next(new NotFoundError(`No admin API route ${req.method} ${req.originalUrl}.`)));
  // The one place admin API errors become responses.
  router.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const e = toGatewayError(err);
    if (!e.expose || e.status >= 500) log.error({ err }, 'admin API request failed');
    if (e.retryAfterSeconds !== undefined) res.setHeader('retry-after', String(e.retryAfterSeconds));
    res.status(e.status).json(vendorErrorBody(e, String(res.getHeader('request-id'))));
  });
  return router;
}

/** Express's own errors (a body that is not JSON, or too large) and faults, in the one error family. */
export function toGatewayError(err: unknown): GatewayError {
  if (err instanceof GatewayError) return err;
  const status = (err as { status?: unknown } | null)?.status;
  if (status === 400) return new InvalidRequestError('The body is not valid JSON.');
  if (status === 413) return new InvalidRequestError('The body is too large.');
  return new InternalError('admin request failed', { cause: err });
}
