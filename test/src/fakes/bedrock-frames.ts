import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { sleep } from './stream-player.js';

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const PADDING = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A `chunk` event frame carrying one Messages event, base64-encoded, padded as Bedrock pads it. */
export function chunkFrame(event: Record<string, unknown>): Uint8Array {
  const payload = {
    bytes: Buffer.from(JSON.stringify(event), 'utf8').toString('base64'),
    // Bedrock pads payloads with a run of this alphabet so frame sizes do not reveal token lengths.
    p: PADDING.slice(0, 1 + Math.floor(Math.random() * PADDING.length)),
  };
  return codec.encode({
    headers: {
      ':event-type': { type: 'string', value: 'chunk' },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    },
    body: fromUtf8(JSON.stringify(payload)),
  });
}

/** An exception frame, e.g. `:exception-type: throttlingException`, payload `{"message": …}`. */
export function exceptionFrame(exceptionType: string, message: string): Uint8Array {
  return codec.encode({
    headers: {
      ':exception-type': { type: 'string', value: exceptionType },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'exception' },
    },
    body: fromUtf8(JSON.stringify({ message })),
  });
}

/**
 * Writes frames, every third one in two pieces with a pause between them, so a reader that assumes
 * one frame per TCP read breaks. The cut alternates between inside the 12-byte prelude and mid-payload.
 */
export class FrameWriter {
  private count = 0;

  constructor(
    private readonly write: (chunk: Uint8Array) => Promise<void>,
    private readonly splitPauseMs = 5,
    private readonly signal?: AbortSignal,
  ) {}

  async frame(bytes: Uint8Array): Promise<void> {
    this.count++;
    if (this.count % 3 !== 0 || bytes.length < 16) return this.write(bytes);
    const cut = this.count % 2 === 1 ? 7 : Math.floor(bytes.length / 2);
    await this.write(bytes.subarray(0, cut));
    await sleep(this.splitPauseMs, this.signal);
    if (this.signal?.aborted === true) return undefined;
    return this.write(bytes.subarray(cut));
  }
}
