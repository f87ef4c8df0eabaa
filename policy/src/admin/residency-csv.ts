import type { ResidencyReportRow } from '../db/usage-queries.js';

/** The report's columns, in the order of the JSON rows (CONTRACT.md "Residency evidence and attestation"). */
const COLUMNS = ['date', 'tier', 'call_region', 'processing_regions', 'regions_basis', 'requests', 'billable_units', 'platform'] as const;

/** RFC 4180: a field holding a comma, a quote or a line break is quoted, its quotes doubled. */
function csvField(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

function cell(row: ResidencyReportRow, column: (typeof COLUMNS)[number]): string {
  const v = row[column];
  if (v === null) return ''; // a route not recorded (before the ledger kept it, or from an older proxy)
  // The regions as X-Gateway-Regions lists them: comma-separated, so the field is quoted.
  return Array.isArray(v) ? v.join(',') : String(v);
}

/** The residency report as CSV: a header line, then one line per row, CRLF line ends (RFC 4180). */
export function residencyReportCsv(rows: readonly ResidencyReportRow[]): string {
  const lines = [COLUMNS.join(','), ...rows.map((r) => COLUMNS.map((c) => csvField(cell(r, c))).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}
