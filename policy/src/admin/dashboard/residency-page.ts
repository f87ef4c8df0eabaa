import type { ResidencyReportRow } from '../../db/usage-queries.js';
import { html, number, type Html } from './html.js';
import { layout, type PageContext } from './layout.js';

export interface ResidencyView {
  rows: readonly ResidencyReportRow[];
  from: string;
  to: string;
  /** the account asked for; undefined: the caller's whole scope (every account for a platform administrator) */
  accountId: string | undefined;
}

/** The residency report (GET /admin/v1/residency-report) as a page: a range form, the table, the CSV link. */
export function residencyPage(ctx: PageContext, v: ResidencyView): Html {
  const query = new URLSearchParams({ from: v.from, to: v.to, ...(v.accountId === undefined ? {} : { account: v.accountId }) });
  const scope = v.accountId !== undefined ? html`account <code>${v.accountId}</code>` : ctx.session.admin.account_id === null ? 'every account' : 'your account';
  const cell = (s: string | null): Html | string => (s === null ? html`<span class="muted">not recorded</span>` : s);
  return layout(ctx, 'Residency report', html`
    <p class="muted">Live requests per UTC day and route, ${scope}: the tier, the region the call was made in, the regions it
      may be processed in, and whether those regions were verified against the platform or declared by the catalogue.
      Requests recorded before the gateway kept routes show as not recorded.</p>
    <form method="get" action="/residency" class="inline-form">
      ${v.accountId === undefined ? '' : html`<input type="hidden" name="account" value="${v.accountId}">`}
      <label>From <input type="date" name="from" value="${v.from}" required></label>
      <label>To <input type="date" name="to" value="${v.to}" required></label>
      <button type="submit">Show</button>
    </form>
    <p><a href="/residency.csv?${query.toString()}" download>Download as CSV</a></p>
    <table data-testid="residency-report">
      <thead><tr><th scope="col">Date</th><th scope="col">Tier</th><th scope="col">Call region</th><th scope="col">Processing regions</th>
        <th scope="col">Basis</th><th scope="col" class="num">Requests</th><th scope="col" class="num">Billable units</th><th scope="col">Platform</th></tr></thead>
      <tbody>${v.rows.length === 0
        ? html`<tr><td colspan="8" class="muted">No live requests in this range.</td></tr>`
        : v.rows.map((r) => html`<tr><td>${r.date}</td><td>${cell(r.tier)}</td><td>${cell(r.call_region)}</td>
            <td>${r.processing_regions === null ? cell(null) : r.processing_regions.join(', ')}</td><td>${cell(r.regions_basis)}</td>
            <td class="num">${number(r.requests)}</td><td class="num">${number(r.billable_units)}</td><td>${cell(r.platform)}</td></tr>`)}</tbody>
    </table>`, v.accountId ?? ctx.session.admin.account_id ?? undefined);
}
