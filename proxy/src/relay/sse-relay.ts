import type { ServerResponse } from 'node:http';
import { OverloadedError, UpstreamError, type GatewayError } from '@gateway/shared';
import type { StreamRestorer } from '@gateway/privacy';
import { UsageTap } from './usage-tap.js';

export type StreamEvent = Record<string, unknown> & { type: string };

/**
 * Writes vendor SSE events to the client, reading usage as they pass and, in tokenise mode, restoring
 * personal data in text and tool-input deltas (holding back only what could be the start of a token).
 */
export class SseRelay {
  readonly tap = new UsageTap();

  private readonly blockKinds = new Map<number, 'text' | 'json'>();
  private started = false;
  /** An `event: error` the upstream sent before its first event: not relayed (another route may still answer). */
  errorBeforeStart: GatewayError | undefined;
  /** that error was the upstream's rate limit (the route is skipped, not counted as failing) */
  throttledBeforeStart = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly restorer: StreamRestorer | null,
    /** called once, just before status and headers go: the stream is committed to its route from then on */
    private readonly onCommit: () => void = () => undefined,
  ) {}

  /** Status and headers have gone (at the first event, normally `message_start`, or at open()). */
  get committed(): boolean {
    return this.started;
  }

  /** Sends status and headers now; otherwise they go with the first event. */
  open(): void {
    if (this.started) return;
    this.started = true;
    this.onCommit();
    this.res.statusCode = 200;
    this.res.setHeader('content-type', 'text/event-stream; charset=utf-8');
    this.res.setHeader('cache-control', 'no-cache');
    this.res.setHeader('x-accel-buffering', 'no');
    this.res.flushHeaders();
  }

  get closed(): boolean {
    return this.res.writableEnded || this.res.destroyed;
  }

  /** True when nothing needs changing in the events, so an upstream's bytes can go straight through. */
  get passesBytes(): boolean {
    return this.restorer === null;
  }

  /** Complete events as an upstream's bytes, exactly as they came (only when passesBytes). */
  writeBytes(chunk: Buffer): void {
    if (this.closed || chunk.length === 0) return;
    this.open();
    this.res.write(chunk);
  }

  /** Reads an event's usage without writing it (its bytes went through writeBytes). */
  observe(event: StreamEvent): void {
    this.tap.observe(event);
  }


  /**
   * Sends one event. `raw` is the event's data exactly as an upstream sent it: when given, and nothing needs
   * restoring, it is written unchanged so pass-through is byte for byte.
   */
  send(event: StreamEvent, raw?: string): void {
    if (!this.started) {
      // Before the stream is committed an error is held for the caller to decide on, and a ping is dropped.
      if (event.type === 'error') {
        this.throttledBeforeStart ||= this.errorBeforeStart === undefined && (event['error'] as { type?: unknown } | undefined)?.type === 'rate_limit_error';
        this.errorBeforeStart ??= errorOfEvent(event);
        return;
      }
      if (event.type === 'ping') return;
      this.open();
    }
    this.tap.observe(event);
    if (this.restorer !== null) {
      for (const e of this.restore(event)) this.write(e);
      return;
    }
    if (raw !== undefined) this.writeFrame(event.type, raw);
    else this.write(event);
  }

  private write(event: StreamEvent): void {
    this.writeFrame(event.type, JSON.stringify(event));
  }

  private writeFrame(name: string, data: string): void {
    if (this.closed) return;
    this.res.write(`event: ${name}\ndata: ${data}\n\n`);
  }

  private restore(event: StreamEvent): StreamEvent[] {
    const restorer = this.restorer as StreamRestorer;
    if (event.type === 'content_block_delta') {
      const index = event['index'] as number;
      const delta = event['delta'] as Record<string, unknown>;
      if (delta['type'] === 'text_delta' && typeof delta['text'] === 'string') {
        const text = restorer.push(index, 'text', delta['text']);
        return text === '' ? [] : [{ ...event, delta: { ...delta, text } }];
      }
      if (delta['type'] === 'input_json_delta' && typeof delta['partial_json'] === 'string') {
        const partial = restorer.push(index, 'json', delta['partial_json']);
        return partial === '' ? [] : [{ ...event, delta: { ...delta, partial_json: partial } }];
      }
      return [event];
    }
    if (event.type === 'content_block_stop') {
      const index = event['index'] as number;
      const rest = restorer.flush(index);
      if (rest === '') return [event];
      const kind = this.blockKinds.get(index);
      const delta = kind === 'json' ? { type: 'input_json_delta', partial_json: rest } : { type: 'text_delta', text: rest };
      return [{ type: 'content_block_delta', index, delta }, event];
    }
    if (event.type === 'content_block_start') {
      const block = event['content_block'] as Record<string, unknown> | undefined;
      this.blockKinds.set(event['index'] as number, block?.['type'] === 'tool_use' ? 'json' : 'text');
    }
    return [event];
  }
}

/** An upstream's `event: error` as the gateway's error (its message is the upstream's and untrusted: not kept). */
function errorOfEvent(event: StreamEvent): GatewayError {
  const type = (event['error'] as { type?: unknown } | undefined)?.type;
  if (type === 'overloaded_error' || type === 'rate_limit_error') return new OverloadedError('The upstream is overloaded.');
  return new UpstreamError('The upstream failed before its stream started.');
}
