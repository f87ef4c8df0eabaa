import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, generateApiKey, hashApiKey } from '@gateway/shared';
import { SqliteStore } from '../src/db/sqlite-store.js';
import { openDatabase, type Db } from '../src/db/database.js';
import { authenticate } from '../src/decision-rules.js';
import { KeyCache } from '../src/key-cache.js';

/**
 * Keys are never compared byte by byte: the SHA-256 of what the client sent is looked up (a Map, then an indexed
 * SQLite column), so how long a refusal takes cannot tell a prober how much of a key it guessed right.
 */
describe('key lookup (constant-time with respect to the secret)', function () {
  let dir: string;
  let db: Db;
  let admin: SqliteStore;
  let cache: KeyCache;
  let key: string;
  before(async function () {
    dir = mkdtempSync(join(tmpdir(), 'gw-keylookup-'));
    db = openDatabase(join(dir, 'g.sqlite'));
    admin = new SqliteStore(db);
    await admin.createPlan({ name: 'eu', residency: 'eu', requests_per_minute: 10, concurrency: 2, allowance: 100, overage_allowed: false, overage_ceiling: 0, models: null });
    const acct = await admin.createAccount('a', 'eu');
    key = (await admin.createKey({ account_id: acct.id, name: 'k', environment: 'live', residency: 'eu', privacy_mode: 'off' })).key;
    cache = new KeyCache(admin, createLogger('test', 'silent'));
    await cache.start(60_000);
  });
  after(function () {
    cache.stop();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores only the hash of a key', function () {
    const rows = JSON.stringify(db.prepare('SELECT * FROM api_keys').all());
    expect(rows).not.to.contain(key);
    expect(rows).not.to.contain(key.slice(8));
    expect(rows).to.contain(hashApiKey(key));
  });

  it('takes as long to refuse a key wrong in its last character as one wrong in all of them', async function () {
    const near = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
    const far = generateApiKey('live');
    const now = Date.now();
    const check = async (probe: string) => {
      const entry = await cache.lookup(probe);
      return authenticate(probe, () => entry, now);
    };
    const time = async (probe: string): Promise<number> => {
      const t = process.hrtime.bigint();
      for (let i = 0; i < 300; i += 1) await check(probe);
      return Number(process.hrtime.bigint() - t);
    };
    expect(await check(near)).to.be.instanceOf(Error);
    const nearTimes: number[] = [];
    const farTimes: number[] = [];
    // The order alternates each round, so warming up or a neighbour's burst does not always favour one probe.
    for (let round = 0; round < 40; round += 1) {
      if (round % 2 === 0) {
        nearTimes.push(await time(near));
        farTimes.push(await time(far));
      } else {
        farTimes.push(await time(far));
        nearTimes.push(await time(near));
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    const ratio = median(nearTimes) / median(farTimes);
    // Noise on a shared machine is a few tens of percent; a byte-wise compare would not show here at all, and a
    // prefix-dependent path would make `near` systematically slower.
    expect(ratio).to.be.within(0.6, 1.6);
  });
});
