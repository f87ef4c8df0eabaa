import type { RestoreKind, TokenTable } from './token-table.js';

export interface StreamRestorer {
  /**
   * Text of a text_delta (kind 'text') or partial_json of an input_json_delta (kind 'json') for content
   * block `index`. Returns what may be emitted now (possibly ""), holding back only the shortest tail
   * that could still be the start of a token.
   */
  push(index: number, kind: RestoreKind, chunk: string): string;
  /**
   * At content_block_stop (or end of stream): everything still held for the block, restored where
   * complete, raw otherwise.
   */
  flush(index: number): string;
}

interface Held {
  kind: RestoreKind;
  tail: string;
}

// Only the last '[' can begin a held tail: a token contains no '[' after its first character, so any
// earlier '[' followed by another cannot be the start of one. Restoring the emitted part and holding the
// tail therefore gives the same result as restoring the whole text at once, however it is chunked.
class BlockStreamRestorer implements StreamRestorer {
  private readonly held = new Map<number, Held>();

  constructor(private readonly table: TokenTable) {}

  push(index: number, kind: RestoreKind, chunk: string): string {
    const held = this.held.get(index);
    let text: string;
    if (held === undefined) {
      if (chunk.indexOf('[') === -1) return chunk;
      text = chunk;
    } else {
      this.held.delete(index);
      text = held.tail + chunk;
    }
    const open = text.lastIndexOf('[');
    if (open !== -1 && text.length - open < this.table.maxLength) {
      const tail = text.slice(open);
      if (this.table.isProperPrefix(tail)) {
        this.held.set(index, { kind, tail });
        text = text.slice(0, open);
      }
    }
    return this.table.restore(text, kind);
  }

  flush(index: number): string {
    const held = this.held.get(index);
    if (held === undefined) return '';
    this.held.delete(index);
    return this.table.restore(held.tail, held.kind);
  }
}

export function createStreamRestorer(table: TokenTable): StreamRestorer {
  return new BlockStreamRestorer(table);
}
