import { createParser } from 'eventsource-parser';
import type { SseRelay, StreamEvent } from '../relay/sse-relay.js';

/**
 * Reads an upstream's SSE bytes event by event and relays each one as soon as it is complete: byte for byte,
 * except `message_start`, whose `model` is rewritten from the upstream id back to the catalogue alias.
 */
export class UpstreamSseReader {
  private readonly parser;
  private readonly decoder = new TextDecoder();
  /** Set when the upstream sent something that is not the vendor's event stream. */
  garbage = false;
  sawError = false;
  events = 0;

  constructor(relay: SseRelay, alias: string) {
    this.parser = createParser({
      onEvent: (e) => {
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
    this.parser.feed(this.decoder.decode(chunk, { stream: true }));
  }
}
