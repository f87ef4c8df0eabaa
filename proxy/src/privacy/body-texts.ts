// The texts a Messages request carries, as slots that can be read and replaced in place: `system`
// (string or text blocks), `messages[].content` (string or blocks), text blocks, `tool_result` content
// (string or blocks), `document` blocks with a text or content source (plus their title/context), and the
// string values of earlier `tool_use` inputs (in tokenise mode those hold restored originals, which must not
// go back upstream in clear on the next turn).
// Images, base64 and URL sources, thinking blocks (signed) and unknown block types are left alone.

export interface TextSlot {
  readonly text: string;
  set(value: string): void;
}

// Nested block arrays are at most two deep in the API (tool_result → document → text); the bound only
// stops a hostile body from recursing deeply.
const MAX_DEPTH = 4;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function addString(owner: Record<string, unknown>, key: string, slots: TextSlot[]): void {
  const text = owner[key];
  if (typeof text !== 'string' || text.length === 0) return;
  slots.push({
    text,
    set(value: string): void {
      owner[key] = value;
    },
  });
}

/** A string or an array of blocks under `owner[key]`. */
function addContent(owner: Record<string, unknown>, key: string, slots: TextSlot[], depth: number): void {
  const content = owner[key];
  if (typeof content === 'string') addString(owner, key, slots);
  else if (Array.isArray(content)) addBlocks(content, slots, depth + 1);
}

function addDocument(block: Record<string, unknown>, slots: TextSlot[], depth: number): void {
  addString(block, 'title', slots);
  addString(block, 'context', slots);
  const source = block['source'];
  if (!isRecord(source)) return;
  if (source['type'] === 'text') addString(source, 'data', slots);
  else if (source['type'] === 'content') addContent(source, 'content', slots, depth);
}

/** Tool input is any JSON: every string value in it, nesting bounded. */
const MAX_JSON_DEPTH = 32;

function addJsonStrings(owner: Record<string, unknown> | unknown[], slots: TextSlot[], depth: number): void {
  if (depth > MAX_JSON_DEPTH) return;
  const entries: Array<[string | number, unknown]> = Array.isArray(owner) ? owner.map((v, i) => [i, v]) : Object.entries(owner);
  for (const [key, value] of entries) {
    if (typeof value === 'string') {
      if (value.length === 0) continue;
      slots.push({
        text: value,
        set(next: string): void {
          (owner as Record<string | number, unknown>)[key] = next;
        },
      });
    } else if (typeof value === 'object' && value !== null) {
      addJsonStrings(value as Record<string, unknown> | unknown[], slots, depth + 1);
    }
  }
}

function addBlocks(blocks: unknown[], slots: TextSlot[], depth: number): void {
  if (depth > MAX_DEPTH) return;
  for (const block of blocks) {
    if (!isRecord(block)) continue;
    switch (block['type']) {
      case 'text':
        addString(block, 'text', slots);
        break;
      case 'tool_result':
        addContent(block, 'content', slots, depth);
        break;
      case 'document':
        addDocument(block, slots, depth);
        break;
      case 'tool_use': {
        const input = block['input'];
        if (typeof input === 'object' && input !== null) addJsonStrings(input as Record<string, unknown>, slots, 0);
        break;
      }
      default:
        break;
    }
  }
}

/** Slots in request order (system first, then messages in order). */
export function collectTextSlots(body: Record<string, unknown>): TextSlot[] {
  const slots: TextSlot[] = [];
  addContent(body, 'system', slots, 0);
  const messages = body['messages'];
  if (Array.isArray(messages)) {
    for (const message of messages) if (isRecord(message)) addContent(message, 'content', slots, 0);
  }
  return slots;
}
