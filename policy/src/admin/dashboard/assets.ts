/** The dashboard's one stylesheet and one script, served from /assets (the CSP forbids inline ones). */
export const APP_CSS = `
:root { color-scheme: light; --fg: #1a1a1a; --muted: #555; --line: #c8c8c8; --accent: #0b57a4; --bad: #a4141b; --ok: #146c2e; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: #fff; }
a { color: var(--accent); } a:focus, button:focus, input:focus, select:focus { outline: 3px solid #f5b400; outline-offset: 2px; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 8px; top: 8px; background: #fff; padding: 4px; }
header.top { display: flex; flex-wrap: wrap; gap: 16px; align-items: center; padding: 10px 20px; border-bottom: 2px solid var(--line); background: #f4f6f8; }
header .brand { font-weight: 700; text-decoration: none; color: var(--fg); }
nav ul { display: flex; gap: 14px; list-style: none; margin: 0; padding: 0; }
.signout { margin-left: auto; display: flex; gap: 8px; align-items: center; } .who { color: var(--muted); }
main { padding: 16px 20px 40px; max-width: 1400px; }
h1 { font-size: 1.5rem; margin: 0.2em 0 0.6em; } h2 { font-size: 1.15rem; margin-top: 1.4em; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; font-size: 14px; }
th, td { border-bottom: 1px solid var(--line); padding: 5px 8px; text-align: left; vertical-align: top; }
th { background: #eef1f4; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding: 4px 0; }
.scroll { overflow-x: auto; }
.muted, .exact { color: var(--muted); } .exact { font-size: 12px; display: block; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; } code.detail { white-space: pre-wrap; word-break: break-all; }
.inline-form { display: grid; grid-template-columns: repeat(auto-fill, minmax(240px, 1fr)); gap: 10px 16px; align-items: end; border: 1px solid var(--line); padding: 12px; margin: 16px 0; border-radius: 6px; }
.inline-form h2, .inline-form h3 { grid-column: 1 / -1; margin: 0; }
label { display: flex; flex-direction: column; gap: 3px; font-weight: 600; font-size: 14px; }
input, select { font: inherit; padding: 5px 7px; border: 1px solid #767676; border-radius: 4px; font-weight: 400; }
button, .button { font: inherit; padding: 6px 14px; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; display: inline-block; }
button.danger, .button.danger { background: var(--bad); border-color: var(--bad); color: #fff; }
.actions { display: flex; gap: 12px; align-items: center; margin: 14px 0; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 14px; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 4px 14px 10px; }
.card h2 { margin-top: 0.6em; } .big { font-size: 1.6rem; font-weight: 700; margin: 0.2em 0; }
meter { width: 100%; height: 22px; }
.state { padding: 1px 7px; border-radius: 10px; font-size: 13px; border: 1px solid; }
.state-active, .state-busy { color: var(--ok); } .state-revoked, .state-expired { color: var(--bad); } .state-idle { color: var(--muted); }
.error, .warning { border: 2px solid var(--bad); background: #fdecec; padding: 8px 12px; border-radius: 6px; margin: 10px 0; }
.secret { border: 2px solid #8a6d00; background: #fff8db; padding: 8px 14px; border-radius: 6px; }
.secret-row { display: flex; gap: 8px; align-items: center; } .secret-row input { font-family: ui-monospace, monospace; }
dl.settings { display: grid; grid-template-columns: max-content 1fr; gap: 6px 18px; } dl.settings dt { font-weight: 600; } dl.settings dd { margin: 0; }
figure.chart { margin: 8px 0; max-width: 760px; } figure.chart > svg { width: 100%; height: auto; border: 1px solid var(--line); }
table.keys code { white-space: nowrap; }
ul.legend { display: flex; flex-wrap: wrap; gap: 12px; list-style: none; padding: 0; }
.signin { max-width: 360px; margin: 60px auto; display: flex; flex-direction: column; gap: 12px; }
`;

export const APP_JS = `
document.addEventListener('click', function (e) {
  var b = e.target.closest && e.target.closest('button[data-copy]');
  if (!b) return;
  var input = document.getElementById(b.getAttribute('data-copy'));
  var note = b.parentNode.querySelector('.copied');
  function done(ok) { if (note) note.textContent = ok ? 'Copied.' : 'Select the key and copy it.'; }
  input.select();
  if (navigator.clipboard) navigator.clipboard.writeText(input.value).then(function () { done(true); }, function () { done(false); });
  else done(document.execCommand && document.execCommand('copy'));
});
`;
