import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { GatewayError, InvalidRequestError, MethodNotAllowedError, NotFoundError, newRequestId, refusalReason } from '@gateway/shared';
import { asGatewayError, sendError } from './http/error-responder.js';
import { requestIdOf } from './http/request-id.js';
import { accessRecord, logAccess } from './access-log.js';
import type { ProxyDeps } from './proxy-deps.js';
import { endRequestSpan, startRequestSpan } from './tracing/request-span.js';
import { attestationKeysRoute } from './routes/attestation-keys-route.js';
import { countTokensRoute } from './routes/count-tokens-route.js';
import { healthRoute, readyRoute } from './routes/health-route.js';
import { messagesRoute } from './routes/messages-route.js';
import { getModelRoute, listModelsRoute } from './routes/models-route.js';
import { rootRoute } from './routes/root-route.js';
import { usageRoute } from './routes/usage-route.js';

/**
 * The proxy's HTTP surface: the vendor's paths, health, and vendor-shaped 404/405 for everything else.
 * `POST /v1/messages`, the hot route, is served without express: its dispatch (router matching, prototype
 * swaps, query parsing) was ~5–8% of the proxy's CPU per request, and the route uses nothing express adds. The
 * rest of the surface (and any other spelling of the path express would also match) goes through express.
 */
export function createApp(deps: ProxyDeps): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  const routes: Array<{ path: string; method: 'get' | 'post'; handler: (req: Request, res: Response) => Promise<void> | void }> = [
    { path: '/v1/messages', method: 'post', handler: messagesRoute(deps) },
    { path: '/v1/messages/count_tokens', method: 'post', handler: countTokensRoute(deps) },
    { path: '/v1/models', method: 'get', handler: listModelsRoute(deps) },
    { path: '/v1/models/:id', method: 'get', handler: getModelRoute(deps) },
    { path: '/v1/usage', method: 'get', handler: usageRoute(deps) },
    { path: '/v1/attestation/keys', method: 'get', handler: attestationKeysRoute(deps) },
    { path: '/', method: 'get', handler: rootRoute() },
    { path: '/healthz', method: 'get', handler: healthRoute() },
    { path: '/readyz', method: 'get', handler: readyRoute(deps) },
  ];
  for (const r of routes) {
    app[r.method](r.path, r.handler);
    app.all(r.path, (req: Request, res: Response) => {
      sendError(res, new MethodNotAllowedError(req.method, req.path), requestIdOf(res), deps.log);
    });
  }

  app.use((req: Request, res: Response) => {
    sendError(res, new NotFoundError(`Not found: ${req.method} ${req.path}`), requestIdOf(res), deps.log);
  });
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    sendError(res, clientFault(err) ?? err, requestIdOf(res), deps.log);
  });

  const messages = messagesRoute(deps);
  const tracing = deps.config.tracing;
  return (req: IncomingMessage, res: ServerResponse) => {
    const route = routeLabel(pathOf(req.url ?? '/'));
    // Probes are not traced (nor logged): one trace every few seconds from every load balancer says nothing.
    if (tracing !== undefined && route !== 'health' && route !== 'root') startRequestSpan(req, res, route, tracing.trustIncoming);
    // What every request gets, express or not: a `request-id` (kept in res.locals, where express keeps it too,
    // for the route and its logs), drain tracking, and its metrics.
    const requestId = newRequestId();
    (res as Response).locals = { requestId };
    res.setHeader('request-id', requestId);
    deps.lifecycle.track(res);
    // While draining, no connection is kept for another request: clients reconnect to a proxy that stays.
    if (deps.lifecycle.draining) res.setHeader('connection', 'close');
    const started = performance.now();
    // The line is written once the route is done as well: a JSON answer closes the response inside the route,
    // before the route has noted the request's tokens and overhead in its access record. And a turn later: the
    // usage report the route queued goes to the policy service first (the next request's decision waits for it
    // there), the log line's write after it.
    let routeDone: Promise<void> = Promise.resolve();
    res.once('close', () => {
      const ms = performance.now() - started;
      const observe = (): void => {
        setImmediate(observeRequest, deps, req, res, route, ms);
      };
      void routeDone.then(observe, observe);
    });
    if (route === 'messages' && req.method === 'POST') {
      routeDone = messages(req as Request, res as Response).catch((err: unknown) => sendError(res, asGatewayError(err), requestId, deps.log));
      return;
    }
    app(req, res);
  };
}

/** The path of a request target: origin-form without its query; absolute-form (`http://h/p`) by its URL. */
function pathOf(target: string): string {
  if (!target.startsWith('/')) {
    try {
      return new URL(target).pathname;
    } catch {
      return target;
    }
  }
  const q = target.indexOf('?');
  return q === -1 ? target : target.slice(0, q);
}

/** Metrics and the access-log line of a request whose response has closed (sent, or cut). */
function observeRequest(deps: ProxyDeps, req: IncomingMessage, res: ServerResponse, route: string, ms: number): void {
  const rec = accessRecord(res);
  const environment = rec.environment ?? environmentOf(req);
  deps.metrics.requests.inc({ route, status: String(res.statusCode), environment });
  deps.metrics.duration.observe({ route, stream: String(String(res.getHeader('content-type') ?? '').startsWith('text/event-stream')) }, ms / 1000);
  if (rec.error_code !== undefined) {
    const reason = refusalReason(rec.error_code);
    if (reason !== undefined) deps.metrics.refusals.inc({ error_type: rec.error_type ?? '', reason });
  }
  // Probes come every few seconds from every load balancer: counted, not logged.
  if (route !== 'health' && route !== 'root') {
    const ids = deps.config.tracing === undefined ? undefined : endRequestSpan(res, rec);
    logAccess(deps.accessLog, req, res, route, requestIdOf(res as Response), ms, ids);
  }
}

/** Errors express raises for the client's own input (a badly encoded path, say) are 400s, not faults. */
function clientFault(err: unknown): GatewayError | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500 && !(err instanceof GatewayError)) {
    return new InvalidRequestError('The request could not be understood (malformed path or header).');
  }
  return undefined;
}

/** Low-cardinality route names for metrics (never the raw path: model ids would explode the label set). */
function routeLabel(path: string): string {
  if (path === '/v1/messages') return 'messages';
  if (path === '/v1/messages/count_tokens') return 'count_tokens';
  if (path === '/v1/models') return 'models';
  if (path.startsWith('/v1/models/')) return 'model';
  if (path === '/v1/usage') return 'usage';
  if (path === '/v1/attestation/keys') return 'attestation_keys';
  if (path === '/healthz' || path === '/readyz') return 'health';
  if (path === '/') return 'root';
  return 'other';
}

function environmentOf(req: IncomingMessage): 'live' | 'test' | 'none' {
  const key = req.headers.authorization ?? req.headers['x-api-key'];
  const s = Array.isArray(key) ? key[0] ?? '' : key ?? '';
  if (s.includes('gw_live_')) return 'live';
  if (s.includes('gw_test_')) return 'test';
  return 'none';
}
