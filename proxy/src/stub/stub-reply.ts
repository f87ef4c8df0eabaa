import { estimateTokens, requestText } from '../token-estimate.js';
import type { MessagesBody } from '../messages-request.js';

export interface StubReply {
  text: string;
  /** The text as stub "tokens" (words with their trailing space), cut to max_tokens. */
  pieces: string[];
  stopReason: 'end_turn' | 'max_tokens';
  inputTokens: number;
  outputTokens: number;
}

/** The last user message's text as the gateway forwarded it (so privacy modes can be seen working). */
function lastUserText(body: MessagesBody): string {
  for (let i = body.messages.length - 1; i >= 0; i -= 1) {
    const m = body.messages[i];
    if (m === undefined || m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) {
      return m.content
        .filter((b): b is { type: 'text'; text: string } => typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'text')
        .map((b) => b.text)
        .join(' ');
    }
  }
  return '';
}

/**
 * The deterministic test-key reply: a fixed sentence naming the model, then the last user message as
 * forwarded, cut to max_tokens. The same request always gives the same content and usage.
 */
export function buildStubReply(modelAlias: string, forwarded: MessagesBody, maxTokens: number): StubReply {
  const echo = lastUserText(forwarded);
  const full = `This is a test response from ${modelAlias}.${echo === '' ? '' : ` You said: ${echo}`}`;
  const all = full.match(/\S+\s*|\s+/g) ?? [];
  const pieces = all.slice(0, maxTokens);
  return {
    text: pieces.join(''),
    pieces,
    stopReason: pieces.length < all.length ? 'max_tokens' : 'end_turn',
    inputTokens: Math.max(1, estimateTokens(requestText(forwarded))),
    outputTokens: pieces.length,
  };
}

/** Splits pieces into `n` runs of about equal size (fewer when there are fewer pieces). */
export function groupPieces(pieces: string[], n: number): string[] {
  if (pieces.length === 0) return [];
  const groups = Math.min(n, pieces.length);
  const out: string[] = [];
  for (let g = 0; g < groups; g += 1) {
    const from = Math.floor((g * pieces.length) / groups);
    const to = Math.floor(((g + 1) * pieces.length) / groups);
    out.push(pieces.slice(from, to).join(''));
  }
  return out;
}
