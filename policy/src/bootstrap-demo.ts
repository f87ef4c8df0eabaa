import { InvalidRequestError } from '@gateway/shared';
import type { KeyStore } from './db/gateway-store.js';

export interface DemoBootstrap {
  accountId: string;
  keyId: string;
  key: string;
}

/**
 * On an empty database: a default plan, a demo account and one test key, so a newcomer can make a first call.
 * The key is returned once for printing; only its hash is stored. Does nothing when any plan exists.
 */
export async function bootstrapDemo(store: KeyStore): Promise<DemoBootstrap | undefined> {
  if ((await store.listPlans()).length > 0) return undefined;
  try {
    await store.createPlan({
      name: 'starter',
      residency: 'eu',
      requests_per_minute: 60,
      concurrency: 5,
      allowance: 5_000_000,
      overage_allowed: false,
      overage_ceiling: 0,
      models: null,
    });
  } catch (err: unknown) {
    // Another replica starting on the same empty database got there first.
    if (err instanceof InvalidRequestError) return undefined;
    throw err;
  }
  const account = await store.createAccount('Demo', 'starter');
  const { record, key } = await store.createKey({
    account_id: account.id,
    name: 'demo test key',
    environment: 'test',
    residency: 'eu',
    privacy_mode: 'off',
  });
  return { accountId: account.id, keyId: record.id, key };
}
