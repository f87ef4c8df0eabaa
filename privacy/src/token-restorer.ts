import { createStreamRestorer } from './stream-restorer.js';
import type { StreamRestorer } from './stream-restorer.js';
import { TokenTable } from './token-table.js';

/** Puts the originals back into a response to a tokenised request. Holds the mapping; never logs it. */
export interface TokenRestorer {
  /** Non-streamed Message: restores text blocks' text and every string value (deep) of tool_use input. */
  restoreMessage(message: Record<string, unknown>): void;
  createStreamRestorer(): StreamRestorer;
}

// Model-produced JSON is shallow; the bound only protects the stack from a hostile upstream.
const MAX_DEPTH = 64;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

class TableTokenRestorer implements TokenRestorer {
  constructor(private readonly table: TokenTable) {}

  restoreMessage(message: Record<string, unknown>): void {
    const content = message['content'];
    if (!Array.isArray(content)) return;
    for (const block of content) {
      if (!isRecord(block)) continue;
      if (block['type'] === 'text' && typeof block['text'] === 'string') {
        block['text'] = this.table.restore(block['text'], 'text');
      } else if (block['type'] === 'tool_use') {
        block['input'] = this.restoreValue(block['input'], 0);
      }
    }
  }

  createStreamRestorer(): StreamRestorer {
    return createStreamRestorer(this.table);
  }

  /** Restores strings in place; returns the (possibly new) value for a string argument. */
  private restoreValue(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.table.restore(value, 'text');
    if (depth >= MAX_DEPTH) return value;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = this.restoreValue(value[i], depth + 1);
    } else if (isRecord(value)) {
      for (const key of Object.keys(value)) {
        const child = value[key];
        const restored = this.restoreValue(child, depth + 1);
        // defineProperty, not assignment: JSON.parse makes "__proto__" an own key, whose setter would fire.
        if (restored !== child) {
          Object.defineProperty(value, key, { value: restored, writable: true, enumerable: true, configurable: true });
        }
      }
    }
    return value;
  }
}

/** A restorer for the token → original mapping of one request. */
export function createTokenRestorer(tokens: ReadonlyMap<string, string>): TokenRestorer {
  return new TableTokenRestorer(new TokenTable(tokens));
}
