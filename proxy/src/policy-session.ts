import type * as grpc from '@grpc/grpc-js';
import {
  InternalError,
  SESSION_BATCH_METADATA,
  ServiceUnavailableError,
  type DecideRequest,
  type DecisionWire,
  type Logger,
  type SessionRequest,
  type SessionResponse,
  type UsageAck,
  type UsageReport,
} from '@gateway/shared';

/** Opens the Session RPC: one bidirectional stream for every decision and report of this proxy. */
export type OpenSession = () => grpc.ClientDuplexStream<SessionRequest, SessionResponse>;

interface Waiter {
  resolve: (res: SessionResponse) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

const unavailable = (): ServiceUnavailableError =>
  new ServiceUnavailableError('The gateway cannot reach its policy service; please retry.');

/** The message with the trace context it is sent in (the caller's span), so the policy service's spans join it. */
function traced(msg: SessionRequest, traceparent: string): SessionRequest {
  if (traceparent !== '') msg.traceparent = traceparent;
  return msg;
}

/**
 * The proxy's end of its decision stream. Messages go out in call order, so a usage report (which frees
 * its request's slot) written before the next decision is applied before it. Waiting calls are matched by id.
 * A broken stream fails every call waiting on it closed (503) and is reopened with backoff; while it is down,
 * calls fail at once rather than queue.
 *
 * Once the policy service says it takes batches (its initial metadata), the messages of one turn of the event loop
 * after its first leave as one SessionBatch: grpc-js writes a call's messages one at a time, each only after the
 * write before it has completed, so under load every decision and report otherwise paid a write and a wake-up of
 * its own. A batch keeps call order, so the ordering above holds.
 */
export class PolicySession {
  private stream: grpc.ClientDuplexStream<SessionRequest, SessionResponse> | undefined;
  private readonly waiting = new Map<number, Waiter>();
  private nextId = 1;
  private retryMs: number;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;
  /** Whether the current stream's server takes batches; messages waiting for this turn's batch. */
  private batching = false;
  private pending: SessionRequest[] = [];
  /** A message of the current turn has been written; the turn's others wait for its end. */
  private wroteThisTurn = false;
  /** Runs each time a stream opens, before it takes decisions: the spool's reports go first (setCatchUp). */
  private catchUp: (() => Promise<void>) | undefined;
  /** While set, the current stream's catch-up is running; decisions wait for it. */
  private catchingUp: Promise<void> | undefined;
  /** The current stream's server has answered (its initial metadata): a decision can be made on it. */
  private greeted = false;
  /** The current stream's server said it is draining (SessionDrain). */
  private drainingNow = false;
  /** Set by the replica set: hears every change of `usable` or `draining`. */
  onChange: () => void = () => undefined;

  constructor(
    private readonly openStream: OpenSession,
    private readonly log: Logger,
    private readonly deadlineMs: number,
    private readonly backoff = { initialMs: 50, maxMs: 2_000 },
    /** Whether the channel under the stream is connected (a server that sends no initial metadata is still usable). */
    private readonly channelReady: () => boolean = () => false,
  ) {
    this.retryMs = backoff.initialMs;
    this.open();
  }

  async decide(req: DecideRequest, traceparent = ''): Promise<DecisionWire> {
    if (this.catchingUp !== undefined) await this.waitFor(this.catchingUp);
    const res = await this.send(traced({ id: 0, body: 'decide', decide: req }, traceparent), 'decision');
    return res.decision as DecisionWire;
  }

  /**
   * Sets what runs each time a stream (re)opens, before the stream takes any new decision: the spool's replay,
   * so reports that missed the last stream are applied (each releases its slot and counts its units) ahead of the
   * decisions that follow. Reports are never held back; decisions wait at most the session deadline, then fail
   * closed (503) rather than be decided ahead of usage still unapplied.
   */
  setCatchUp(catchUp: () => Promise<void>): void {
    this.catchUp = catchUp;
    if (this.stream !== undefined) this.startCatchUp();
  }


  /** The report is queued on the stream, in call order, when this returns; the promise settles with the answer. */
  async report(r: UsageReport, traceparent = ''): Promise<UsageAck> {
    const res = await this.send(traced({ id: 0, body: 'report', report: r }, traceparent), 'ack');
    return res.ack as UsageAck;
  }

