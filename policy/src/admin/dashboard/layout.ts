import type { SessionView } from '../admin-auth.js';
import { html, type Html } from './html.js';

export interface PageContext {
  session: SessionView;
  nowMs: number;
}

/** Every signed-in page: skip link, navigation, the page, and a sign-out form carrying the CSRF token. */
export function layout(ctx: PageContext, title: string, body: Html, accountId?: string): Html {
  const s = ctx.session;
  const own = s.admin.account_id;
  const acct = accountId ?? own ?? undefined;
  return page(title, html`
    <header class="top">
      <a class="brand" href="/">Model gateway admin</a>
      <nav aria-label="Main">
        <ul>
          ${own === null ? html`<li><a href="/accounts">Accounts and plans</a></li>` : ''}
          ${acct === undefined ? '' : html`
            <li><a href="/accounts/${acct}">Overview</a></li>
            <li><a href="/accounts/${acct}/keys">Keys</a></li>
            <li><a href="/accounts/${acct}/hygiene">Hygiene</a></li>`}
          <li><a href="/audit${acct === undefined ? '' : `?account=${acct}`}">Audit log</a></li>
          <li><a href="/residency${acct === undefined ? '' : `?account=${acct}`}">Residency report</a></li>
          <li><a href="/admins">Administrators</a></li>
        </ul>
      </nav>
      <form method="post" action="${s.viaProvider ? '/auth/logout' : '/signout'}" class="signout">
        <input type="hidden" name="_csrf" value="${s.csrfToken}">
        <span class="who">${s.email} (${own === null ? 'platform' : 'account'} administrator)</span>
        <button type="submit">Sign out</button>
      </form>
    </header>
    <main id="main">
      <h1>${title}</h1>
      ${body}
    </main>`);
}

export function page(title: string, body: Html, head: Html | string = ''): Html {
  return html`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title} · Model gateway admin</title>
  <link rel="stylesheet" href="/assets/app.css">
  <script src="/assets/app.js" defer></script>
  ${head}
</head>
<body>
  <a class="skip" href="#main">Skip to content</a>
  ${body}
</body>
</html>`;
}

export function csrfField(ctx: PageContext): Html {
  return html`<input type="hidden" name="_csrf" value="${ctx.session.csrfToken}">`;
}

export function errorBox(message: string | undefined): Html {
  return message === undefined ? html`` : html`<div class="error" role="alert"><strong>Not done:</strong> ${message}</div>`;
}
