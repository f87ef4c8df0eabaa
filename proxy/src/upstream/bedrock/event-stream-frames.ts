import { EventStreamCodec, type Message } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

/** AWS event-stream frames are length-prefixed; a frame may arrive split across chunks or several in one. */
const MAX_FRAME_BYTES = 16 * 1024 * 1024;

export interface DecodedFrame {
  messageType: string;
  eventType: string | undefined;
  exceptionType: string | undefined;
  payload: Uint8Array;
}

/**
 * Reassembles frames from a byte stream and decodes each with the codec, which checks the prelude and message
 * CRC-32s (a corrupt frame throws).
 */
export class EventStreamFrames {
  private readonly codec = new EventStreamCodec(toUtf8, fromUtf8);
  private buffer: Buffer = Buffer.alloc(0);

  /** Feeds a chunk; returns the frames it completed. Throws on a corrupt or oversized frame. */
  push(chunk: Buffer): DecodedFrame[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const frames: DecodedFrame[] = [];
    while (this.buffer.length >= 4) {
      const total = this.buffer.readUInt32BE(0);
      if (total < 16 || total > MAX_FRAME_BYTES) throw new Error(`event-stream frame of ${total} bytes`);
      if (this.buffer.length < total) break;
      const frame = this.buffer.subarray(0, total);
      this.buffer = this.buffer.subarray(total);
      frames.push(toFrame(this.codec.decode(frame)));
    }
    return frames;
  }

  /** Bytes of an incomplete frame still held (non-zero at the end means the stream was cut). */
  get pending(): number {
    return this.buffer.length;
  }
}

function header(m: Message, name: string): string | undefined {
  const h = m.headers[name];
  return h !== undefined && h.type === 'string' ? h.value : undefined;
}

function toFrame(m: Message): DecodedFrame {
  return {
    messageType: header(m, ':message-type') ?? '',
    eventType: header(m, ':event-type'),
    exceptionType: header(m, ':exception-type'),
    payload: m.body,
  };
}
