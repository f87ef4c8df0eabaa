import { createParser } from 'eventsource-parser';
import type { SseRelay, StreamEvent } from '../relay/sse-relay.js';

/** The largest event the gateway holds while waiting for its end (the vendor's events are far smaller). */
const MAX_EVENT_CHARS = 4 * 1024 * 1024;

const LF2 = Buffer.from('\n\n');
const CRLF2 = Buffer.from('\r\n\r\n');

/**
 * Relays an upstream's SSE stream. The first event (`message_start`, whose `model` is rewritten from the
 * upstream id back to the alias) is parsed and rewritten; after it, when nothing needs restoring, the upstream's
 * bytes go to the client as they arrive, unchanged, up to the last complete event in hand, while a parser reads
 * the same bytes for usage. Only an incomplete event's tail is held (bounded): if the upstream then fails, the
 * client gets a clean error event, never half an event. In tokenise mode every event is parsed and restored.
 */
export class UpstreamSseReader {
  private readonly parser;
  private readonly decoder = new TextDecoder();
  /** Bytes before the first event's end (passes-bytes mode only). */
  private head: Buffer = Buffer.alloc(0);
  /** After the first event, in passes-bytes mode: bytes are written as they come. */
  private raw = false;
  /** Characters fed since the last complete event: bounded, so a stream without event boundaries cannot grow memory. */
  private pendingChars = 0;
  /** Set when the upstream sent something that is not the vendor's event stream. */
  garbage = false;
  sawError = false;

  constructor(private readonly relay: SseRelay, alias: string) {
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
        if (parsed.type === 'error') this.sawError = true;
        if (this.raw) return relay.observe(parsed);
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
    if (this.raw) {
      this.parse(chunk);
      this.passCompleteEvents(chunk);
      return;
    }
    if (!this.relay.passesBytes) {
      this.parse(chunk);
      return;
    }
    this.head = this.head.length === 0 ? chunk : Buffer.concat([this.head, chunk]);
    const end = firstEventEnd(this.head);
    if (end === -1) {
      if (this.head.length > MAX_EVENT_CHARS) this.garbage = true;
      return;
    }
    const first = this.head.subarray(0, end);
    const rest = this.head.subarray(end);
    this.head = Buffer.alloc(0);
    this.parse(first); // written by onEvent, rewritten if it is message_start
    this.raw = true;
    if (rest.length > 0) {
      this.parse(rest);
      this.passCompleteEvents(rest);
    }
  }

  /** Writes the held tail and `chunk` up to the last event boundary; holds the rest. */
  private passCompleteEvents(chunk: Buffer): void {
    const bytes = this.head.length === 0 ? chunk : Buffer.concat([this.head, chunk]);
    const end = lastEventEnd(bytes);
    if (end === -1) {
      this.head = bytes;
      return;
    }
    this.relay.writeBytes(bytes.subarray(0, end));
    this.head = bytes.subarray(end);
  }

  private parse(bytes: Buffer): void {
    const text = this.decoder.decode(bytes, { stream: true });
    this.pendingChars += text.length;
    this.parser.feed(text);
    if (this.pendingChars > MAX_EVENT_CHARS) this.garbage = true;
  }
}

/** Index just past the last blank line (LF or CRLF framing), or -1. */
function lastEventEnd(b: Buffer): number {
  const lf = b.lastIndexOf(LF2);
  const crlf = b.lastIndexOf(CRLF2);
  if (lf === -1 && crlf === -1) return -1;
  return Math.max(lf === -1 ? -1 : lf + 2, crlf === -1 ? -1 : crlf + 4);
}

/** Index just past the first blank line (LF or CRLF framing), or -1. */
function firstEventEnd(b: Buffer): number {
  const lf = b.indexOf(LF2);
  const crlf = b.indexOf(CRLF2);
  if (lf === -1 && crlf === -1) return -1;
  if (crlf === -1 || (lf !== -1 && lf < crlf)) return lf + 2;
  return crlf + 4;
}
