import type { LedgerWrite, LedgerWriteResult } from './ledger-statements.js';
import type { LedgerEntry } from './usage-ledger.js';

/** What the ledger writer's thread is started with. */
export interface LedgerWorkerData {
  file: string;
}

/**
 * Messages to the thread, handled in arrival order; each is answered once under its id. The writes of a window
 * (LEDGER_WINDOW, gathered on the sending side) come in one message, as WireWrites, and are committed in one
 * transaction.
 */
export type LedgerWorkerRequest = { id: number } & (
  | { op: 'commit'; writes: WireWrite[] }
  | { op: 'seed'; accountId: string; startMs: number; endMs: number }
  | { op: 'close' }
);

/** Answers by id; a commit's says how long the transaction took (seconds). */
export type LedgerWorkerReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: true; value: LedgerWriteResult[]; seconds: number }
  | { id: number; ok: false; message: string };

/** A LedgerEntry's fields in the order a record's values travel to the thread. */
export const LEDGER_ENTRY_FIELDS = [
  'request_id', 'account_id', 'key_id', 'environment', 'model', 'input_tokens', 'output_tokens',
  'cache_creation_input_tokens', 'cache_read_input_tokens', 'billable_units', 'cost_units', 'outcome', 'finished_at_ms',
  'period_start_ms', 'residency', 'call_region', 'processing_regions', 'regions_basis', 'evidence_sha256',
  'evidence_at_ms', 'platform',
] as const satisfies ReadonlyArray<keyof LedgerEntry>;

/** Fails to compile if LedgerEntry gains a field the list above does not carry. */
export type LedgerEntryFieldsComplete = Exclude<keyof LedgerEntry, (typeof LEDGER_ENTRY_FIELDS)[number]> extends never ? true : never;
const complete: LedgerEntryFieldsComplete = true;
void complete;

/**
 * A write as it crosses to the thread: a record's entry as its values in LEDGER_ENTRY_FIELDS order, not the object
 * with its keys (postMessage's serializer and deserializer take 69 µs for a window of 32 rows and 32 marks as
 * objects, 30 as arrays).
 */
export type WireWrite =
  | readonly ['record', ...values: unknown[]]
  | readonly ['mark', requestId: string, by: number]
  | readonly ['touch', lastUsed: ReadonlyArray<readonly [keyId: string, ms: number]>];

export function toWire(w: LedgerWrite): WireWrite {
  switch (w.kind) {
    case 'record': {
      const e = w.entry;
      return ['record', e.request_id, e.account_id, e.key_id, e.environment, e.model, e.input_tokens, e.output_tokens,
        e.cache_creation_input_tokens, e.cache_read_input_tokens, e.billable_units, e.cost_units, e.outcome, e.finished_at_ms,
        e.period_start_ms, e.residency, e.call_region, e.processing_regions, e.regions_basis, e.evidence_sha256,
        e.evidence_at_ms, e.platform];
    }
    case 'mark':
      return ['mark', w.requestId, w.by];
    case 'touch':
      return ['touch', w.lastUsed];
  }
}

export function fromWire(w: WireWrite): LedgerWrite {
  switch (w[0]) {
    case 'record': {
      const entry = {} as Record<keyof LedgerEntry, unknown>;
      LEDGER_ENTRY_FIELDS.forEach((field, i) => (entry[field] = w[i + 1]));
      return { kind: 'record', entry: entry as LedgerEntry };
    }
    case 'mark':
      return { kind: 'mark', requestId: w[1], by: w[2] };
    case 'touch':
      return { kind: 'touch', lastUsed: w[1] };
  }
}
