import { createParser } from 'eventsource-parser';
import type { SseRelay, StreamEvent } from '../relay/sse-relay.js';

/** The largest event the gateway holds while waiting for its end (the vendor's events are far smaller). */
const MAX_EVENT_CHARS = 4 * 1024 * 1024;

/**
 * Reads an upstream's SSE bytes event by event and relays each one as soon as it is complete: byte for byte,
 * except `message_start`, whose `model` is rewritten from the upstream id back to the catalogue alias.
 */
export class UpstreamSseReader {
  private readonly parser;
  private readonly decoder = new TextDecoder();
  /** Characters fed since the last complete event: bounded, so a stream without event boundaries cannot grow memory. */
  private pendingChars = 0;
  /** Set when the upstream sent something that is not the vendor's event stream. */
  garbage = false;
  sawError = false;
  events = 0;

  constructor(relay: SseRelay, alias: string) {
    this.parser = createParser({
      onEvent: (e) => {
        this.pendingChars = 0;
        let parsed: StreamEvent;
        try {
          parsed = JSON.parse(e.data) as StreamEvent;
        } catch {
          this.garbage = true;
          return;
        }
        if (typeof parsed !== 'object' || parsed === null || typeof parsed.type !== 'string') {
          this.garbage = true;
          return;
        }
        this.events += 1;
        if (parsed.type === 'error') this.sawError = true;
        if (parsed.type === 'message_start') {
          const message = parsed['message'] as Record<string, unknown> | undefined;
          if (message !== undefined) message['model'] = alias;
          relay.send(parsed);
          return;
        }
        relay.send(parsed, e.data);
      },
    });
  }

  feed(chunk: Buffer): void {
    const text = this.decoder.decode(chunk, { stream: true });
    this.pendingChars += text.length;
    this.parser.feed(text);
    if (this.pendingChars > MAX_EVENT_CHARS) this.garbage = true;
  }
}
