import type { ModelCatalogue } from '../../catalogue.js';
import type { KeyRecord } from '../../db/records.js';
import type { DailyUsageRow } from '../../db/usage-queries.js';
import type { KeyRow } from '../admin-service.js';
import { keyState } from '../admin-service.js';
import { dailyChart, lastDays, usageTable } from './daily-chart.js';
import { exactTime, html, number, timeCell, type Html } from './html.js';
import { csrfField, errorBox, layout, type PageContext } from './layout.js';

const RESIDENCY_LABEL = { uk: 'UK only', eu: 'EU/EEA' } as const;

/** The regions a key's requests may run in: the catalogue's regions for its tier. */
function regions(catalogue: ModelCatalogue, k: KeyRecord): string {
  return catalogue.tiers[k.residency].regions.join(', ');
}

function residencyCell(catalogue: ModelCatalogue, k: KeyRecord): Html {
  return html`${RESIDENCY_LABEL[k.residency]} <span class="muted">(${regions(catalogue, k)})</span>`;
}

const list = (l: readonly string[] | null, none: string): Html => (l === null || l.length === 0 ? html`<span class="muted">${none}</span>` : html`${l.join(', ')}`);

export function keysPage(ctx: PageContext, accountId: string, accountName: string, rows: readonly KeyRow[], catalogue: ModelCatalogue, error?: string): Html {
  return layout(ctx, `${accountName}: keys`, html`
    ${errorBox(error)}
    <p><a class="button" href="#new-key">Create a key</a></p>
    <div class="scroll">
    <table class="keys">
      <thead><tr>
        <th scope="col">Name</th><th scope="col">Key</th><th scope="col">Env</th><th scope="col">Residency (regions)</th>
        <th scope="col">Privacy</th><th scope="col">Models</th><th scope="col">IPs</th><th scope="col">Expires</th>
        <th scope="col">State</th><th scope="col">Created</th><th scope="col">Last used</th>
        <th scope="col" class="num">Requests</th><th scope="col" class="num">Tokens</th>
      </tr></thead>
      <tbody>${rows.map(({ record: k, state, period }) => html`<tr>
        <td><a href="/keys/${k.id}">${k.name}</a></td><td><code>${k.display}</code></td><td>${k.environment}</td>
        <td>${residencyCell(catalogue, k)}</td><td>${k.privacy_mode}</td><td>${list(k.allowed_models, 'plan’s')}</td>
        <td>${list(k.allowed_ips, 'any')}</td><td>${timeCell(k.expires_at, ctx.nowMs, 'never')}</td>
        <td><span class="state state-${state}">${state}</span></td><td>${timeCell(k.created_at, ctx.nowMs)}</td>
        <td data-testid="last-used">${timeCell(k.last_used_at, ctx.nowMs)}</td>
        <td class="num">${number(period.requests)}</td><td class="num">${number(period.billable_units)}</td></tr>`)}</tbody>
    </table>
    </div>
    <p class="muted">Requests and tokens are this billing period's.</p>
    ${newKeyForm(ctx, accountId, catalogue)}`, accountId);
}

function newKeyForm(ctx: PageContext, accountId: string, catalogue: ModelCatalogue): Html {
  return html`
    <form method="post" action="/accounts/${accountId}/keys" class="inline-form" id="new-key">
      ${csrfField(ctx)}
      <h2>Create a key</h2>
      <label>Name <input name="name" required maxlength="100"></label>
      <label>Environment <select name="environment"><option value="live">live</option><option value="test">test</option></select></label>
      <label>Residency <select name="residency"><option value="uk">UK only</option><option value="eu">EU/EEA</option></select></label>
      <label>Privacy mode <select name="privacy_mode"><option>off</option><option>flag</option><option>redact</option><option>tokenise</option></select></label>
      <label>Allowed models (comma-separated; empty = the plan’s) <input name="allowed_models" list="model-ids"></label>
      <datalist id="model-ids">${catalogue.models.map((m) => html`<option value="${m.id}">`)}</datalist>
      <label>Allowed IPs or CIDRs (comma-separated; empty = any) <input name="allowed_ips"></label>
      <label>Expires (UTC, empty = never) <input name="expires_at" type="datetime-local"></label>
      <button type="submit">Create key</button>
    </form>`;
}

/** The one page that shows a secret: created or rotated. Nothing stores it; reloading does not show it again. */
export function secretPage(ctx: PageContext, title: string, record: KeyRecord, secret: string, extra: Html): Html {
  return layout(ctx, title, html`
    <div class="secret" role="status">
      <p><strong>Copy this key now. It is shown only once</strong>: the gateway keeps only its hash and cannot show it again.</p>
      <p><label for="secret-value">Key ${record.name} (${record.environment})</label></p>
      <div class="secret-row">
        <input id="secret-value" readonly value="${secret}" size="48" data-testid="secret">
        <button type="button" class="copy" data-copy="secret-value">Copy</button>
        <span class="copied" aria-live="polite"></span>
      </div>
    </div>
    ${extra}
    <p><a href="/keys/${record.id}">Key details</a> · <a href="/accounts/${record.account_id}/keys">All keys</a></p>`, record.account_id);
}

