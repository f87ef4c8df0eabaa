/**
 * A deterministic token estimate (about four characters a token), used where no model counted: the test-key
 * stub, count_tokens for test keys, and the overage reservation's input size.
 */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / 4);
}

/** Every text a request body carries (system, string contents, text blocks, tool results), concatenated. */
export function requestText(body: Record<string, unknown>): string {
  const parts: string[] = [];
  collect(body['system'], parts);
  const messages = body['messages'];
  if (Array.isArray(messages)) for (const m of messages) collect((m as Record<string, unknown>)['content'], parts);
  return parts.join('\n');
}

function collect(v: unknown, parts: string[]): void {
  if (typeof v === 'string') {
    parts.push(v);
    return;
  }
  if (!Array.isArray(v)) return;
  for (const block of v) {
    if (typeof block !== 'object' || block === null) continue;
    const b = block as Record<string, unknown>;
    if (typeof b['text'] === 'string') parts.push(b['text']);
    if (b['type'] === 'tool_result') collect(b['content'], parts);
  }
}
