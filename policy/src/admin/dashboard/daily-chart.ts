import { formatGbp } from '../../billing.js';
import type { DailyUsageRow } from '../../db/usage-queries.js';
import { html, type Html } from './html.js';

/** Colour-blind-safe palette (Okabe–Ito), dark enough for 3:1 contrast on white. */
const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000'];

/**
 * Billable units per day, stacked by model, as an inline SVG drawn on the server (no script, CSP-clean).
 * A table with the same figures follows it for screen readers and for exact numbers.
 */
export function dailyChart(rows: readonly DailyUsageRow[], days: readonly string[]): Html {
  const models = [...new Set(rows.map((r) => r.model))];
  const perDay = new Map<string, Map<string, number>>();
  for (const r of rows) {
    const d = perDay.get(r.date) ?? new Map<string, number>();
    d.set(r.model, (d.get(r.model) ?? 0) + r.billable_units);
    perDay.set(r.date, d);
  }
  const max = Math.max(1, ...days.map((d) => [...(perDay.get(d)?.values() ?? [])].reduce((a, b) => a + b, 0)));
  const W = 720;
  const H = 200;
  const bar = W / days.length;
  const bars = days.map((day, i) => {
    let y = H;
    return models.map((m, j) => {
      const v = perDay.get(day)?.get(m) ?? 0;
      if (v === 0) return '';
      const h = Math.max(1, (v / max) * (H - 10));
      y -= h;
      return html`<rect x="${(i * bar + 1).toFixed(1)}" y="${y.toFixed(1)}" width="${(bar - 2).toFixed(1)}" height="${h.toFixed(1)}" fill="${PALETTE[j % PALETTE.length]}"><title>${day} ${m}: ${v} units</title></rect>`;
    });
  });
  const legend = models.map((m, j) => html`<li><svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" fill="${PALETTE[j % PALETTE.length]}"/></svg> ${m}</li>`);
  return html`
    <figure class="chart">
      <svg viewBox="0 0 ${W} ${H + 20}" role="img" aria-labelledby="chart-title">
        <title id="chart-title">Billable units per day by model, ${days[0]} to ${days[days.length - 1]} (largest day ${max} units)</title>
        <line x1="0" y1="${H}" x2="${W}" y2="${H}" stroke="#555"/>
        ${bars}
        <text x="0" y="${H + 15}" font-size="11" fill="#333">${days[0]}</text>
        <text x="${W}" y="${H + 15}" font-size="11" fill="#333" text-anchor="end">${days[days.length - 1]}</text>
      </svg>
      <figcaption>${models.length === 0 ? 'No usage in these days.' : html`<ul class="legend">${legend}</ul>`}</figcaption>
    </figure>`;
}

export function usageTable(rows: readonly DailyUsageRow[]): Html {
  if (rows.length === 0) return html`<p class="muted">No requests in this range.</p>`;
  return html`
    <table>
      <caption>Daily usage by model</caption>
      <thead><tr><th scope="col">Date</th><th scope="col">Model</th><th scope="col">Environment</th><th scope="col" class="num">Requests</th><th scope="col" class="num">Billable units</th><th scope="col" class="num">Cost (GBP)</th></tr></thead>
      <tbody>${rows.map((r) => html`<tr><td>${r.date}</td><td>${r.model}</td><td>${r.environment}</td><td class="num">${r.requests}</td><td class="num">${r.billable_units}</td><td class="num">£${formatGbp(r.environment === 'live' ? r.cost_units : 0n)}</td></tr>`)}</tbody>
    </table>`;
}

/** The UTC dates of the `count` days ending today. */
export function lastDays(nowMs: number, count: number): string[] {
  const today = nowMs - (nowMs % 86_400_000);
  return Array.from({ length: count }, (_, i) => new Date(today - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}
