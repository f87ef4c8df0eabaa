import type { Administrator, AdminToken } from '../../db/administrators.js';
import { html, timeCell, type Html } from './html.js';
import { csrfField, errorBox, layout, type PageContext } from './layout.js';

/** Administrators the caller may see, and their API tokens (display forms only), with a form for a new token. */
export function administratorsPage(
  ctx: PageContext,
  admins: readonly Administrator[],
  tokens: ReadonlyArray<AdminToken & { email: string }>,
  created?: { token: string; record: AdminToken },
  error?: string,
  expiries: ReadonlyMap<string, number> = new Map(),
): Html {
  return layout(ctx, 'Administrators and API tokens', html`
    ${errorBox(error)}
    ${created === undefined ? '' : html`
      <div class="secret" role="status">
        <p><strong>Copy this API token now. It is shown only once</strong>: only its hash is kept.</p>
        <p><label for="secret-value">Token ${created.record.name}</label></p>
        <div class="secret-row">
          <input id="secret-value" readonly value="${created.token}" size="52" data-testid="secret">
          <button type="button" class="copy" data-copy="secret-value">Copy</button>
          <span class="copied" aria-live="polite"></span>
        </div>
      </div>`}
    <section aria-labelledby="admins-h">
      <h2 id="admins-h">Administrators</h2>
      <table>
        <thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Created</th></tr></thead>
        <tbody>${admins.map((a) => html`<tr><td>${a.email}</td><td>${a.account_id === null ? 'platform' : html`account <code>${a.account_id}</code>`}</td><td>${timeCell(a.created_at, ctx.nowMs)}</td></tr>`)}</tbody>
      </table>
      <p class="muted">Add administrators with <code>gatewayctl admins create --email E [--account ID] --password-stdin</code>.</p>
    </section>
    <section aria-labelledby="tokens-h">
      <h2 id="tokens-h">Admin API tokens</h2>
      <table>
        <thead><tr><th scope="col">Token</th><th scope="col">Name</th><th scope="col">Administrator</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">State</th><th scope="col">Action</th></tr></thead>
        <tbody>${tokens.map((t) => html`<tr><td><code>${t.display}</code></td><td>${t.name}</td><td>${t.email}</td>
          <td>${timeCell(t.created_at, ctx.nowMs)}</td><td>${timeCell(t.last_used_at, ctx.nowMs)}</td>
          <td><span class="state state-${t.revoked_at === null ? 'active' : 'revoked'}">${t.revoked_at === null ? 'active' : 'revoked'}</span>${expiries.has(t.id) ? html` <span class="muted">until ${new Date(expiries.get(t.id) as number).toISOString().slice(0, 16).replace('T', ' ')} UTC</span>` : ''}</td>
          <td>${t.revoked_at === null ? html`<form method="post" action="/admins/tokens/${t.id}/revoke">${csrfField(ctx)}<button type="submit" class="danger">Revoke</button></form>` : ''}
          ${t.revoked_at === null && expiries.has(t.id) && t.admin_id === ctx.session.admin.id ? html`<form method="post" action="/admins/tokens/${t.id}/renew">${csrfField(ctx)}<button type="submit">Renew</button></form>` : ''}</td></tr>`)}</tbody>
      </table>
      <form method="post" action="/admins/tokens" class="inline-form">
        ${csrfField(ctx)}
        <h3>New API token for you (${ctx.session.email})</h3>
        <label>Name <input name="name" required maxlength="100"></label>
        <button type="submit">Create token</button>
      </form>
    </section>`);
}
