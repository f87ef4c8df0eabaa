import type { GatewayConfig, Logger } from '@gateway/shared';
import type { ModelCatalogue } from '../catalogue.js';
import type { CounterStore } from '../counters/counter-store.js';
import type { GatewayStore } from '../db/gateway-store.js';
import { AdminAuth } from './admin-auth.js';
import { createAdminService } from './create-admin-service.js';
import { createAdminApp, startAdminServer, type RunningAdminServer } from './http/admin-server.js';

/** The policy service's admin port (ADMIN_HOST:ADMIN_PORT): dashboard and admin API over the admin service. */
export async function startAdmin(config: GatewayConfig, store: GatewayStore, catalogue: ModelCatalogue, counters: CounterStore, log: Logger): Promise<RunningAdminServer> {
  const service = createAdminService(store, catalogue, {
    // The live per-minute window and concurrency, read without counting anything (the scopes of decision-service.ts).
    rates: async (accountId, limits) => {
      const now = Date.now();
      const window = await counters.peekWindows([{ scope: `${accountId}:live:rpm`, limit: limits.requests_per_minute }], now);
      return { remaining: window.remaining, resetUnix: window.resetUnix, inFlight: await counters.inFlight(`${accountId}:live`, now) };
    },
  });
  const auth = new AdminAuth(store);
  return startAdminServer(createAdminApp(service, auth, log.child({ component: 'admin' })), config.adminHost, config.adminPort);
}
