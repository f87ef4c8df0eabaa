import { expect } from 'chai';
import { fromWire, LEDGER_ENTRY_FIELDS, toWire } from '../../src/db/ledger-worker-protocol.js';
import type { LedgerWrite } from '../../src/db/ledger-statements.js';
import type { LedgerEntry } from '../../src/db/usage-ledger.js';

describe('ledger writer thread protocol', function () {
  // Every field a value of its own, so a field sent in another's place cannot go unnoticed.
  const entry: LedgerEntry = {
    request_id: 'req_1', account_id: 'acc_2', key_id: 'key_3', environment: 'live', model: 'alpha-sonnet-5',
    input_tokens: 11, output_tokens: 12, cache_creation_input_tokens: 13, cache_read_input_tokens: 14, billable_units: 15,
    cost_units: 16, outcome: 'ok', finished_at_ms: 17, period_start_ms: 18, residency: 'uk', call_region: 'eu-west-2',
    processing_regions: '["eu-west-2","eu-west-1"]', regions_basis: 'verified', evidence_sha256: 'ab'.repeat(32), evidence_at_ms: 19,
    platform: 'bedrock',
  };

  it('carries every field of a record, a mark and a touch across the thread unchanged', function () {
    const writes: LedgerWrite[] = [
      { kind: 'record', entry },
      { kind: 'record', entry: { ...entry, residency: null, call_region: null, processing_regions: null, regions_basis: null, evidence_sha256: null, evidence_at_ms: null, platform: null } },
      { kind: 'mark', requestId: 'req_1', by: 2 ** 47 - 1 },
      { kind: 'touch', lastUsed: [['key_3', 20], ['key_4', 21]] },
    ];
    // As postMessage copies them.
    expect(structuredClone(writes.map(toWire)).map(fromWire)).to.deep.equal(writes);
  });

  it('sends a record as its values in the field order, one value per field of LedgerEntry', function () {
    const wire = toWire({ kind: 'record', entry });
    expect(wire).to.deep.equal(['record', ...LEDGER_ENTRY_FIELDS.map((f) => entry[f])]);
    expect([...LEDGER_ENTRY_FIELDS].sort()).to.deep.equal(Object.keys(entry).sort());
  });
});
