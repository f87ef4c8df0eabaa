import type { Account, Plan } from '../../db/records.js';
import type { AuditEntry } from '../../db/audit-log.js';
import type { DailyUsageRow } from '../../db/usage-queries.js';
import type { accountUsage } from '../account-usage.js';
import { dailyChart, lastDays, usageTable } from './daily-chart.js';
import { exactTime, html, number, timeCell, type Html } from './html.js';
import { csrfField, errorBox, layout, type PageContext } from './layout.js';

export function accountsPage(ctx: PageContext, accounts: readonly Account[], plans: readonly Plan[], error?: string): Html {
  const planOptions = plans.map((p) => html`<option value="${p.name}">${p.name}</option>`);
  return layout(ctx, 'Accounts and plans', html`
    ${errorBox(error)}
    <section aria-labelledby="accounts-h">
      <h2 id="accounts-h">Accounts</h2>
      <table>
        <thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Plan</th><th scope="col">Created</th></tr></thead>
        <tbody>${accounts.map((a) => html`<tr><td><a href="/accounts/${a.id}">${a.name}</a></td><td><code>${a.id}</code></td><td>${a.plan}</td><td>${timeCell(a.created_at, ctx.nowMs)}</td></tr>`)}</tbody>
      </table>
      <form method="post" action="/accounts" class="inline-form">
        ${csrfField(ctx)}
        <h3>New account</h3>
        <label>Name <input name="name" required maxlength="200"></label>
        <label>Plan <select name="plan" required>${planOptions}</select></label>
        <button type="submit">Create account</button>
      </form>
    </section>
    <section aria-labelledby="plans-h">
      <h2 id="plans-h">Plans</h2>
      <table>
        <thead><tr><th scope="col">Name</th><th scope="col">Residency</th><th scope="col" class="num">Requests/min</th><th scope="col" class="num">Concurrency</th><th scope="col" class="num">Allowance</th><th scope="col">Overage</th><th scope="col">Models</th></tr></thead>
        <tbody>${plans.map((p) => html`<tr><td>${p.name}</td><td>${p.residency}</td><td class="num">${number(p.requests_per_minute)}</td><td class="num">${p.concurrency}</td><td class="num">${number(p.allowance)}</td><td>${p.overage_allowed ? `yes, ceiling ${number(p.overage_ceiling)}` : 'no'}</td><td>${p.models?.join(', ') ?? 'all'}</td></tr>`)}</tbody>
      </table>
      <form method="post" action="/plans" class="inline-form">
        ${csrfField(ctx)}
        <h3>New plan</h3>
        <label>Name <input name="name" required pattern="[A-Za-z0-9][A-Za-z0-9_.\\-]*"></label>
        <label>Residency <select name="residency"><option value="eu">eu (EU/EEA and UK)</option><option value="uk">uk (UK only)</option></select></label>
        <label>Requests per minute <input name="requests_per_minute" type="number" min="1" required></label>
        <label>Concurrency <input name="concurrency" type="number" min="1" required></label>
        <label>Allowance (tokens per period) <input name="allowance" type="number" min="0" required></label>
        <label>Overage <select name="overage_allowed"><option value="false">not allowed</option><option value="true">allowed</option></select></label>
        <label>Overage ceiling <input name="overage_ceiling" type="number" min="0" value="0"></label>
        <label>Models (comma-separated, empty = all) <input name="models"></label>
        <button type="submit">Create plan</button>
      </form>
    </section>`);
}

export interface OverviewData {
  account: Account;
  usage: Awaited<ReturnType<typeof accountUsage>>;
  daily: DailyUsageRow[];
  rate: { limit: number; remaining: number; resetUnix: number; concurrency: number; inFlight: number } | null;
  keyCount: number;
}

export function overviewPage(ctx: PageContext, d: OverviewData): Html {
  const u = d.usage;
  const spend = u.by_model.reduce((a, m) => a + m.cost_gbp, 0);
  const days = lastDays(ctx.nowMs, 30);
  return layout(ctx, `${d.account.name}: overview`, html`
    <p class="muted">Account <code>${d.account.id}</code> on plan <strong>${u.plan}</strong> · ${d.keyCount} keys</p>
    <div class="cards">
      <section class="card" aria-labelledby="period-h">
        <h2 id="period-h">Billing period</h2>
        <p>${exactTime(u.period.start.replace('+00:00', 'Z'))} to ${exactTime(u.period.end.replace('+00:00', 'Z'))}</p>
      </section>
      <section class="card" aria-labelledby="allow-h">
        <h2 id="allow-h">Allowance</h2>
        <label for="gauge">${number(u.tokens.used)} of ${number(u.tokens.allowance)} tokens used (${u.tokens.percent_used}%)</label>
        <meter id="gauge" min="0" max="${Math.max(1, u.tokens.allowance)}" low="${Math.floor(u.tokens.allowance * 0.75)}" high="${Math.floor(u.tokens.allowance * 0.9)}" optimum="0" value="${u.tokens.used}">${u.tokens.percent_used}%</meter>
        <p>${number(u.tokens.remaining)} remaining${u.tokens.overage_allowed ? `; overage allowed up to ${number(u.tokens.overage_ceiling)} more` : '; no overage'}</p>
      </section>
      <section class="card" aria-labelledby="spend-h">
        <h2 id="spend-h">Spend this period</h2>
        <p class="big" data-testid="spend">£${spend.toFixed(6)}</p>
        <p class="muted">${u.by_model.reduce((a, m) => a + m.requests, 0)} live requests; ${u.test_by_model.reduce((a, m) => a + m.requests, 0)} test requests</p>
      </section>
      <section class="card" aria-labelledby="rate-h">
        <h2 id="rate-h">Rate limit now</h2>
        ${d.rate === null
          ? html`<p>${u.rate_limit.requests_per_minute} requests per minute, ${u.rate_limit.concurrency} at once (position unavailable)</p>`
          : html`<p>${d.rate.limit - d.rate.remaining} of ${d.rate.limit} requests used this minute (resets ${new Date(d.rate.resetUnix * 1000).toISOString().slice(11, 19)} UTC)</p>
                 <p>${d.rate.inFlight} of ${d.rate.concurrency} concurrent requests in flight</p>`}
      </section>
    </div>
    <section aria-labelledby="daily-h">
      <h2 id="daily-h">Last 30 days by model</h2>
      ${dailyChart(d.daily, days)}
      <p><a href="/accounts/${d.account.id}/usage.csv?from=${days[0]}&to=${days[days.length - 1]}" download>Download usage as CSV</a></p>
      ${usageTable(d.daily)}
    </section>`, d.account.id);
}

export function auditPage(ctx: PageContext, entries: readonly AuditEntry[], accountId: string | undefined): Html {
  return layout(ctx, 'Audit log', html`
    <p class="muted">Every change from the CLI, the admin API and this dashboard, newest first${accountId === undefined ? '' : html` (account <code>${accountId}</code>)`}.</p>
    <table>
      <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">From</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Details</th></tr></thead>
      <tbody>${entries.map((e) => html`<tr><td>${timeCell(e.at, ctx.nowMs)}</td><td>${e.actor_kind}: ${e.actor}</td><td>${e.address ?? 'CLI'}</td><td>${e.action}</td><td><code>${e.target_id}</code></td><td><code class="detail">${JSON.stringify(e.detail)}</code></td></tr>`)}</tbody>
    </table>`, accountId);
}
