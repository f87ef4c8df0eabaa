import type { ModelCatalogue } from '../catalogue.js';
import { AdminStore } from '../db/admin-store.js';
import { AdministratorStore } from '../db/administrators.js';
import { AuditLog } from '../db/audit-log.js';
import type { Db } from '../db/database.js';
import { UsageLedger } from '../db/usage-ledger.js';
import { UsageQueries } from '../db/usage-queries.js';
import { AdminService, type RateProbe } from './admin-service.js';

/** The admin service over one database, as the CLI and the policy service's admin port both build it. */
export function createAdminService(db: Db, catalogue: ModelCatalogue, options: { now?: () => number; rates?: RateProbe } = {}): AdminService {
  const now = options.now ?? Date.now;
  return new AdminService({
    db,
    store: new AdminStore(db, now),
    admins: new AdministratorStore(db),
    audit: new AuditLog(db, now),
    usage: new UsageQueries(db),
    ledger: new UsageLedger(db, now),
    catalogue,
    now,
    ...(options.rates === undefined ? {} : { rates: options.rates }),
  });
}
