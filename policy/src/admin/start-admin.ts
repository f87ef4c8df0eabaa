import type { GatewayConfig, Logger } from '@gateway/shared';
import type { ModelCatalogue } from '../catalogue.js';
import type { CounterStore } from '../counters/counter-store.js';
import type { GatewayStore } from '../db/gateway-store.js';
import { AdminAuth } from './admin-auth.js';
import { createAdminService } from './create-admin-service.js';
import { createAdminApp, startAdminServer, type RunningAdminServer } from './http/admin-server.js';
import { ProviderSignIn } from './sign-in/provider-sign-in.js';

/** The policy service's admin port (ADMIN_HOST:ADMIN_PORT): dashboard and admin API over the admin service. */
export async function startAdmin(config: GatewayConfig, store: GatewayStore, catalogue: ModelCatalogue, counters: CounterStore, log: Logger): Promise<RunningAdminServer> {
  const service = createAdminService(store, catalogue, {
    // The live per-minute window and concurrency, read without counting anything (the scopes of decision-service.ts).
    rates: async (accountId, limits) => {
      const now = Date.now();
      const window = await counters.peekWindows([{ scope: `${accountId}:live:rpm`, limit: limits.requests_per_minute }], now);
      return { remaining: window.remaining, resetUnix: window.resetUnix, inFlight: await counters.inFlight(`${accountId}:live`, now) };
    },
    ...(config.signIn.oidc === undefined ? {} : { providerTokenLifetimeMs: config.signIn.oidc.tokenMaxLifetimeMs }),
  });
  const adminLog = log.child({ component: 'admin' });
  const oidc = config.signIn.oidc;
  const provider = oidc === undefined ? undefined : new ProviderSignIn(oidc, store, adminLog);
  const auth = new AdminAuth(store, Date.now, { passwordLogin: config.signIn.passwordLogin, ...(provider === undefined ? {} : { provider }) });
  const server = await startAdminServer(createAdminApp(service, auth, adminLog, provider), config.adminHost, config.adminPort);
  if (provider === undefined || oidc === undefined) return server;
  // Sessions are rechecked on a timer too, so a person removed from the group loses access within the recheck
  // period even if their browser is idle (each replica runs it; every session is claimed by one).
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    provider.recheckDue().catch((err: unknown) => adminLog.warn({ err }, 'session recheck round failed')).finally(() => {
      running = false;
    });
  }, Math.max(250, Math.min(30_000, Math.floor(oidc.sessionRecheckMs / 4))));
  timer.unref();
  return { port: server.port, close: () => { clearInterval(timer); return server.close(); } };
}
