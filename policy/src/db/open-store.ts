import type { GatewayConfig } from '@gateway/shared';
import { openDatabase } from './database.js';
import type { GatewayStore } from './gateway-store.js';
import { SqliteStore } from './sqlite-store.js';

/**
 * The store the settings name: PostgreSQL when DATABASE_URL is set (migrated on open), else SQLite under the
 * data directory. gatewayctl, the admin port and the policy service all open it here.
 */
export async function openStore(
  config: Pick<GatewayConfig, 'databaseUrl' | 'databaseFile'>,
  options: { onIdleError?: (err: Error) => void; poolSize?: number } = {},
): Promise<GatewayStore> {
  // Loaded only when named: the PostgreSQL client costs an SQLite deployment ~60 ms of start-up for nothing.
  if (config.databaseUrl !== undefined) return (await import('./postgres/postgres-store.js')).PostgresStore.open(config.databaseUrl, options);
  return new SqliteStore(openDatabase(config.databaseFile));
}
