import { expect } from 'chai';
import { WriteBatcher, type Schedule } from '../../src/db/write-batcher.js';

/** A clock the test moves by hand: timers run only when `advance` passes their time. */
class FakeClock {
  private nowMs = 0;
  private timers: Array<{ at: number; fn: () => void; live: boolean }> = [];

  readonly schedule: Schedule = (fn, ms) => {
    const timer = { at: this.nowMs + ms, fn, live: true };
    this.timers.push(timer);
    return () => {
      timer.live = false;
    };
  };

  advance(ms: number): void {
    this.nowMs += ms;
    const due = this.timers.filter((t) => t.live && t.at <= this.nowMs);
    this.timers = this.timers.filter((t) => t.live && t.at > this.nowMs);
    for (const t of due) t.fn();
  }

  get pending(): number {
    return this.timers.filter((t) => t.live).length;
  }
}

/** Lets every settled promise run its callbacks. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('WriteBatcher: writes gathered over a short window, one transaction each', function () {
  let clock: FakeClock;
  let batches: number[][];
  let failNext: boolean;
  const batcher = (windowMs: number, maxItems: number): WriteBatcher<number, number> =>
    new WriteBatcher<number, number>(
      (items) => {
        if (failNext) throw new Error('disk full');
        batches.push(items);
        return items.map((n) => n * 10);
      },
      { windowMs, maxItems },
      clock.schedule,
    );

  beforeEach(function () {
    clock = new FakeClock();
    batches = [];
    failNext = false;
  });

  it('writes the writes of one window in one batch once the window has passed, not before', async function () {
    const b = batcher(2, 64);
    const settled: number[] = [];
    for (const n of [1, 2, 3]) void b.add(n).then((r) => settled.push(r));
    clock.advance(1);
    await settle();
    expect(batches).to.deep.equal([]);
    expect(settled, 'nothing is answered before its commit').to.deep.equal([]);
    clock.advance(1);
    await settle();
    expect(batches).to.deep.equal([[1, 2, 3]]);
    expect(settled).to.deep.equal([10, 20, 30]);
  });

  it('times the window from the first write of a batch: a write after the flush starts a new window', async function () {
    const b = batcher(2, 64);
    const first = b.add(1);
    clock.advance(2);
    expect(await first).to.equal(10);
    const second = b.add(2);
    clock.advance(1);
    const third = b.add(3);
    clock.advance(1);
    expect(await Promise.all([second, third])).to.deep.equal([20, 30]);
    expect(batches).to.deep.equal([[1], [2, 3]]);
  });

  it('writes at once when the batch is full, and the full batch cancels its timer', async function () {
    const b = batcher(2, 3);
    const results = Promise.all([b.add(1), b.add(2), b.add(3)]);
    expect(batches, 'written as the third arrives, with no time passing').to.deep.equal([[1, 2, 3]]);
    expect(clock.pending).to.equal(0);
    expect(await results).to.deep.equal([10, 20, 30]);
    const next = b.add(4);
    clock.advance(2);
    expect(await next).to.equal(40);
    expect(batches).to.deep.equal([[1, 2, 3], [4]]);
  });

  it('fails every write of a batch whose transaction fails, and answers none of them as written', async function () {
    const b = batcher(2, 64);
    const outcomes = Promise.allSettled([b.add(1), b.add(2)]);
    failNext = true;
    clock.advance(2);
    const [one, two] = await outcomes;
    expect(one?.status).to.equal('rejected');
    expect(two?.status).to.equal('rejected');
    failNext = false;
    const after = b.add(3);
    clock.advance(2);
    expect(await after, 'the batcher keeps working after a failed batch').to.equal(30);
  });

  it('settles each write with its result once an asynchronous commit answers, or fails them all with it', async function () {
    let answer: { resolve: (r: number[]) => void; reject: (e: Error) => void } | undefined;
    const b = new WriteBatcher<number, number>(
      (items) => new Promise((resolve, reject) => {
        batches.push(items);
        answer = { resolve, reject };
      }),
      { windowMs: 2, maxItems: 64 },
      clock.schedule,
    );
    const settled: number[] = [];
    const both = Promise.all([b.add(1), b.add(2)].map((p) => p.then((r) => void settled.push(r))));
    clock.advance(2);
    expect(batches).to.deep.equal([[1, 2]]);
    await settle();
    expect(settled, 'nothing is answered before the commit answers').to.deep.equal([]);
    answer?.resolve([10, 20]);
    await both;
    expect(settled).to.deep.equal([10, 20]);
    const lost = Promise.allSettled([b.add(3), b.add(4)]);
    clock.advance(2);
    answer?.reject(new Error('the thread stopped'));
    expect((await lost).map((o) => o.status)).to.deep.equal(['rejected', 'rejected']);
  });

  it('hands on one batch at a time: a window closed while another commits waits for its answer, in order', async function () {
    const answers: Array<(r: number[]) => void> = [];
    const b = new WriteBatcher<number, number>(
      (items) => new Promise((resolve) => {
        batches.push(items);
        answers.push(resolve);
      }),
      { windowMs: 2, maxItems: 64 },
      clock.schedule,
    );
    const first = b.add(1);
    clock.advance(2);
    const second = b.add(2);
    const flushed = b.flush();
    const third = b.add(3);
    expect(batches, 'the second window waits for the first one\'s answer').to.deep.equal([[1]]);
    expect(b.waiting(), 'being committed, closed, then open').to.deep.equal([1, 2, 3]);
    let allAnswered = false;
    void flushed.then(() => {
      allAnswered = true;
    });
    answers[0]?.([10]);
    expect(await first).to.equal(10);
    expect(batches).to.deep.equal([[1], [2]]);
    expect(b.waiting()).to.deep.equal([2, 3]);
    await settle();
    expect(allAnswered, 'flush() settles once its own batch is answered, not before').to.equal(false);
    answers[1]?.([20]);
    expect(await second).to.equal(20);
    await settle();
    expect(allAnswered).to.equal(true);
    clock.advance(2);
    answers[2]?.([30]);
    expect(await third).to.equal(30);
    expect(b.waiting()).to.deep.equal([]);
  });

  it('flush() writes what is queued at once (shutdown) and leaves no timer behind', async function () {
    const b = batcher(2, 64);
    const pending = b.add(7);
    b.flush();
    expect(batches).to.deep.equal([[7]]);
    expect(clock.pending).to.equal(0);
    expect(await pending).to.equal(70);
    b.flush();
    expect(batches, 'an empty flush writes nothing').to.deep.equal([[7]]);
  });
});