  private async waitFor(catchingUp: Promise<void>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), this.deadlineMs)));
    try {
      if ((await Promise.race([catchingUp, late])) === 'late') throw unavailable();
    } finally {
      clearTimeout(timer);
    }
  }

  private startCatchUp(): void {
    const catchUp = this.catchUp;
    if (catchUp === undefined) return;
    const running: Promise<void> = catchUp()
      .catch((err: unknown) => this.log.warn({ err }, 'catching up on spooled usage failed'))
      .finally(() => {
        if (this.catchingUp === running) this.catchingUp = undefined;
      });
    this.catchingUp = running;
  }

  /** The stream is open and its server has answered (or its channel is connected): a decision sent now can be made. */
  get usable(): boolean {
    return this.stream !== undefined && !this.closed && (this.greeted || this.channelReady());
  }

  /** The server of the current stream is draining: it answers what it took, new decisions should go elsewhere. */
  get draining(): boolean {
    return this.drainingNow;
  }

  /**
   * Ends a draining stream once nothing on it waits for an answer (so its server can stop at once), and opens a
   * new one after the longest backoff: a replica back at the same address is used again.
   */
  endIfIdle(): boolean {
    const stream = this.stream;
    if (stream === undefined || !this.drainingNow || this.waiting.size > 0 || this.pending.length > 0) return false;
    this.retryMs = this.backoff.maxMs;
    stream.end();
    this.dropped(stream);
    return true;
  }

  close(): void {
    this.closed = true;
    if (this.retry !== undefined) clearTimeout(this.retry);
    this.failAll();
    this.stream?.end();
    this.stream = undefined;
  }

  // Not async: the message must be written or queued before the caller's next statement, or ordering is lost.
  private send(msg: SessionRequest, expect: 'decision' | 'ack'): Promise<SessionResponse> {
    const stream = this.stream;
    if (stream === undefined) return Promise.reject(unavailable());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(unavailable());
      }, this.deadlineMs);
      this.waiting.set(id, {
        timer,
        reject,
        resolve: (res) => {
          if (res.body === expect && res[expect] != null) resolve(res);
          else if (res.body === 'fault' && res.fault?.unavailable === true) reject(unavailable());
          else reject(new InternalError(`policy session answered ${res.body ?? 'nothing'}: ${res.fault?.message ?? ''}`));
        },
      });
      this.enqueue(stream, { ...msg, id });
    });
  }

  /**
   * The first message of a turn is written at once: written while the turn's I/O is being handled, it leaves in
   * that same turn. Waiting for the end of the turn cost a report a whole turn, which is when the next request
   * arrives: the report then reached the policy service together with the next decision and was settled in front
   * of it. The rest of the turn's messages go as one batch when the turn ends (grpc-js hands a stream's messages
   * to HTTP/2 one at a time, so under load messages written one by one would each wait for a turn).
   */
  private enqueue(stream: grpc.ClientDuplexStream<SessionRequest, SessionResponse>, msg: SessionRequest): void {
    if (!this.batching) {
      stream.write(msg);
      return;
    }
    if (!this.wroteThisTurn) {
      this.wroteThisTurn = true;
      setImmediate(() => this.flush(stream));
      stream.write(msg);
      return;
    }
    this.pending.push(msg);
  }

  private flush(stream: grpc.ClientDuplexStream<SessionRequest, SessionResponse>): void {
    // A stream that broke meanwhile has failed and dropped its messages; what is pending now is a newer stream's,
    // whose own first message scheduled its own flush.
    if (this.stream !== stream) return;
    this.wroteThisTurn = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    stream.write(batch.length === 1 ? (batch[0] as SessionRequest) : { id: 0, body: 'batch', batch: { requests: batch } });
  }

  private open(): void {
    if (this.closed) return;
    const stream = this.openStream();
    this.stream = stream;
    this.batching = false;
    this.pending = [];
    this.wroteThisTurn = false;
    this.greeted = false;
    this.drainingNow = false;
    stream.on('metadata', (md: grpc.Metadata) => {
      if (this.stream !== stream) return;
      if (md.get(SESSION_BATCH_METADATA)[0] === '1') this.batching = true;
      this.greeted = true;
      this.onChange();
    });
    stream.on('data', (res: SessionResponse) => {
      if (res.body === 'drain') {
        this.drainingNow = true;
        this.onChange();
        return;
      }
      // A live answer proves the stream: the next break starts its backoff from the beginning.
      if (!this.drainingNow) this.retryMs = this.backoff.initialMs;
      const w = this.waiting.get(res.id);
      if (w === undefined) return; // timed out meanwhile
      this.waiting.delete(res.id);
      clearTimeout(w.timer);
      w.resolve(res);
      // A draining replica's stream is given up as soon as it carries nothing (the replica set decides when).
      if (this.drainingNow && this.waiting.size === 0) this.onChange();
    });
    const broken = (err?: grpc.ServiceError): void => {
      if (this.stream !== stream) return;
      if (err !== undefined && !this.closed) this.log.warn({ code: err.code }, 'policy session dropped; reconnecting');
      this.dropped(stream);
    };
    stream.on('error', (err: grpc.ServiceError) => broken(err));
    stream.on('end', () => broken());
    this.startCatchUp();
  }

  /** The stream is gone (broken, or ended here): what waits on it fails closed, and a new one is opened later. */
  private dropped(stream: grpc.ClientDuplexStream<SessionRequest, SessionResponse>): void {
    if (this.stream !== stream) return;
    this.stream = undefined;
    this.pending = [];
    this.wroteThisTurn = false;
    this.greeted = false;
    this.drainingNow = false;
    stream.removeAllListeners('data');
    this.failAll();
    this.scheduleReopen();
    this.onChange();
  }

  private failAll(): void {
    for (const w of this.waiting.values()) {
      clearTimeout(w.timer);
      w.reject(unavailable());
    }
    this.waiting.clear();
  }

  private scheduleReopen(): void {
    if (this.closed || this.retry !== undefined) return;
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, this.backoff.maxMs);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.open();
    }, delay);
    this.retry.unref();
  }
}
