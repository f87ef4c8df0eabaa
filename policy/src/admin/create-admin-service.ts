import type { ModelCatalogue } from '../catalogue.js';
import type { GatewayStore } from '../db/gateway-store.js';
import { AdminService, type RateProbe } from './admin-service.js';

/** The admin service over one store, as the CLI and the policy service's admin port both build it. */
export function createAdminService(store: GatewayStore, catalogue: ModelCatalogue, options: { now?: () => number; rates?: RateProbe; providerTokenLifetimeMs?: number } = {}): AdminService {
  return new AdminService({
    store,
    catalogue,
    now: options.now ?? Date.now,
    ...(options.rates === undefined ? {} : { rates: options.rates }),
    ...(options.providerTokenLifetimeMs === undefined ? {} : { providerTokenLifetimeMs: options.providerTokenLifetimeMs }),
  });
}
