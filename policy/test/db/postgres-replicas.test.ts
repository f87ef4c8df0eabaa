import { expect } from 'chai';
import pg from 'pg';
import { createLogger } from '@gateway/shared';
import { PostgresStore } from '../../src/db/postgres/postgres-store.js';
import { MIGRATIONS } from '../../src/db/migrations.js';
import { KeyCache } from '../../src/key-cache.js';
import { TestPostgres } from '../support/postgres-harness.js';

const log = createLogger('test', 'silent');

/** Resolves with how long `fn` took to come true (polled every 10 ms), or rejects after `timeoutMs`. */
async function within(timeoutMs: number, fn: () => boolean): Promise<number> {
  const start = Date.now();
  while (!fn()) {
    if (Date.now() - start > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - start;
}

describe('several policy replicas on one PostgreSQL', function () {
  this.timeout(60_000);
  let server: TestPostgres;
  before(async function () {
    server = await TestPostgres.start();
  });
  after(async () => server?.dispose());

  it('migrates once when several replicas start together', async function () {
    const url = await server.createDatabase('migr');
    const stores = await Promise.all(Array.from({ length: 4 }, () => PostgresStore.open(url)));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const rows = (await client.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version')).rows;
    const tables = (await client.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1")).rows;
    await client.end();
    await Promise.all(stores.map((s) => s.close()));
    expect(rows.map((r) => Number(r.version))).to.deep.equal(MIGRATIONS.map((m) => m.version));
    expect(tables.map((t) => t.table_name)).to.include.members(['usage_ledger', 'usage_totals', 'change_log', 'audit_log', 'api_keys']);
  });

  it('carries a revocation made through one replica to another within a second, also after the database came back', async function () {
    const url = await server.createDatabase('revoke');
    const a = await PostgresStore.open(url);
    const b = await PostgresStore.open(url);
    await b.createPlan({ name: 'p', residency: 'eu', requests_per_minute: 60, concurrency: 2, allowance: 100, overage_allowed: false, overage_ceiling: 0, models: null });
    const account = await b.createAccount('A', 'p');
    const first = await b.createKey({ account_id: account.id, name: 'k1', environment: 'live', residency: 'eu', privacy_mode: 'off' });
    const second = await b.createKey({ account_id: account.id, name: 'k2', environment: 'live', residency: 'eu', privacy_mode: 'off' });
    const cache = new KeyCache(a, log);
    await cache.start(200);
    const revoked: string[] = [];
    cache.onRevoked((id) => revoked.push(id));
    try {
      expect((await cache.lookup(first.key))?.record.revoked_at).to.equal(null);
      await b.revokeKey(first.record.id);
      const took = await within(1_000, () => revoked.includes(first.record.id));
      expect((await cache.lookup(first.key))?.record.revoked_at).to.be.a('string');
      expect(took).to.be.below(1_000);

      // The database goes away (a failover): polls fail, nothing is lost; when it is back, the next change lands.
      await server.stop();
      await new Promise((r) => setTimeout(r, 500));
      await server.restart();
      await b.revokeKey(second.record.id);
      await within(1_000, () => revoked.includes(second.record.id));
      expect(cache.byId(second.record.id)?.record.revoked_at).to.be.a('string');
    } finally {
      cache.stop();
      await a.close();
      await b.close();
    }
  });
});
