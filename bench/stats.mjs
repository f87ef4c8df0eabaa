// Small helpers shared by the benches: percentiles, process CPU time, the machine description, env-var knobs and
// a plain table.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';

/** Nearest-rank percentile (p in 0..1) of an unsorted array of numbers; NaN when empty. */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1];
}

/** p50, p99 and mean of a list of milliseconds. */
export function summarise(ms) {
  const mean = ms.length === 0 ? Number.NaN : ms.reduce((a, b) => a + b, 0) / ms.length;
  return { n: ms.length, p50: percentile(ms, 0.5), p99: percentile(ms, 0.99), mean };
}

/** Clock ticks per second of /proc/PID/stat (USER_HZ), usually 100. */
export const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system, ms) a process has used so far; NaN where /proc is not available (not Linux). */
export function processCpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** A positive integer from the environment, or the default; exits with a message on anything else. */
export function intFromEnv(name, fallback, min = 0) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    process.stderr.write(`${name} must be an integer >= ${min}, got '${raw}'\n`);
    process.exit(2);
  }
  return n;
}

/** A comma-separated list of positive integers from the environment, or the default. */
export function intListFromEnv(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const list = raw.split(',').map((s) => Number(s.trim()));
  if (list.some((n) => !Number.isInteger(n) || n < 1)) {
    process.stderr.write(`${name} must be a comma-separated list of positive integers, got '${raw}'\n`);
    process.exit(2);
  }
  return list;
}

/** What the figures were measured on; the load average shows how busy the (shared) machine was. */
export function machine() {
  const cpu = cpus()[0];
  return {
    nproc: availableParallelism(),
    cpu: cpu?.model ?? 'unknown',
    memGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    loadavg: loadavg().map((l) => Number(l.toFixed(2))),
  };
}

export const fmt = (n, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** Prints rows (arrays of strings) as a fixed-width table with a header row and a rule under it. */
export function printTable(header, rows, out = process.stdout) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  out.write(`${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const r of rows) out.write(`${line(r)}\n`);
}