export function rotatedExtra(ctx: PageContext, oldKey: KeyRecord, fresh: KeyRecord, idle: boolean): Html {
  return html`
    <h2>Both keys are valid until you revoke the old one</h2>
    <table>
      <thead><tr><th scope="col">Key</th><th scope="col">Role</th><th scope="col">Last used</th><th scope="col">Activity</th><th scope="col">Action</th></tr></thead>
      <tbody>
        <tr><td><code>${fresh.display}</code></td><td>replacement</td><td>${timeCell(fresh.last_used_at, ctx.nowMs)}</td><td>new</td><td></td></tr>
        <tr><td><code>${oldKey.display}</code></td><td>old</td><td>${timeCell(oldKey.last_used_at, ctx.nowMs)}</td>
          <td><span class="state state-${idle ? 'idle' : 'busy'}">${idle ? 'idle' : 'active'}</span></td>
          <td><a href="/keys/${oldKey.id}/revoke">Revoke old key</a></td></tr>
      </tbody>
    </table>
    <p class="muted">Deploy the replacement, wait until the old key shows idle (no use for 15 minutes), then revoke it.</p>`;
}

export interface KeyDetail {
  key: KeyRecord;
  replacement: KeyRecord | undefined;
  previous: KeyRecord | undefined;
  idle: boolean;
  daily: DailyUsageRow[];
}

export function keyDetailPage(ctx: PageContext, d: KeyDetail, catalogue: ModelCatalogue): Html {
  const k = d.key;
  const state = keyState(k, ctx.nowMs);
  const days = lastDays(ctx.nowMs, 30);
  return layout(ctx, `Key ${k.name}`, html`
    <dl class="settings">
      <dt>Key</dt><dd><code>${k.display}</code> (<code>${k.id}</code>)</dd>
      <dt>State</dt><dd><span class="state state-${state}">${state}</span>${k.revoked_at === null ? '' : html` since ${exactTime(k.revoked_at)}`}</dd>
      <dt>Environment</dt><dd>${k.environment}</dd>
      <dt>Residency</dt><dd>${residencyCell(catalogue, k)}</dd>
      <dt>Privacy mode</dt><dd>${k.privacy_mode}</dd>
      <dt>Allowed models</dt><dd>${list(k.allowed_models, 'all the plan offers')}</dd>
      <dt>Allowed IPs</dt><dd>${list(k.allowed_ips, 'any address')}</dd>
      <dt>Own rate cap</dt><dd>${k.requests_per_minute === null ? 'the account’s' : `${k.requests_per_minute} requests per minute`}</dd>
      <dt>Expires</dt><dd>${timeCell(k.expires_at, ctx.nowMs, 'never')}</dd>
      <dt>Created</dt><dd>${timeCell(k.created_at, ctx.nowMs)}</dd>
      <dt>Last used</dt><dd data-testid="last-used">${timeCell(k.last_used_at, ctx.nowMs)} ${state === 'active' ? html`<span class="state state-${d.idle ? 'idle' : 'busy'}">${d.idle ? 'idle' : 'active'}</span>` : ''}</dd>
      ${d.previous === undefined ? '' : html`<dt>Replaces</dt><dd><a href="/keys/${d.previous.id}">${d.previous.display}</a></dd>`}
      ${d.replacement === undefined ? '' : html`<dt>Replaced by</dt><dd><a href="/keys/${d.replacement.id}">${d.replacement.display}</a></dd>`}
    </dl>
    ${state === 'active' ? html`
      <div class="actions">
        <form method="post" action="/keys/${k.id}/rotate">${csrfField(ctx)}<button type="submit">Rotate (create a replacement)</button></form>
        <a class="button danger" href="/keys/${k.id}/revoke">Revoke…</a>
      </div>` : ''}
    <section aria-labelledby="k-daily-h">
      <h2 id="k-daily-h">Last 30 days</h2>
      ${dailyChart(d.daily, days)}
      ${usageTable(d.daily)}
    </section>`, k.account_id);
}

export function revokeConfirmPage(ctx: PageContext, k: KeyRecord, idle: boolean): Html {
  return layout(ctx, `Revoke key ${k.name}?`, html`
    <div class="warning" role="alert">
      <p>Revoking <code>${k.display}</code> refuses it at once: requests in flight are cut within a second. This cannot be undone.</p>
      <p>Last used: ${timeCell(k.last_used_at, ctx.nowMs)} (${idle ? 'idle' : 'still in use'}).</p>
    </div>
    <form method="post" action="/keys/${k.id}/revoke" class="actions">
      ${csrfField(ctx)}
      <button type="submit" class="danger">Revoke this key</button>
      <a href="/keys/${k.id}">Cancel</a>
    </form>`, k.account_id);
}

export function hygienePage(ctx: PageContext, accountId: string, items: ReadonlyArray<{ record: KeyRecord; noExpiry: boolean; idle: boolean; noIpRestriction: boolean }>): Html {
  return layout(ctx, 'Key hygiene', html`
    <p class="muted">Live keys with no expiry, unused for over 30 days, or usable from any address.</p>
    ${items.length === 0 ? html`<p>No live key needs attention.</p>` : html`
    <table>
      <thead><tr><th scope="col">Key</th><th scope="col">Name</th><th scope="col">No expiry</th><th scope="col">Idle &gt; 30 days</th><th scope="col">No IP restriction</th><th scope="col">Last used</th></tr></thead>
      <tbody>${items.map((h) => html`<tr><td><a href="/keys/${h.record.id}"><code>${h.record.display}</code></a></td><td>${h.record.name}</td>
        <td>${h.noExpiry ? '⚠ yes' : 'no'}</td><td>${h.idle ? '⚠ yes' : 'no'}</td><td>${h.noIpRestriction ? '⚠ yes' : 'no'}</td>
        <td>${timeCell(h.record.last_used_at, ctx.nowMs)}</td></tr>`)}</tbody>
    </table>`}`, accountId);
}
