/*
 * One suite every usage-ledger writer must pass (SQLite on its own thread, PostgreSQL on its pool), as the counter
 * stores share counter-store-suite.ts: writes answered once committed, each request id once, who counted a row, the
 * rebuild figure with the rows still waiting, last-used times.
 */
import { expect } from 'chai';
import type { LedgerWriter } from '../../src/db/ledger-writer.js';
import { ROUTE_NOT_RECORDED, type LedgerEntry } from '../../src/db/usage-ledger.js';
import type { BatchWindow } from '../../src/db/write-batcher.js';

export interface LedgerWriterFixture {
  /** An account and a live key in the fixture's database. */
  accountId: string;
  keyId: string;
  writer(onWritten: (seconds: number) => void, window: BatchWindow): LedgerWriter;
  /** Rows as another connection sees them (committed only), by request id. */
  committed(): Promise<Array<{ request_id: string; counted: number }>>;
  /** The live period totals, summed over models. */
  liveTotals(): Promise<{ requests: number; billable_units: number }>;
  lastUsed(keyId: string): Promise<string | null>;
  dispose(): Promise<void>;
}

export function describeLedgerWriter(name: string, start: () => Promise<LedgerWriterFixture>): void {
  describe(`usage-ledger writer: ${name}`, function () {
    this.timeout(20_000);
    let fixture: LedgerWriterFixture;
    let writer: LedgerWriter | undefined;
    let accountId: string;
    let keyId: string;

    beforeEach(async function () {
      fixture = await start();
      ({ accountId, keyId } = fixture);
    });
    afterEach(async function () {
      await writer?.close();
      writer = undefined;
      await fixture.dispose();
    });

    const entry = (request_id: string, over: Partial<LedgerEntry> = {}): LedgerEntry => ({
      request_id, account_id: accountId, key_id: keyId, environment: 'live', model: 'alpha-sonnet-5',
      input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0,
      billable_units: 15, cost_units: 0, outcome: 'ok', finished_at_ms: 1_000, period_start_ms: 0, ...ROUTE_NOT_RECORDED, ...over,
    });
    const committed = () => fixture.committed();

    it('commits a window of writes together; each answer comes once its write is visible to another connection', async function () {
      writer = fixture.writer(() => undefined, { windowMs: 50, maxItems: 64 });
      const first = writer.record(entry('r1'));
      const second = writer.record(entry('r2', { environment: 'test', billable_units: 15 }));
      expect(await committed(), 'nothing committed while the window is open').to.deep.equal([]);
      // Live usage waits to be counted; test traffic never does.
      expect(await Promise.all([first, second])).to.deep.equal([{ inserted: true, counted: 0 }, { inserted: true, counted: 1 }]);
      expect(await committed()).to.deep.equal([{ request_id: 'r1', counted: 0 }, { request_id: 'r2', counted: 1 }]);

      const mark = writer.markCounted('r1', 77);
      const replay = writer.record(entry('r1'));
      const later = writer.markCounted('r1', 1);
      expect(await mark, 'a mark answers with who counts the row').to.equal(77);
      expect(await replay, 'a replayed request id is not written twice, and learns who counted it').to.deep.equal({ inserted: false, counted: 77 });
      expect(await later, 'a later mark learns the first holder').to.equal(77);
      expect(await committed(), 'the first count stands').to.deep.equal([{ request_id: 'r1', counted: 77 }, { request_id: 'r2', counted: 1 }]);
      expect(await fixture.liveTotals()).to.deep.equal({ requests: 1, billable_units: 15 });
    });

    it('flush() commits what waits for its window at once', async function () {
      writer = fixture.writer(() => undefined, { windowMs: 60_000, maxItems: 64 });
      const written = writer.record(entry('r1'));
      await writer.flush();
      expect(await committed()).to.have.length(1);
      expect(await written).to.deep.equal({ inserted: true, counted: 0 });
    });

    it('commits as soon as maxItems writes wait, and reports each commit\'s duration', async function () {
      const durations: number[] = [];
      writer = fixture.writer((s) => durations.push(s), { windowMs: 60_000, maxItems: 3 });
      const rows = await Promise.all(['a', 'b', 'c'].map((id) => writer!.record(entry(id))));
      expect(rows.every((r) => r.inserted)).to.equal(true);
      expect(await committed()).to.have.length(3);
      expect(durations).to.have.length(1);
      expect(durations[0]).to.be.a('number').and.to.be.at.least(0);
    });

    it('rebuild figures include rows still waiting in the window, once, and name the uncounted ones', async function () {
      writer = fixture.writer(() => undefined, { windowMs: 60_000, maxItems: 64 });
      const done = [writer.record(entry('c1')), writer.record(entry('c2'))];
      await writer.flush();
      await Promise.all(done);
      const marked = writer.markCounted('c1', 5);
      await writer.flush();
      await marked;
      // Waiting in the window: a new row, a replay of a committed one, a test row, another account's and another period's.
      const waiting = [
        writer.record(entry('w1', { billable_units: 100 })),
        writer.record(entry('c2')),
        writer.record(entry('w1')),
        writer.record(entry('t1', { environment: 'test' })),
        writer.record(entry('x1', { account_id: 'acct_other' })),
        writer.record(entry('p2', { period_start_ms: 5_000, finished_at_ms: 6_000 })),
      ];
      const seed = await writer.seed(accountId, 0, 5_000);
      expect(seed.units).to.equal(15 + 15 + 100);
      // w1 is committed first where the writer commits before it reads (SQLite), else named as waiting (PostgreSQL).
      expect([...seed.uncounted, ...seed.waiting].sort()).to.deep.equal(['c2', 'w1']);
      expect(seed.uncounted, 'committed rows only').to.include('c2');
      await writer.flush();
      await Promise.all(waiting);
    });

    it('writes last-used times', async function () {
      writer = fixture.writer(() => undefined, { windowMs: 5, maxItems: 64 });
      const at = Date.parse('2026-11-26T10:00:00Z');
      await writer.touchKeys(new Map([[keyId, at]]));
      expect(await fixture.lastUsed(keyId)).to.equal('2026-11-26T10:00:00.000Z');
    });

    it('fails what it holds when its database cannot be written, and serves again after', async function () {
      writer = fixture.writer(() => undefined, { windowMs: 5, maxItems: 64 });
      // A row the schema refuses (model is NOT NULL): its window's transaction is rolled back and answered with the error.
      const bad = entry('bad', { model: null as unknown as string });
      let failure: unknown;
      try {
        await writer.record(bad);
      } catch (err) {
        failure = err;
      }
      expect(String(failure)).to.match(/ledger write failed/);
      expect(await writer.record(entry('good'))).to.deep.equal({ inserted: true, counted: 0 });
    });

    it('two writers on one database (two replicas) apply each request id once under duplicate reports, totals exact', async function () {
      const a = fixture.writer(() => undefined, { windowMs: 5, maxItems: 16 });
      const b = fixture.writer(() => undefined, { windowMs: 5, maxItems: 16 });
      try {
        const ids = Array.from({ length: 120 }, (_, i) => `r${String(i).padStart(3, '0')}`);
        const models = ['alpha-sonnet-5', 'alpha-haiku-5'];
        // Every report reaches both replicas, in opposite orders, over two accounts' worth of totals rows.
        const results = await Promise.all([
          ...ids.map((id, i) => a.record(entry(id, { model: models[i % 2] as string }))),
          ...[...ids].reverse().map((id) => b.record(entry(id, { model: models[ids.indexOf(id) % 2] as string }))),
        ]);
        expect(results.filter((r) => r.inserted)).to.have.length(ids.length);
        expect((await committed()).map((r) => r.request_id)).to.deep.equal(ids);
        expect(await fixture.liveTotals()).to.deep.equal({ requests: ids.length, billable_units: ids.length * 15 });
      } finally {
        await a.close();
        await b.close();
      }
    });
  });
}
