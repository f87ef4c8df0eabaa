// The SQLite ledger writer's CPU per report, isolated: N reports written as the policy service writes them (a row,
// then its counted mark once the row is committed), 64 at a time (windows fill as at ~2,000 reports/s), through SqliteLedgerWriter and its thread.
// Prints the whole process's CPU (both threads) and the event loop's own busy time, per report.
//   node bench/ledger-writer.mjs   knobs: BENCH_REPORTS (20000), BENCH_ROUNDS (5), BENCH_IN_FLIGHT (64), BENCH_MAX_ITEMS (LEDGER_WINDOW's),
//   BENCH_SEQUENTIAL_IDS (0)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../policy/dist/src/db/database.js';
import { SqliteLedgerWriter } from '../policy/dist/src/db/sqlite-ledger-writer.js';
import { LEDGER_WINDOW } from '../policy/dist/src/db/ledger-writer.js';
import { newRequestId } from '../shared/dist/src/ids.js';
import { intFromEnv } from './stats.mjs';

const REPORTS = intFromEnv('BENCH_REPORTS', 20000, 1);
const ROUNDS = intFromEnv('BENCH_ROUNDS', 5, 1);
const SEQUENTIAL = process.env.BENCH_SEQUENTIAL_IDS === '1';
const IN_FLIGHT = intFromEnv('BENCH_IN_FLIGHT', 64, 1);
const dir = mkdtempSync(join(tmpdir(), 'bench-ledger-'));
const file = join(dir, 'gateway.db');
openDatabase(file).close();
const quiet = { info() {}, warn() {}, error() {}, debug() {}, child() { return quiet; } };
const window = { ...LEDGER_WINDOW, maxItems: intFromEnv('BENCH_MAX_ITEMS', LEDGER_WINDOW.maxItems, 1) };
const writer = new SqliteLedgerWriter(file, quiet, () => undefined, window);
writer.start();
let n = 0;
const entry = () => {
  n += 1;
  return {
    // Random, as the proxy mints them (BENCH_SEQUENTIAL_IDS=1: in order, which dirties fewer index pages per commit).
    request_id: SEQUENTIAL ? `req_${String(n).padStart(24, '0')}` : newRequestId(), account_id: 'acc_bench', key_id: 'key_bench', environment: 'live', model: 'alpha-sonnet-5',
    input_tokens: 31, output_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, billable_units: 43, cost_units: 2110,
    outcome: 'success', finished_at_ms: Date.now(), period_start_ms: 1764547200000, residency: 'uk', call_region: 'eu-west-2',
    processing_regions: '["eu-west-2"]', regions_basis: 'declared', evidence_sha256: null, evidence_at_ms: null, platform: 'messages',
  };
};
const report = async () => {
  const e = entry();
  const row = await writer.record(e);
  if (!row.inserted || row.counted !== 0) throw new Error('expected a new uncounted row');
  const holder = await writer.markCounted(e.request_id, 123456789);
  if (holder !== 123456789) throw new Error(`mark answered ${holder}`);
};
try {
  for (let round = 0; round <= ROUNDS; round += 1) {
    const cpu0 = process.cpuUsage();
    const elu0 = performance.eventLoopUtilization();
    const t0 = performance.now();
    let left = REPORTS;
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      while (left > 0) {
        left -= 1;
        await report();
      }
    }));
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const elu = performance.eventLoopUtilization(elu0);
    // Round 0 warms up.
    if (round > 0) process.stdout.write(`round ${round}: process CPU ${((cpu.user + cpu.system) / REPORTS).toFixed(1)} µs per report, event loop busy ${((elu.active * 1000) / REPORTS).toFixed(1)} µs per report, ${(REPORTS / ms * 1000).toFixed(0)} reports/s\n`);
  }
} finally {
  await writer.close();
  rmSync(dir, { recursive: true, force: true });
}
