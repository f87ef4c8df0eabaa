import { expect } from 'chai';
import { createLogger, loadConfig } from '@gateway/shared';
import type { AdmitRequest, CounterStore, UsageSource } from '../../src/counters/counter-store.js';
import { createCounterStore } from '../../src/counters/create-counter-store.js';
import { createRedisClient, waitUntilReady } from '../../src/counters/redis-connection.js';
import { RedisCounterStore } from '../../src/counters/redis-counter-store.js';
import { freePort, RedisServerProcess, sleep } from '../support/redis-harness.js';

const DAY = 86_400_000;

/** A live request as the decision service asks it: account window, slot, allowance. */
function liveRequest(leaseId: string, nowMs = Date.now()): AdmitRequest {
  return {
    nowMs,
    windows: [{ scope: 'acct_f:live:rpm', limit: 100 }],
    concurrency: { scope: 'acct_f:live', limit: 10, leaseId, ttlMs: 30_000 },
    allowance: {
      accountId: 'acct_f',
      periodId: 'p1',
      periodStartMs: nowMs - DAY,
      periodEndMs: nowMs + DAY,
      allowance: 1_000,
      overageAllowed: false,
      ceiling: 0,
      reserveUnits: 0,
    },
  };
}

async function rejects(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err: unknown) {
    return err;
  }
  throw new Error('expected a rejection');
}

async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(50);
  }
}


/** A ledger that holds `units` for every period and no uncounted row. */
function ledgerOf(units: number): UsageSource {
  return { load: async () => ({ units, uncounted: [], waiting: [] }), included: () => undefined };
}

describe('Redis counter store when Redis fails', function () {
  this.timeout(15_000);
  let server: RedisServerProcess | undefined;
  let store: CounterStore | undefined;

  afterEach(async () => {
    await store?.close();
    store = undefined;
    await server?.dispose();
    server = undefined;
  });

  it('rejects at once while Redis is down, and recovers by itself on the same store when it returns', async () => {
    server = await RedisServerProcess.start();
    const client = createRedisClient(server.url);
    client.on('error', () => undefined);
    expect(await waitUntilReady(client, 5_000)).to.equal(true);
    store = new RedisCounterStore(client, ledgerOf(7));
    expect(await store.admit(liveRequest('l1'))).to.include({ ok: true });

    await server.stop();
    const started = Date.now();
    expect(await rejects(store.admit(liveRequest('l2')))).to.be.instanceOf(Error);
    expect(await rejects(store.peekWindows(liveRequest('l2').windows, Date.now()))).to.be.instanceOf(Error);
    expect(await rejects(store.renew([{ scope: 'acct_f:live', leaseId: 'l1' }], 30_000, Date.now()))).to.be.instanceOf(Error);
    expect(await store.ping()).to.equal(false);
    expect(Date.now() - started).to.be.below(1_000);

    await server.start();
    await eventually(() => store!.ping(), 5_000);
    // The restarted server lost everything (no persistence): fresh window, used units reloaded from the ledger,
    // and the scripts sent again after NOSCRIPT.
    const again = await store.admit(liveRequest('l3'));
    expect(again).to.include({ ok: true });
    expect(again.window.remaining).to.equal(99);
    expect(await store.used(liveRequest('l3').allowance!)).to.equal(7);
  });

  it('gives up on a command Redis does not answer, instead of hanging', async () => {
    server = await RedisServerProcess.start();
    const client = createRedisClient(server.url, { commandTimeoutMs: 300 });
    client.on('error', () => undefined);
    expect(await waitUntilReady(client, 5_000)).to.equal(true);
    store = new RedisCounterStore(client, ledgerOf(0));
    server.pause();
    try {
      const started = Date.now();
      expect(await rejects(store.admit(liveRequest('l1')))).to.be.instanceOf(Error);
      expect(await store.ping()).to.equal(false);
      expect(Date.now() - started).to.be.below(2_000);
    } finally {
      server.resume();
    }
    await eventually(() => store!.ping(), 5_000);
  });

  it('createCounterStore starts without Redis, warns, answers with errors, then uses Redis once it is up', async () => {
    const port = await freePort();
    const lines: string[] = [];
    const log = createLogger('test', 'info', { write: (line: string) => void lines.push(line) });
    const config = loadConfig({ REDIS_URL: `redis://127.0.0.1:${port}` });
    const started = Date.now();
    store = await createCounterStore(config, ledgerOf(0), log);
    expect(Date.now() - started).to.be.below(3_000);
    expect(store).to.be.instanceOf(RedisCounterStore);
    expect(lines.some((l) => l.includes('"level":40') && l.includes('unreachable at start'))).to.equal(true);
    expect(await store.ping()).to.equal(false);
    expect(await rejects(store.admit(liveRequest('l1')))).to.be.instanceOf(Error);

    server = await RedisServerProcess.start({ port });
    await eventually(() => store!.ping(), 5_000);
    expect(await store.admit(liveRequest('l1'))).to.include({ ok: true });
    expect(lines.some((l) => l.includes('reachable') && !l.includes('unreachable'))).to.equal(true);
  });

  it('createCounterStore keeps the in-process store when REDIS_URL is unset', async () => {
    store = await createCounterStore(loadConfig({}), ledgerOf(0), createLogger('test', 'silent'));
    expect(store).to.not.be.instanceOf(RedisCounterStore);
    expect(await store.ping()).to.equal(true);
  });
});
