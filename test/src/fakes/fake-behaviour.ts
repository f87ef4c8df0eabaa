import type { IncomingHttpHeaders } from 'node:http';

export interface TextBlockPlan {
  type: 'text';
  text: string;
}

export interface ThinkingBlockPlan {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface ToolUseBlockPlan {
  type: 'tool_use';
  /** Defaults to a fresh `toolu_01…` id. */
  id?: string;
  name: string;
  input: Record<string, unknown>;
}

export type ContentBlockPlan = TextBlockPlan | ThinkingBlockPlan | ToolUseBlockPlan;

export interface FakeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** An HTTP error instead of a response. `type` and `message` default from the status. */
export interface ErrorBeforePlan {
  status: number;
  type?: string;
  message?: string;
  retryAfterSeconds?: number;
}

/** After `afterDeltas` content deltas: Messages sends `event: error`, Bedrock an exception frame; then the end. */
export interface ErrorMidStreamPlan {
  afterDeltas: number;
  type: string;
  message: string;
}

/** One scripted response. Every field is optional; see DEFAULTS for what an empty plan does. */
export interface BehaviourPlan {
  /** Blocks in order. Default: one text block `Mock reply to: <last user message text>`. */
  content?: ContentBlockPlan[];
  /** Default: `tool_use` when a tool_use block is present, else `end_turn`. */
  stop_reason?: string;
  /** Only meaningful with stop_reason `stop_sequence`. */
  stop_sequence?: string;
  /** Fields left out are estimated: input ≈ request chars / 4, output ≈ output chars / 4, cache 0. */
  usage?: Partial<FakeUsage>;
  /** Delay before the response headers. */
  latencyMs?: number;
  /** Characters per text/thinking delta and per input_json_delta slice (default 12). */
  chunkSize?: number;
  /** Delay between stream events (default 0). */
  gapMs?: number;
  /** Send a `ping` event, as the vendor does, right after the first content_block_start. */
  pingAfterStart?: boolean;
  errorBefore?: ErrorBeforePlan;
  /** Streams: 200 and headers, then this error as the first event, before any message_start (then the end). */
  errorBeforeStart?: { type: string; message: string };
  /** Streams: 200 and headers at once, then this long before the first event (a stalled stream). */
  firstEventDelayMs?: number;
  errorMidStream?: ErrorMidStreamPlan;
  /** Destroy the socket after this many deltas: no clean end. */
  dropAfterDeltas?: number;
  /** Never send headers; the socket stays open until the client gives up. */
  hangBeforeHeaders?: boolean;
  /** Stop sending after this many deltas and keep the socket open. */
  hangAfterDeltas?: number;
  /** false: no usage numbers in message_delta / the Message / Bedrock metrics, so the gateway must estimate. */
  reportUsage?: boolean;
  /** Extra response headers (e.g. rate-limit headers) on success and on errorBefore responses. */
  headers?: Record<string, string>;
}

/** What a behaviour function sees: the request after it passed the fake's checks. */
export interface FakeRequest {
  body: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  /** The leading region path segment, or null when the URL had none. */
  region: string | null;
  path: string;
  /** Bedrock only: the decoded model id of the path; null for the Messages fake. */
  modelId: string | null;
}

export type BehaviourSource = BehaviourPlan | ((request: FakeRequest) => BehaviourPlan);

export const DEFAULT_CHUNK_SIZE = 12;

/** Per-fake scripting: queued plans first (one per request), then the standing behaviour, then the default. */
export class BehaviourScript {
  private standing: BehaviourSource | null = null;
  private readonly queue: BehaviourSource[] = [];

  set(source: BehaviourSource | null): void {
    this.standing = source;
  }

  enqueue(...sources: BehaviourSource[]): void {
    this.queue.push(...sources);
  }

  /** Drops queued plans and the standing behaviour. */
  reset(): void {
    this.standing = null;
    this.queue.length = 0;
  }

  next(request: FakeRequest): BehaviourPlan {
    const source = this.queue.shift() ?? this.standing;
    if (source === null) return {};
    return typeof source === 'function' ? source(request) : source;
  }
}

/** The text of the last user message: a string content, or its text blocks joined. */
export function lastUserText(body: Record<string, unknown>): string {
  const messages = Array.isArray(body['messages']) ? (body['messages'] as unknown[]) : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (!isRecord(m) || m['role'] !== 'user') continue;
    const content = m['content'];
    if (typeof content === 'string') return content;
    if (!Array.isArray(content)) return '';
    return content
      .filter((b): b is Record<string, unknown> => isRecord(b) && b['type'] === 'text')
      .map((b) => (typeof b['text'] === 'string' ? b['text'] : ''))
      .join('\n');
  }
  return '';
}

/** ≈ chars/4 over every string in system, messages and tools — close enough to look like the vendor's count. */
export function estimateInputTokens(body: Record<string, unknown>): number {
  const chars = stringChars(body['system']) + stringChars(body['messages']) + stringChars(body['tools']);
  return Math.max(1, Math.ceil(chars / 4));
}

export function estimateOutputTokens(content: readonly ContentBlockPlan[]): number {
  let chars = 0;
  for (const block of content) {
    if (block.type === 'text') chars += block.text.length;
    else if (block.type === 'thinking') chars += block.thinking.length;
    else chars += block.name.length + JSON.stringify(block.input).length;
  }
  return Math.max(1, Math.ceil(chars / 4));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringChars(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (Array.isArray(value)) return value.reduce<number>((n, v) => n + stringChars(v), 0);
  if (isRecord(value)) return Object.values(value).reduce<number>((n, v) => n + stringChars(v), 0);
  return 0;
}
