/**
 * A deterministic token estimate (about four characters a token), used where no model counted: the test-key
 * stub, count_tokens for test keys, and the overage reservation's input size.
 */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / 4);
}

/**
 * Every text a request body carries (system, string contents, text blocks, tool results at any nesting),
 * concatenated in request order. Walked with an explicit stack, never by recursion: nesting depth is the
 * client's choice, and a recursive walk once overflowed the stack at 20,000 nested tool results.
 */
export function requestText(body: Record<string, unknown>): string {
  const parts: string[] = [];
  const messages = body['messages'];
  const roots: unknown[] = [body['system']];
  if (Array.isArray(messages)) for (const m of messages) roots.push(isRecord(m) ? m['content'] : undefined);
  for (const root of roots) collect(root, parts);
  return parts.join('\n');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Depth-first, in order: a stack of [blocks, next index] frames. */
function collect(content: unknown, parts: string[]): void {
  if (typeof content === 'string') {
    parts.push(content);
    return;
  }
  if (!Array.isArray(content)) return;
  const stack: Array<{ blocks: unknown[]; next: number }> = [{ blocks: content, next: 0 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as { blocks: unknown[]; next: number };
    if (frame.next >= frame.blocks.length) {
      stack.pop();
      continue;
    }
    const block = frame.blocks[frame.next];
    frame.next += 1;
    if (!isRecord(block)) continue;
    if (typeof block['text'] === 'string') parts.push(block['text']);
    if (block['type'] !== 'tool_result') continue;
    const inner = block['content'];
    if (typeof inner === 'string') parts.push(inner);
    else if (Array.isArray(inner)) stack.push({ blocks: inner, next: 0 });
  }
}
