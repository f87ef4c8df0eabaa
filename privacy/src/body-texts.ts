// The texts a Messages request carries, as slots that can be read and replaced in place.
//
// The rule is "scan unless known to be opaque": every string in `system`, in `messages` (every role, the
// `system` role of current clients included), in every block type (known or not, nested to any depth) and in
// any top-level field the gateway does not know is a text to scan. Only what would break if changed, or is
// not text at all, is left alone, and each such case is named below. So a role, block type or container the
// vendor adds tomorrow is scanned by default, never skipped by default.

export interface TextSlot {
  readonly text: string;
  set(value: string): void;
}

/** Top-level fields that are settings, not conversation. */
const SETTINGS_FIELDS: ReadonlySet<string> = new Set([
  'model', 'max_tokens', 'stream', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'tool_choice',
  'thinking', 'service_tier', 'context_management', 'output_config', 'output_format', 'mcp_servers', 'container',
  'anthropic_version', 'anthropic_beta',
]);

/** Keys of a block that are identifiers, tags or signed/opaque data: changing them breaks the request. */
const OPAQUE_KEYS: ReadonlySet<string> = new Set([
  'type', 'id', 'tool_use_id', 'name', 'role', 'media_type', 'cache_control', 'signature', 'file_id',
  'encrypted_content', 'encrypted_index',
]);

/**
 * Block types whose whole content is opaque: images (binary), and thinking blocks, which the upstream checks
 * against their signature. Thinking text was produced from the already-transformed request, so it holds
 * tokens or redactions, not the originals.
 */
const OPAQUE_BLOCK_TYPES: ReadonlySet<string> = new Set(['image', 'thinking', 'redacted_thinking']);

/** Sources that are not text: binary data, a URL the upstream fetches, a file reference. */
const OPAQUE_SOURCE_TYPES: ReadonlySet<string> = new Set(['base64', 'url', 'file']);

/** Blocks whose `input` is the model's own tool call: arbitrary JSON, every string value of it is text. */
const TOOL_CALL_TYPES: ReadonlySet<string> = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);

/**
 * `tools` holds the client's own tool definitions: their descriptions are prose (and may name people), but
 * the schemas' other strings (enums, patterns, defaults, formats) decide what the tools accept.
 */
const TOOL_DEFINITIONS = 'tools';

type Container = Record<string, unknown> | unknown[];

/**
 * How strings under a node are read: `blocks` (keys may be structural), `free` (a tool call's input: every
 * string is a value), `descriptions` (tool definitions: only `description` strings).
 */
type Walk = 'blocks' | 'free' | 'descriptions';

interface Pending {
  node: Container;
  walk: Walk;
}

function isOpaqueObject(node: Record<string, unknown>): boolean {
  const type = node['type'];
  if (typeof type !== 'string') return false;
  return OPAQUE_BLOCK_TYPES.has(type) || (OPAQUE_SOURCE_TYPES.has(type) && ('data' in node || 'url' in node || 'file_id' in node));
}

function slotFor(owner: Container, key: string | number, text: string): TextSlot {
  return {
    text,
    set(value: string): void {
      (owner as Record<string | number, unknown>)[key] = value;
    },
  };
}

/**
 * Slots in request order (top-level fields in body order, so `system` before `messages` as clients send them;
 * depth first within each). Iterative: the body's nesting was bounded when it was read, and no walk here
 * uses the call stack for it.
 */
export function collectTextSlots(body: Record<string, unknown>): TextSlot[] {
  const slots: TextSlot[] = [];
  const stack: Pending[] = [];
  const topKeys = Object.keys(body).filter((k) => !SETTINGS_FIELDS.has(k));
  // Top-level strings (a string `system`, or an unknown text field) come first, in body order.
  for (const key of topKeys) {
    const value = body[key];
    if (typeof value === 'string' && value.length > 0) slots.push(slotFor(body, key, value));
  }
  for (let t = topKeys.length - 1; t >= 0; t -= 1) {
    const key = topKeys[t] as string;
    const value = body[key];
    if (typeof value === 'object' && value !== null) stack.push({ node: value as Container, walk: key === TOOL_DEFINITIONS ? 'descriptions' : 'blocks' });
  }

  while (stack.length > 0) {
    const { node, walk } = stack.pop() as Pending;
    const children = childrenOf(node, walk);
    // This node's strings in order now; nested containers pushed in reverse so that they pop in order.
    for (const [key, value, childWalk] of children) {
      if (typeof value !== 'string' || value.length === 0) continue;
      if (childWalk !== 'descriptions' || key === 'description') slots.push(slotFor(node, key, value));
    }
    for (let i = children.length - 1; i >= 0; i -= 1) {
      const [, value, childWalk] = children[i] as Child;
      if (typeof value === 'object' && value !== null) stack.push({ node: value as Container, walk: childWalk });
    }
  }
  return slots;
}

type Child = [key: string | number, value: unknown, walk: Walk];

function childrenOf(node: Container, walk: Walk): Child[] {
  const children: Child[] = [];
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i += 1) children.push([i, node[i], walk]);
    return children;
  }
  if (walk !== 'blocks') {
    for (const key of Object.keys(node)) children.push([key, node[key], walk]);
    return children;
  }
  if (isOpaqueObject(node)) return children;
  const toolCall = typeof node['type'] === 'string' && TOOL_CALL_TYPES.has(node['type']);
  for (const key of Object.keys(node)) {
    if (OPAQUE_KEYS.has(key)) continue;
    children.push([key, node[key], toolCall && key === 'input' ? 'free' : 'blocks']);
  }
  return children;
}
