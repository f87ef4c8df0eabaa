import {
  DEFAULT_CHUNK_SIZE,
  estimateInputTokens,
  estimateOutputTokens,
  lastUserText,
  type BehaviourPlan,
  type ContentBlockPlan,
  type FakeUsage,
} from './fake-behaviour.js';
import { fakeId } from './fake-ids.js';

export type ResolvedBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/** A plan with every default filled in, ready to render as a Message or as stream events. */
export interface ResolvedResponse {
  id: string;
  model: string;
  content: ResolvedBlock[];
  stop_reason: string;
  stop_sequence: string | null;
  usage: FakeUsage;
  reportUsage: boolean;
  chunkSize: number;
}

/** One Messages stream event; `delta` marks content_block_delta, which the failure knobs count. */
export interface StreamEvent {
  type: string;
  data: Record<string, unknown>;
  delta: boolean;
}

export function resolveResponse(
  plan: BehaviourPlan,
  body: Record<string, unknown>,
  model: string,
  idPrefix = 'msg_01',
): ResolvedResponse {
  const planned: ContentBlockPlan[] = plan.content ?? [{ type: 'text', text: `Mock reply to: ${lastUserText(body)}` }];
  const content = planned.map((b): ResolvedBlock => (b.type === 'tool_use' ? { ...b, id: b.id ?? fakeId('toolu_01', 22) } : { ...b }));
  const usage: FakeUsage = {
    input_tokens: plan.usage?.input_tokens ?? estimateInputTokens(body),
    output_tokens: plan.usage?.output_tokens ?? estimateOutputTokens(planned),
    cache_creation_input_tokens: plan.usage?.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: plan.usage?.cache_read_input_tokens ?? 0,
  };
  return {
    id: fakeId(idPrefix, 22),
    model,
    content,
    stop_reason: plan.stop_reason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'),
    stop_sequence: plan.stop_sequence ?? null,
    usage,
    reportUsage: plan.reportUsage ?? true,
    chunkSize: Math.max(1, plan.chunkSize ?? DEFAULT_CHUNK_SIZE),
  };
}

/** The non-streaming Message body. */
export function buildMessage(r: ResolvedResponse): Record<string, unknown> {
  const message: Record<string, unknown> = {
    model: r.model,
    id: r.id,
    type: 'message',
    role: 'assistant',
    content: r.content,
    stop_reason: r.stop_reason,
    stop_sequence: r.stop_sequence,
  };
  if (r.reportUsage) message['usage'] = { ...r.usage };
  return message;
}

/** The vendor's event sequence: message_start → per block start/deltas/stop → message_delta → message_stop. */
export function buildStreamEvents(r: ResolvedResponse, pingAfterStart: boolean): StreamEvent[] {
  const events: StreamEvent[] = [];
  const push = (type: string, data: Record<string, unknown>, delta = false): void => {
    events.push({ type, data: { type, ...data }, delta });
  };
  push('message_start', {
    message: {
      model: r.model,
      id: r.id,
      type: 'message',
      role: 'assistant',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: r.usage.input_tokens,
        cache_creation_input_tokens: r.usage.cache_creation_input_tokens,
        cache_read_input_tokens: r.usage.cache_read_input_tokens,
        output_tokens: 1,
      },
    },
  });
  if (r.content.length === 0 && pingAfterStart) push('ping', {});
  r.content.forEach((block, index) => {
    const delta = (d: Record<string, unknown>): void => push('content_block_delta', { index, delta: d }, true);
    if (block.type === 'text') {
      push('content_block_start', { index, content_block: { type: 'text', text: '' } });
      if (index === 0 && pingAfterStart) push('ping', {});
      for (const piece of slices(block.text, r.chunkSize)) delta({ type: 'text_delta', text: piece });
    } else if (block.type === 'thinking') {
      push('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      if (index === 0 && pingAfterStart) push('ping', {});
      for (const piece of slices(block.thinking, r.chunkSize)) delta({ type: 'thinking_delta', thinking: piece });
      delta({ type: 'signature_delta', signature: block.signature });
    } else {
      push('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      if (index === 0 && pingAfterStart) push('ping', {});
      for (const piece of slices(JSON.stringify(block.input), r.chunkSize)) {
        delta({ type: 'input_json_delta', partial_json: piece });
      }
    }
    push('content_block_stop', { index });
  });
  push('message_delta', {
    delta: { stop_reason: r.stop_reason, stop_sequence: r.stop_sequence },
    usage: r.reportUsage ? finalUsage(r.usage) : {},
  });
  push('message_stop', {});
  return events;
}

/** Cumulative totals; input and cache fields only when they apply, as the vendor does. */
function finalUsage(u: FakeUsage): Record<string, number> {
  const usage: Record<string, number> = {};
  if (u.input_tokens > 0) usage['input_tokens'] = u.input_tokens;
  if (u.cache_creation_input_tokens > 0) usage['cache_creation_input_tokens'] = u.cache_creation_input_tokens;
  if (u.cache_read_input_tokens > 0) usage['cache_read_input_tokens'] = u.cache_read_input_tokens;
  usage['output_tokens'] = u.output_tokens;
  return usage;
}

/** Splits by code point so a delta never ends in half a surrogate pair. */
export function slices(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}
