/*
 * One suite every CounterStore must pass (in-process, single Redis, Redis Cluster), so the implementations
 * cannot drift apart. Each test uses a fresh account id, so tests never share counters, and passes its own clock.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type {
  AdmitRequest,
  AdmitResult,
  AllowanceSpec,
  CounterStore,
  UsageCount,
  UsageSource,
  WindowSpec,
} from '../../src/counters/counter-store.js';

export interface StoreFixture {
  store: CounterStore;
  /** The store loses every counter (Redis flushed, or the process restarted); resolves with the store to use after. */
  loseData(): Promise<CounterStore>;
}

export interface CounterStoreBackend {
  create(source: UsageSource): Promise<StoreFixture>;
  dispose(): Promise<void>;
}

const TTL = 30_000;
const MINUTE = 60_000;
const DAY = 86_400_000;

export function describeCounterStore(name: string, startBackend: () => Promise<CounterStoreBackend>): void {
  describe(`counter store: ${name}`, function () {
    this.timeout(10_000);
    let backend: CounterStoreBackend | undefined;
    let fixture: StoreFixture;
    let store: CounterStore;
    /** What the ledger holds for this test's account: the figure the loader answers with. */
    let ledger: number;
    /** Rows of this test's account the ledger holds uncounted (the loader answers with them). */
    let uncounted: string[];
    /** Rows of this test's account still in the ledger's write window (the loader answers with them apart). */
    let waiting: string[];
    let loads: Array<[string, number, number]>;
    /** While set, a ledger read answers (with the figure as it began) only once this resolves. */
    let slowRead: Promise<void> | undefined;
    /** What rebuilds reported as included. */
    let included: string[][];
    let seq: number;
    let acct: string;
    /** 10.0 s into a UTC minute */
    let t0: number;
    let minuteStart: number;

    before(async function () {
      this.timeout(30_000);
      backend = await startBackend();
    });
    after(async () => {
      await backend?.dispose();
    });
    beforeEach(async () => {
      ledger = 0;
      uncounted = [];
      waiting = [];
      slowRead = undefined;
      included = [];
      seq = 0;
      loads = [];
      acct = `acct_${randomBytes(6).toString('hex')}`;
      minuteStart = Math.floor(Date.now() / MINUTE) * MINUTE;
      t0 = minuteStart + 10_000;
      fixture = await backend!.create({
        load: async (accountId, startMs, endMs) => {
          loads.push([accountId, startMs, endMs]);
          // The figure as of the read; answered once `slowRead` (if set when the read began) resolves.
          const figure = accountId === acct ? { units: ledger, uncounted: [...uncounted], waiting: [...waiting] } : { units: 0, uncounted: [], waiting: [] };
          await slowRead;
          return figure;
        },
        included: (ids) => {
          included.push([...ids]);
        },
      });
      store = fixture.store;
    });
    afterEach(async () => {
      await store.close();
    });

    const rpm = (limit: number, scope = `${acct}:live:rpm`): WindowSpec => ({ scope, limit });
    const slot = (leaseId: string, limit: number, scope = `${acct}:live`, ttlMs = TTL): AdmitRequest['concurrency'] => ({
      scope,
      limit,
      leaseId,
      ttlMs,
    });
    const period = (periodId = 'p1') => ({ accountId: acct, periodId, periodStartMs: t0 - DAY, periodEndMs: t0 + 29 * DAY });
    const allowance = (a: Partial<AllowanceSpec>): AllowanceSpec => ({
      ...period(),
      allowance: 100,
      overageAllowed: false,
      ceiling: 0,
      reserveUnits: 0,
      ...a,
    });
    const admit = (r: Partial<AdmitRequest> & { nowMs: number }): Promise<AdmitResult> => store.admit({ windows: [rpm(100)], ...r });
    const usage = (units: number, periodId = 'p1', requestId = `req_${(seq += 1)}`, attempt = 100 + seq): UsageCount => ({
      period: period(periodId),
      units,
      requestId,
      attempt,
    });
    /** A finished request as the decision service counts it: its row is in the ledger (or its window) first. */
    const finish = async (units: number, periodId = 'p1', leaseId?: string) => {
      ledger += units;
      return store.settle(leaseId === undefined ? undefined : { scope: `${acct}:live`, leaseId }, usage(units, periodId), t0);
    };
    const free = (leaseId: string, scope = `${acct}:live`) => store.settle({ scope, leaseId }, undefined, t0);

    describe('per-minute windows', () => {
      it('admits exactly the limit, then refuses with rpm and the whole seconds to the next minute', async () => {
        const resetUnix = minuteStart / 1000 + 60;
        for (let i = 0; i < 3; i += 1) {
          const r = await admit({ nowMs: t0 + i, windows: [rpm(3)] });
          expect(r).to.deep.equal({ ok: true, window: { limit: 3, remaining: 2 - i, resetUnix }, leaseExpiresMs: 0 });
        }
        const refused = await admit({ nowMs: t0 + 500, windows: [rpm(3)] });
        expect(refused).to.deep.equal({ ok: false, reason: 'rpm', window: { limit: 3, remaining: 0, resetUnix }, retryAfterSeconds: 50 });
        const late = await admit({ nowMs: minuteStart + 59_999, windows: [rpm(3)] });
        expect(late).to.include({ ok: false, reason: 'rpm', retryAfterSeconds: 1 });
      });

      it('starts a new window each UTC minute', async () => {
        for (let i = 0; i < 2; i += 1) expect((await admit({ nowMs: t0, windows: [rpm(2)] })).ok).to.equal(true);
        expect((await admit({ nowMs: t0, windows: [rpm(2)] })).ok).to.equal(false);
        const next = await admit({ nowMs: minuteStart + MINUTE, windows: [rpm(2)] });
        expect(next).to.deep.equal({ ok: true, window: { limit: 2, remaining: 1, resetUnix: minuteStart / 1000 + 120 }, leaseExpiresMs: 0 });
      });

      it('reports and enforces the binding window: the one with the fewest requests left', async () => {
        const account = rpm(4);
        const keyA = rpm(3, `${acct}:live:key:key_a:rpm`);
        const keyB = rpm(3, `${acct}:live:key:key_b:rpm`);
        expect((await admit({ nowMs: t0, windows: [account, keyA] })).window).to.include({ limit: 3, remaining: 2 });
        await admit({ nowMs: t0, windows: [account, keyA] });
        await admit({ nowMs: t0, windows: [account, keyA] });
        const capped = await admit({ nowMs: t0, windows: [account, keyA] });
        expect(capped).to.include({ ok: false, reason: 'rpm' });
        expect(capped.window).to.include({ limit: 3, remaining: 0 });
        // key B has its own cap left, but the account window has one request left: that one binds.
        const b = await admit({ nowMs: t0, windows: [account, keyB] });
        expect(b).to.include({ ok: true });
        expect(b.window).to.include({ limit: 4, remaining: 0 });
        const full = await admit({ nowMs: t0, windows: [account, keyB] });
        expect(full).to.include({ ok: false, reason: 'rpm' });
        expect(full.window).to.include({ limit: 4, remaining: 0 });
        expect(await store.peekWindows([keyB], t0)).to.include({ limit: 3, remaining: 2 });
      });

      it('peeks at the binding window without counting', async () => {
        const resetUnix = minuteStart / 1000 + 60;
        expect(await store.peekWindows([rpm(5)], t0)).to.deep.equal({ limit: 5, remaining: 5, resetUnix });
        await admit({ nowMs: t0, windows: [rpm(5)] });
        expect(await store.peekWindows([rpm(5)], t0)).to.deep.equal({ limit: 5, remaining: 4, resetUnix });
        expect(await store.peekWindows([rpm(5)], t0)).to.deep.equal({ limit: 5, remaining: 4, resetUnix });
        expect(await store.peekWindows([rpm(5), rpm(2, `${acct}:live:key:k:rpm`)], t0)).to.include({ limit: 2, remaining: 2 });
      });

      it('counts nothing for a refused request', async () => {
        expect((await admit({ nowMs: t0, windows: [rpm(5)], concurrency: slot('l1', 1) })).window.remaining).to.equal(4);
        const busy = await admit({ nowMs: t0, windows: [rpm(5)], concurrency: slot('l2', 1) });
        expect(busy).to.deep.include({ ok: false, reason: 'concurrency', retryAfterSeconds: 1 });
        expect(busy.window.remaining).to.equal(4);
        expect(await store.peekWindows([rpm(5)], t0)).to.include({ remaining: 4 });

        ledger = 100;
        const broke = await admit({ nowMs: t0, windows: [rpm(5)], concurrency: slot('l3', 5, `${acct}:other`), allowance: allowance({}) });
        expect(broke).to.include({ ok: false, reason: 'allowance' });
        expect(await store.peekWindows([rpm(5)], t0)).to.include({ remaining: 4 });
        expect(await store.inFlight(`${acct}:other`, t0)).to.equal(0);

        for (let i = 0; i < 4; i += 1) await admit({ nowMs: t0, windows: [rpm(5)] });
        expect(await admit({ nowMs: t0, windows: [rpm(5)], concurrency: slot('l4', 5, `${acct}:other`) })).to.include({ reason: 'rpm' });
        expect(await store.inFlight(`${acct}:other`, t0)).to.equal(0);
      });

      it('admits exactly the limit among 50 concurrent requests', async () => {
        const results = await Promise.all(Array.from({ length: 50 }, () => admit({ nowMs: t0, windows: [rpm(20)] })));
        expect(results.filter((r) => r.ok)).to.have.length(20);
        expect(results.filter((r) => !r.ok && r.reason === 'rpm')).to.have.length(30);
        expect(results.filter((r) => r.ok).map((r) => r.window.remaining).sort((a, b) => a - b)).to.deep.equal([...Array(20).keys()]);
      });
    });

    describe('concurrency leases', () => {
      it('admits exactly the limit; a release frees one slot; releasing again changes nothing', async () => {
        expect(await admit({ nowMs: t0, concurrency: slot('l1', 2) })).to.include({ ok: true, leaseExpiresMs: t0 + TTL });
        expect(await admit({ nowMs: t0, concurrency: slot('l2', 2) })).to.include({ ok: true });
        expect(await admit({ nowMs: t0, concurrency: slot('l3', 2) })).to.include({ ok: false, reason: 'concurrency' });
        expect(await store.inFlight(`${acct}:live`, t0)).to.equal(2);
        expect(await free('l1')).to.deep.equal({ kind: 'none' });
        await free('l1');
        expect(await store.inFlight(`${acct}:live`, t0)).to.equal(1);
        expect(await admit({ nowMs: t0, concurrency: slot('l4', 2) })).to.include({ ok: true });
        expect(await admit({ nowMs: t0, concurrency: slot('l5', 2) })).to.include({ ok: false, reason: 'concurrency' });
        await free('never-held');
        expect(await store.inFlight(`${acct}:live`, t0)).to.equal(2);
      });

      it('admits the same decision attempt again without counting it twice (a retry on another replica)', async () => {
        ledger = 0;
        const spec = allowance({ allowance: 100, overageAllowed: true, ceiling: 0, reserveUnits: 60 });
        const first = await admit({ nowMs: t0, windows: [rpm(2)], concurrency: slot('lse_attempt', 2), allowance: spec });
        expect(first).to.include({ ok: true });
        // The retry: same lease, a full window by now and an allowance its own reservation already fills.
        await admit({ nowMs: t0, windows: [rpm(2)] });
        const again = await admit({ nowMs: t0 + 5, windows: [rpm(2)], concurrency: slot('lse_attempt', 2), allowance: spec });
        expect(again).to.include({ ok: true });
        expect(again.window).to.include({ remaining: 0 });
        expect(await store.inFlight(`${acct}:live`, t0 + 5)).to.equal(1);
        expect(await store.peekWindows([rpm(2)], t0 + 5)).to.include({ remaining: 0 });
        // One reservation of 60, not two: 40 more fit under 100, 41 do not.
        expect(await admit({ nowMs: t0 + 5, concurrency: slot('x', 5), allowance: allowance({ ...spec, reserveUnits: 41 }) })).to.include({ ok: false, reason: 'allowance' });
        expect(await admit({ nowMs: t0 + 5, concurrency: slot('y', 5), allowance: allowance({ ...spec, reserveUnits: 40 }) })).to.include({ ok: true });
        // A lease that expired is a new admission.
        expect(await admit({ nowMs: t0 + TTL + 1, windows: [rpm(5)], concurrency: slot('lse_attempt', 2) })).to.include({ ok: true });
      });

      it('lets an unrenewed lease expire after its ttl', async () => {
        await admit({ nowMs: t0, concurrency: slot('l1', 1) });
        expect(await store.inFlight(`${acct}:live`, t0 + TTL - 1)).to.equal(1);
        expect(await admit({ nowMs: t0 + TTL - 1, concurrency: slot('l2', 1) })).to.include({ reason: 'concurrency' });
        expect(await store.inFlight(`${acct}:live`, t0 + TTL)).to.equal(0);
        expect(await admit({ nowMs: t0 + TTL, concurrency: slot('l2', 1) })).to.include({ ok: true });
      });

      it('keeps a renewed lease alive and reports the ids it no longer holds', async () => {
        await admit({ nowMs: t0, concurrency: slot('l1', 2) });
        await admit({ nowMs: t0, concurrency: slot('l2', 2) });
        await admit({ nowMs: t0, windows: [rpm(5, `${acct}:test:rpm`)], concurrency: slot('t1', 2, `${acct}:test`) });
        const live = (leaseId: string) => ({ scope: `${acct}:live`, leaseId });
        expect(await store.renew([live('l1'), live('lease_unknown'), { scope: `${acct}:test`, leaseId: 't1' }], TTL, t0 + 20_000)).to.deep.equal([
          'lease_unknown',
        ]);
        // l2 expired at t0+30 s; l1 and t1 live until t0+50 s.
        expect(await store.inFlight(`${acct}:live`, t0 + 40_000)).to.equal(1);
        expect(await store.inFlight(`${acct}:test`, t0 + 40_000)).to.equal(1);
        expect(await store.renew([live('l2'), live('l1')], TTL, t0 + 40_000)).to.deep.equal(['l2']);
        expect(await store.inFlight(`${acct}:live`, t0 + 65_000)).to.equal(1);
        expect(await store.renew([live('l2')], TTL, t0 + 65_000)).to.deep.equal(['l2']);
        expect(await store.inFlight(`${acct}:live`, t0 + 70_000)).to.equal(0);
        expect(await store.renew([live('l1')], TTL, t0 + 70_000)).to.deep.equal(['l1']);
      });

      it('admits exactly the limit among 50 concurrent requests', async () => {
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, i) => admit({ nowMs: t0, concurrency: slot(`lease_${i}`, 5) })),
        );
        expect(results.filter((r) => r.ok)).to.have.length(5);
        expect(results.filter((r) => !r.ok && r.reason === 'concurrency')).to.have.length(45);
        expect(await store.inFlight(`${acct}:live`, t0)).to.equal(5);
        expect(await store.peekWindows([rpm(100)], t0)).to.include({ remaining: 95 });
      });

      it('keeps test traffic apart: its windows and slots do not eat live capacity', async () => {
        const testWindow = rpm(1, `${acct}:test:rpm`);
        expect(await admit({ nowMs: t0, windows: [rpm(1)], concurrency: slot('live1', 1), allowance: allowance({}) })).to.include({ ok: true });
        expect(await admit({ nowMs: t0, windows: [rpm(1)], concurrency: slot('live2', 1) })).to.include({ ok: false, reason: 'rpm' });
        expect(await admit({ nowMs: t0, windows: [testWindow], concurrency: slot('test1', 1, `${acct}:test`) })).to.include({ ok: true });
        expect(await admit({ nowMs: t0, windows: [testWindow], concurrency: slot('test2', 1, `${acct}:test`) })).to.include({ ok: false, reason: 'rpm' });
        expect(await store.inFlight(`${acct}:live`, t0)).to.equal(1);
        expect(await store.inFlight(`${acct}:test`, t0)).to.equal(1);
        expect(await store.peekWindows([rpm(1)], t0)).to.include({ remaining: 0 });
        expect(await store.used(period())).to.equal(0);
      });
    });

    describe('allowance', () => {
      it('without overage admits while used < allowance; counted usage moves it', async () => {
        ledger = 98;
        expect(await admit({ nowMs: t0, allowance: allowance({ allowance: 100 }) })).to.include({ ok: true });
        expect(await finish(1)).to.deep.equal({ kind: 'added' });
        expect(await admit({ nowMs: t0, allowance: allowance({ allowance: 100 }) })).to.include({ ok: true });
        await finish(1);
        expect(await store.used(period())).to.equal(100);
        const refused = await admit({ nowMs: t0, allowance: allowance({ allowance: 100 }) });
        expect(refused).to.include({ ok: false, reason: 'allowance' });
        expect(loads).to.deep.equal([[acct, t0 - DAY, t0 + 29 * DAY]]);
      });

      it('with overage counts reservations in flight, and a release frees its reservation', async () => {
        const spec = allowance({ allowance: 100, overageAllowed: true, ceiling: 20, reserveUnits: 50 });
        expect(await admit({ nowMs: t0, concurrency: slot('a', 10), allowance: spec })).to.include({ ok: true });
        expect(await admit({ nowMs: t0, concurrency: slot('b', 10), allowance: spec })).to.include({ ok: true });
        expect(await admit({ nowMs: t0, concurrency: slot('c', 10), allowance: spec })).to.include({ ok: false, reason: 'allowance' });
        await finish(10);
        await free('a');
        // used 10 + b's 50 + 50 = 110 ≤ 120
        expect(await admit({ nowMs: t0, concurrency: slot('c', 10), allowance: spec })).to.include({ ok: true });
        expect(await admit({ nowMs: t0, concurrency: slot('d', 10), allowance: allowance({ ...spec, reserveUnits: 11 }) })).to.include({ reason: 'allowance' });
        expect(await admit({ nowMs: t0, concurrency: slot('d', 10), allowance: allowance({ ...spec, reserveUnits: 10 }) })).to.include({ ok: true });
      });

      describe('count at release: one step frees the slot, drops the reservation and counts the units', () => {
        // allowance 100 + ceiling 20: an admission fits while used + reserved + its own worst case ≤ 120.
        const over = (reserveUnits: number, periodId = 'p1') =>
          allowance({ ...period(periodId), allowance: 100, overageAllowed: true, ceiling: 20, reserveUnits });
        /** Whether a request with this worst case would be admitted now; holds nothing (no lease). */
        const fits = async (reserveUnits: number, nowMs = t0, periodId = 'p1') =>
          (await admit({ nowMs, allowance: over(reserveUnits, periodId) })).ok;

        it('with overage: the next admission sees the real units in used, not the worst case and not nothing', async () => {
          expect(await admit({ nowMs: t0, concurrency: slot('a', 10), allowance: over(80) })).to.include({ ok: true });
          expect(await fits(40)).to.equal(true); // 80 + 40 = 120
          expect(await fits(41)).to.equal(false);
          expect(await finish(30, 'p1', 'a')).to.deep.equal({ kind: 'added' });
          expect(await store.inFlight(`${acct}:live`, t0)).to.equal(0); // the slot is free
          expect(await store.used(period())).to.equal(30);
          // used 30, nothing reserved: 90 fits, 91 does not (the worst case would refuse 90, nothing would admit 91).
          expect(await fits(90)).to.equal(true);
          expect(await fits(91)).to.equal(false);
        });

        it('without overage: a request that ends at the allowance is counted before the next admission', async () => {
          const spec = allowance({ allowance: 100 });
          expect(await admit({ nowMs: t0, concurrency: slot('a', 1), allowance: spec })).to.include({ ok: true });
          expect(await finish(100, 'p1', 'a')).to.deep.equal({ kind: 'added' });
          expect(await admit({ nowMs: t0, concurrency: slot('b', 1), allowance: spec })).to.include({ ok: false, reason: 'allowance' });
        });

        it('counts a request once: a repeat names the attempt that counted it, and frees nothing twice', async () => {
          expect(await admit({ nowMs: t0, concurrency: slot('a', 10), allowance: over(50) })).to.include({ ok: true });
          const first = usage(30, 'p1', 'req_same', 7);
          expect(await store.settle({ scope: `${acct}:live`, leaseId: 'a' }, first, t0)).to.deep.equal({ kind: 'added' });
          expect(await store.settle({ scope: `${acct}:live`, leaseId: 'a' }, { ...first, attempt: 8 }, t0)).to.deep.equal({ kind: 'already', holder: 7 });
          expect(await store.settle(undefined, { ...first, attempt: 9 }, t0)).to.deep.equal({ kind: 'already', holder: 7 });
          expect(await store.used(period())).to.equal(30);
          expect(await fits(90)).to.equal(true);
          expect(await fits(91)).to.equal(false);
        });

        it('counts nothing for test traffic or no units, and still frees the slot', async () => {
          expect(await admit({ nowMs: t0, windows: [rpm(5, `${acct}:test:rpm`)], concurrency: slot('t1', 10, `${acct}:test`) })).to.include({ ok: true });
          expect(await admit({ nowMs: t0, concurrency: slot('z', 10), allowance: over(50) })).to.include({ ok: true });
          expect(await free('t1', `${acct}:test`)).to.deep.equal({ kind: 'none' });
          expect(await store.settle({ scope: `${acct}:live`, leaseId: 'z' }, usage(0), t0)).to.deep.equal({ kind: 'none' });
          expect(await store.inFlight(`${acct}:live`, t0)).to.equal(0);
          expect(await store.inFlight(`${acct}:test`, t0)).to.equal(0);
          expect(await fits(120)).to.equal(true);
        });

        it('counts in the period the request finished in', async () => {
          expect(await admit({ nowMs: t0, concurrency: slot('a', 10), allowance: over(80) })).to.include({ ok: true });
          await store.used(period('p2'));
          expect(await finish(30, 'p2', 'a')).to.deep.equal({ kind: 'added' });
          expect(await fits(120)).to.equal(true); // p1 holds nothing
          expect(await fits(90, t0, 'p2')).to.equal(true);
          expect(await fits(91, t0, 'p2')).to.equal(false);
        });

        it('admits no more than the ceiling allows once concurrent requests have been counted', async () => {
          for (const id of ['a', 'b', 'c']) expect(await admit({ nowMs: t0, concurrency: slot(id, 10), allowance: over(40) })).to.include({ ok: true });
          await Promise.all(['a', 'b', 'c'].map((id) => finish(25, 'p1', id)));
          // 75 used: 45 left under the ceiling, so of 20 concurrent 10-unit requests exactly 4 get in.
          const results = await Promise.all(
            Array.from({ length: 20 }, (_, i) => admit({ nowMs: t0, concurrency: slot(`n${i}`, 50), allowance: over(10) })),
          );
          expect(results.filter((r) => r.ok)).to.have.length(4);
        });

        it('takes back an add only for the attempt the marker names, once', async () => {
          await store.used(period());
          const counted = usage(30, 'p1', 'req_x', 41);
          expect(await store.settle(undefined, counted, t0)).to.deep.equal({ kind: 'added' });
          expect(await store.uncount({ ...counted, attempt: 42 })).to.equal(false);
          expect(await store.used(period())).to.equal(30);
          expect(await store.uncount(counted)).to.equal(true);
          expect(await store.used(period())).to.equal(0);
          expect(await store.uncount(counted)).to.equal(false);
          expect(await store.used(period())).to.equal(0);
          // The marker stays: the request is not counted again by a later attempt.
          expect(await store.settle(undefined, { ...counted, attempt: 43 }, t0)).to.deep.equal({ kind: 'already', holder: 1 });
        });
      });

      describe('a lost counter is rebuilt from the ledger', () => {
        it('counts nothing and marks nothing while the counter is missing; the rebuild marks the uncounted rows it includes', async () => {
          ledger = 40;
          const late = usage(30, 'p1', 'req_late', 55);
          expect(await store.settle(undefined, late, t0)).to.deep.equal({ kind: 'missing' });
          // The decision service has the row in the ledger before it reads the reply: the rebuild includes it.
          ledger += 30;
          uncounted = ['req_late'];
          expect(await store.used(period())).to.equal(70);
          expect(included).to.deep.equal([['req_late']]);
          expect(await store.settle(undefined, late, t0)).to.deep.equal({ kind: 'already', holder: 1 });
          expect(await store.used(period())).to.equal(70);
          expect(await finish(5)).to.deep.equal({ kind: 'added' });
          expect(await store.used(period())).to.equal(75);
        });

        it('gives rows still in the write window markers, and leaves marking them in the ledger to their reports', async () => {
          ledger = 40;
          uncounted = ['req_done'];
          waiting = ['req_waiting'];
          expect(await store.used(period())).to.equal(40);
          expect(included).to.deep.equal([['req_done']]);
          expect(await store.settle(undefined, usage(30, 'p1', 'req_waiting', 57), t0)).to.deep.equal({ kind: 'already', holder: 1 });
          expect(await store.settle(undefined, usage(10, 'p1', 'req_done', 58), t0)).to.deep.equal({ kind: 'already', holder: 1 });
          expect(await store.used(period())).to.equal(40);
        });

        it('a rebuild whose ledger read spans a loss of the counters reads the ledger again', async () => {
          ledger = 100;
          let answer = (): void => undefined;
          slowRead = new Promise((resolve) => (answer = resolve));
          // Rebuild A reads the ledger (100) and is slow to answer.
          const a = store.used(period());
          while (loads.length === 0) await new Promise((r) => setTimeout(r, 1));
          slowRead = undefined;
          // Meanwhile another rebuild stands, a request is counted into it and its row is committed, counted...
          expect(await store.used(period())).to.equal(100);
          expect(await store.settle(undefined, usage(30, 'p1', 'req_meanwhile', 60), t0)).to.deep.equal({ kind: 'added' });
          ledger += 30;
          // ...and the counters are lost before A stores its figure: A's 100 lacks that count.
          store = await fixture.loseData();
          answer();
          await a;
          expect(await store.used(period())).to.equal(130);
        });

        it('of two rebuilds at once, one stands; only its rows are marked', async () => {
          ledger = 10;
          uncounted = ['req_u'];
          const [a, b] = await Promise.all([store.used(period()), store.used(period())]);
          expect([a, b]).to.deep.equal([10, 10]);
          expect(included).to.deep.equal([['req_u']]);
          expect(loads.length).to.be.within(1, 2);
        });

        it('confirms a count after its row is committed, and counts again what a rebuild that could not see the row lost', async () => {
          await store.used(period());
          const mine = usage(30, 'p1', 'req_c', 61);
          expect(await store.settle(undefined, mine, t0)).to.deep.equal({ kind: 'added' });
          expect(await store.confirm(mine)).to.deep.equal({ kind: 'already', holder: 61 });
          // Another replica rebuilt the counter from a ledger that did not hold the row yet (it was in our window).
          store = await fixture.loseData();
          expect(await store.used(period())).to.equal(0);
          expect(await store.confirm(mine)).to.deep.equal({ kind: 'added' });
          expect(await store.used(period())).to.equal(30);
          expect(await store.confirm(mine)).to.deep.equal({ kind: 'already', holder: 61 });
          expect(await store.used(period())).to.equal(30);
        });

        it('rebuilds used units after the store lost its counters, and adds once afterwards', async () => {
          ledger = 40;
          expect(await admit({ nowMs: t0, allowance: allowance({ allowance: 60 }) })).to.include({ ok: true });
          await finish(10);
          expect(await store.used(period())).to.equal(50);

          store = await fixture.loseData();
          loads = [];
          // a report settled while the counter was gone: nothing added, its row is in the ledger's figure
          expect(await finish(10)).to.deep.equal({ kind: 'missing' });
          expect(await admit({ nowMs: t0, allowance: allowance({ allowance: 60 }) })).to.include({ ok: false, reason: 'allowance' });
          expect(loads).to.deep.equal([[acct, t0 - DAY, t0 + 29 * DAY]]);
          expect(await store.used(period())).to.equal(60);
          await finish(5);
          expect(await store.used(period())).to.equal(65);

          store = await fixture.loseData();
          expect(await store.used(period())).to.equal(65);
          await finish(1);
          expect(await store.used(period())).to.equal(66);
          expect(await admit({ nowMs: t0, allowance: allowance({ allowance: 67 }) })).to.include({ ok: true });
        });
      });
    });
  });
}
