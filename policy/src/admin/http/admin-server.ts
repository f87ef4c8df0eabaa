import type { Server } from 'node:http';
import express from 'express';
import type { Logger } from '@gateway/shared';
import type { AdminAuth } from '../admin-auth.js';
import type { AdminService } from '../admin-service.js';
import { dashboardRouter } from '../dashboard/dashboard-routes.js';
import type { ProviderSignIn } from '../sign-in/provider-sign-in.js';
import { adminApiRouter } from './api-routes.js';
import { authRouter } from './auth-routes.js';
import { securityHeaders } from './security.js';

export interface RunningAdminServer {
  port: number;
  close(): Promise<void>;
}

/** The admin port: the JSON admin API under /admin/v1 and the dashboard at /, one service under both. */
export function createAdminApp(service: AdminService, auth: AdminAuth, log: Logger, provider?: ProviderSignIn): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(securityHeaders);
  app.use('/admin/v1', adminApiRouter(service, auth, log));
  app.use(authRouter(auth, provider, log));
  app.use(dashboardRouter(service, auth, log, provider?.displayName));
  return app;
}

export async function startAdminServer(app: express.Express, host: string, port: number): Promise<RunningAdminServer> {
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(port, host, (err?: Error) => (err === undefined ? resolve(s) : reject(err)));
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : port,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
