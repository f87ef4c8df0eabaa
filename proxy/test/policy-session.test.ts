import { expect } from 'chai';
import { EventEmitter } from 'node:events';
import { Metadata, type ClientDuplexStream } from '@grpc/grpc-js';
import { createLogger, SESSION_BATCH_METADATA, type DecideRequest, type SessionRequest, type SessionResponse, type UsageReport } from '@gateway/shared';
import { PolicySession } from '../src/policy-session.js';

/** The proxy's end of a Session stream, as grpc-js gives it: what was written is kept, answers are pushed in. */
class FakeStream extends EventEmitter {
  readonly written: SessionRequest[] = [];
  write(msg: SessionRequest): boolean {
    this.written.push(msg);
    return true;
  }
  end(): void {
    this.emit('end');
  }
  /** The server's initial metadata, with or without the batch header. */
  greet(batches: boolean): void {
    const md = new Metadata();
    if (batches) md.set(SESSION_BATCH_METADATA, '1');
    this.emit('metadata', md);
  }
  answer(id: number): void {
    this.emit('data', { id, body: 'ack', ack: { recorded: true } } satisfies SessionResponse);
  }
}

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));
const decideReq = { operation: 'CREATE_MESSAGE', model: 'm' } as unknown as DecideRequest;
const report = { request_id: 'req_1' } as unknown as UsageReport;

describe('PolicySession: one ordered stream, batched once the server takes batches', () => {
  const log = createLogger('test', 'silent');
  let streams: FakeStream[];
  let session: PolicySession;
  /** A session over fake streams, each kept in `streams` as it is opened. */
  const sessionWithDeadline = (deadlineMs: number): PolicySession => {
    streams = [];
    return new PolicySession(() => {
      const s = new FakeStream();
      streams.push(s);
      return s as unknown as ClientDuplexStream<SessionRequest, SessionResponse>;
    }, log, deadlineMs, { initialMs: 1, maxMs: 5 });
  };
  beforeEach(() => {
    session = sessionWithDeadline(1_000);
  });
  afterEach(() => session.close());

  it('writes each message as it comes while the server has not said it takes batches', async () => {
    const s = streams[0] as FakeStream;
    s.greet(false);
    void session.report(report).catch(() => undefined);
    void session.report(report).catch(() => undefined);
    expect(s.written.map((m) => [m.id, m.body])).to.deep.equal([[1, 'report'], [2, 'report']]);
    await turn();
    expect(s.written).to.have.length(2);
  });

  it('writes the first message of a turn at once and the rest of the turn as one batch in call order, matching each answer by id', async () => {
    const s = streams[0] as FakeStream;
    s.greet(true);
    const acks = [session.report(report), session.report(report), session.report(report)];
    const decision = session.decide(decideReq).catch((e: unknown) => e);
    expect(s.written.map((m) => [m.id, m.body]), 'the first at once, so it leaves in this turn').to.deep.equal([[1, 'report']]);
    await turn();
    expect(s.written).to.have.length(2);
    const batch = s.written[1];
    expect(batch?.body).to.equal('batch');
    expect(batch?.batch?.requests.map((m) => [m.id, m.body])).to.deep.equal([[2, 'report'], [3, 'report'], [4, 'decide']]);
    for (const id of [3, 1, 2]) s.answer(id);
    expect(await Promise.all(acks)).to.deep.equal([{ recorded: true }, { recorded: true }, { recorded: true }]);
    s.answer(4); // an ack where a decision was expected: a fault, not a hang
    expect(await decision).to.be.instanceOf(Error);
    // The next turn's first message goes at once again, as itself; a second one waits for the turn's end.
    void session.report(report).catch(() => undefined);
    void session.report(report).catch(() => undefined);
    expect(s.written.map((m) => m.body)).to.deep.equal(['report', 'batch', 'report']);
    await turn();
    expect(s.written.map((m) => [m.id, m.body]).slice(2)).to.deep.equal([[5, 'report'], [6, 'report']]);
  });

  it('fails the messages of a batch not yet sent when the stream breaks, and does not send them on the next', async () => {
    const s = streams[0] as FakeStream;
    s.greet(true);
    const sent = session.report(report).then(() => 'acked', (e: { status?: number }) => e.status);
    const pending = session.report(report).then(() => 'acked', (e: { status?: number }) => e.status);
    expect(s.written).to.have.length(1);
    s.emit('error', Object.assign(new Error('gone'), { code: 14 }));
    expect(await pending).to.equal(503);
    expect(await sent, 'sent but not answered: failed closed too (the spool keeps it)').to.equal(503);
    await turn();
    expect(s.written, 'the batch was not sent on the broken stream').to.have.length(1);
    await new Promise((r) => setTimeout(r, 10));
    const next = streams[1] as FakeStream;
    expect(next, 'reopened').to.not.equal(undefined);
    expect(next.written).to.have.length(0);
    // The new stream batches only once its own server says so.
    void session.report(report).catch(() => undefined);
    expect(next.written.map((m) => m.body)).to.deep.equal(['report']);
  });

  it('holds new decisions on a reopened stream until the spool has caught up; reports go out at once', async () => {
    let finish: () => void = () => undefined;
    let runs = 0;
    session.setCatchUp(() => {
      runs += 1;
      return new Promise<void>((resolve) => (finish = resolve));
    });
    expect(runs, 'the open stream catches up too').to.equal(1);
    const s = streams[0] as FakeStream;
    s.greet(false);
    const decision = session.decide(decideReq).catch((e: unknown) => e);
    void session.report(report).catch(() => undefined);
    await turn();
    expect(s.written.map((m) => m.body), 'the report, not the decision').to.deep.equal(['report']);
    finish();
    await turn();
    await turn();
    expect(s.written.map((m) => m.body)).to.deep.equal(['report', 'decide']);
    s.emit('data', { id: 2, body: 'decision', decision: { decision_id: 'dec_1', rate_limit: null, outcome: 'deny' } } as SessionResponse);
    expect(await decision).to.deep.include({ decision_id: 'dec_1' });

    // The stream breaks and reopens: the next stream catches up again before its first decision.
    s.emit('error', Object.assign(new Error('gone'), { code: 14 }));
    await new Promise((r) => setTimeout(r, 10));
    expect(runs).to.equal(2);
    const next = streams[1] as FakeStream;
    void session.decide(decideReq).catch(() => undefined);
    await turn();
    expect(next.written).to.have.length(0);
    finish();
    await turn();
    await turn();
    expect(next.written.map((m) => m.body)).to.deep.equal(['decide']);
  });

  it('fails a decision closed when the catch-up outlasts the deadline', async () => {
    session.close();
    session = sessionWithDeadline(30);
    session.setCatchUp(() => new Promise<void>(() => undefined));
    const failed = await session.decide(decideReq).then(() => 'decided', (e: { status?: number }) => e.status);
    expect(failed).to.equal(503);
    expect((streams[0] as FakeStream).written).to.have.length(0);
  });
});
