import { copySqliteToPostgres, type CopyFigures, type CopyResult } from '../db/copy-to-postgres.js';
import { UsageError, optionalString, parseCommand, required } from './args.js';
import type { CommandOutput } from './commands.js';

/**
 * `gatewayctl db copy --to postgres://… [--from FILE]`: a SQLite deployment (GATEWAY_DATA_DIR's database, or
 * FILE) into an empty PostgreSQL database; prints the row counts and ledger totals of both and whether they agree.
 * It needs no store of its own, so it runs before (and instead of) the one the other commands open.
 */
export async function dbCopy(argv: string[], defaultFile: string): Promise<CommandOutput & { identical: boolean }> {
  const cmd = parseCommand(argv, ['to', 'from']);
  const to = required(cmd.flags, 'to');
  if (!/^postgres(ql)?:\/\//.test(to)) throw new UsageError('--to must be a PostgreSQL URL, postgres://user:password@host:port/database');
  const result = await copySqliteToPostgres(optionalString(cmd.flags, 'from') ?? defaultFile, to);
  return { json: result, text: describe(result), identical: result.identical };
}

function describe(r: CopyResult): string {
  const lines = ['table                    sqlite      postgres'];
  for (const [table, n] of Object.entries(r.sqlite.tables)) {
    const pg = r.postgres.tables[table] ?? 0;
    lines.push(`${table.padEnd(22)} ${String(n).padStart(8)} ${String(pg).padStart(13)}${pg === n ? '' : '   DIFFERS'}`);
  }
  const sums = (label: string, f: (x: CopyFigures) => CopyFigures['ledger']) => {
    for (const env of new Set([...Object.keys(f(r.sqlite)), ...Object.keys(f(r.postgres))])) {
      const a = f(r.sqlite)[env];
      const b = f(r.postgres)[env];
      const show = (x: typeof a) => (x === undefined ? 'none' : `${x.requests} requests, ${x.billable_units} units, ${x.cost_units} cost units`);
      lines.push(`${label} ${env}: sqlite ${show(a)}; postgres ${show(b)}${JSON.stringify(a) === JSON.stringify(b) ? '' : '   DIFFERS'}`);
    }
  };
  sums('ledger', (x) => x.ledger);
  sums('totals', (x) => x.totals);
  lines.push(r.identical ? 'Both databases hold the same rows and totals.' : 'The databases DIFFER: do not switch DATABASE_URL over; see docs/operations.md.');
  return lines.join('\n');
}
