import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceUnavailableError, createLogger } from '@gateway/shared';
import { openDatabase, type Db } from '../src/db/database.js';
import type { KeyRecord } from '../src/db/records.js';
import { SqliteStore } from '../src/db/sqlite-store.js';
import { KeyCache } from '../src/key-cache.js';
import { rejection } from './support/rejection.js';

/** The SQLite store, with a key lookup that waits until the test lets it answer (a slow database), or fails. */
class HeldLookups extends SqliteStore {
  private release: (() => void) | undefined;
  held = false;
  failing = false;
  override async findKeyByHash(hash: string): Promise<KeyRecord | undefined> {
    if (this.failing) throw new Error('connection refused');
    const record = await super.findKeyByHash(hash);
    if (!this.held) return record;
    await new Promise<void>((r) => (this.release = r));
    return record;
  }
  answer(): void {
    this.release?.();
  }
}

describe('key cache over an asynchronous store', function () {
  let dir: string;
  let db: Db;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-keycache-'));
    db = openDatabase(join(dir, 'g.sqlite'));
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('does not put back a key read before a revocation that a reload saw while the lookup waited', async function () {
    const store = new HeldLookups(db);
    await store.createPlan({ name: 'p', residency: 'eu', requests_per_minute: 60, concurrency: 2, allowance: 100, overage_allowed: false, overage_ceiling: 0, models: null });
    const account = await store.createAccount('A', 'p');
    const cache = new KeyCache(store, createLogger('test', 'silent'));
    await cache.start(60_000);
    // Created after the cache loaded: the first request with it goes to the store.
    const { record, key } = await store.createKey({ account_id: account.id, name: 'k', environment: 'live', residency: 'eu', privacy_mode: 'off' });
    store.held = true;
    const pending = cache.lookup(key);
    await new Promise((r) => setImmediate(r));
    // Meanwhile the key is revoked, and the poll reloads the cache with the revocation.
    await store.revokeKey(record.id);
    await cache.poll();
    store.answer();
    expect((await pending)?.record.revoked_at).to.be.a('string');
    expect((await cache.lookup(key))?.record.revoked_at).to.be.a('string');
    expect(cache.byId(record.id)?.record.revoked_at).to.be.a('string');
    cache.stop();
  });

  it('refuses a key it cannot look up as unavailable (retry), not as an invalid key', async function () {
    const store = new HeldLookups(db);
    await store.createPlan({ name: 'p', residency: 'eu', requests_per_minute: 60, concurrency: 2, allowance: 100, overage_allowed: false, overage_ceiling: 0, models: null });
    const account = await store.createAccount('A', 'p');
    const cache = new KeyCache(store, createLogger('test', 'silent'));
    await cache.start(60_000);
    const { key } = await store.createKey({ account_id: account.id, name: 'k', environment: 'live', residency: 'eu', privacy_mode: 'off' });
    const unknown = `gw_live_${'Q'.repeat(32)}`;
    store.failing = true;
    const err = await rejection(cache.lookup(key));
    expect(err).to.be.instanceOf(ServiceUnavailableError);
    expect((err as ServiceUnavailableError).status).to.equal(503);
    store.failing = false;
    expect((await cache.lookup(key))?.record.name).to.equal('k');
    expect(await cache.lookup(unknown)).to.equal(undefined);
    cache.stop();
  });
});
