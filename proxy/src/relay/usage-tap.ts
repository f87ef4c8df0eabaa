import type { TokenUsage } from '@gateway/shared';

/**
 * Reads usage from the vendor's message events: `message_start.message.usage` first, then each
 * `message_delta.usage`, whose values are cumulative totals (not increments).
 */
export class UsageTap {
  readonly usage: TokenUsage = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  /** Whether the upstream reported any usage at all (if not, the proxy estimates from the text it saw). */
  reported = false;
  /** Characters of generated text seen, for an estimate when the stream breaks before usage arrives. */
  textChars = 0;
  stopped = false;

  observe(event: Record<string, unknown>): void {
    switch (event['type']) {
      case 'message_start': {
        const message = event['message'] as Record<string, unknown> | undefined;
        this.take(message?.['usage']);
        break;
      }
      case 'message_delta':
        this.take(event['usage']);
        break;
      case 'content_block_delta': {
        const delta = event['delta'] as Record<string, unknown> | undefined;
        const text = delta?.['text'] ?? delta?.['partial_json'] ?? delta?.['thinking'];
        if (typeof text === 'string') this.textChars += text.length;
        break;
      }
      case 'message_stop':
        this.stopped = true;
        break;
      default:
        break;
    }
  }

  /** A whole (non-streamed) Message's usage. */
  observeMessage(message: Record<string, unknown>): void {
    this.take(message['usage']);
    this.stopped = true;
  }

  private take(u: unknown): void {
    if (typeof u !== 'object' || u === null) return;
    const usage = u as Record<string, unknown>;
    for (const field of ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const) {
      const v = usage[field];
      if (typeof v === 'number' && Number.isFinite(v) && v >= 0) {
        this.usage[field] = Math.floor(v);
        this.reported = true;
      }
    }
  }
}
