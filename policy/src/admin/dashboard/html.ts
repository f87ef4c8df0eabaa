/**
 * A tiny HTML template: every interpolated value is escaped unless it is already Html (built by this same tag),
 * so no caller can forget to escape a name, an email or a model id.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"'`]/g, (c) => ESCAPES[c] as string);
}

function render(v: unknown): string {
  if (v instanceof Html) return v.value;
  if (v === null || v === undefined || v === false) return '';
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] as string;
  for (let i = 0; i < values.length; i += 1) out += render(values[i]) + (strings[i + 1] as string);
  return new Html(out);
}

/** "3 min ago", for the relative half of a time shown relative and exact. */
export function relativeTime(iso: string, nowMs: number): string {
  const s = Math.round((nowMs - Date.parse(iso)) / 1000);
  const future = s < 0;
  const a = Math.abs(s);
  const text = a < 60 ? `${a} s` : a < 3600 ? `${Math.floor(a / 60)} min` : a < 86_400 ? `${Math.floor(a / 3600)} h` : `${Math.floor(a / 86_400)} days`;
  return future ? `in ${text}` : a < 5 ? 'just now' : `${text} ago`;
}

export function exactTime(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC').replace(/Z$/, ' UTC');
}

/** A time as a person reads it (relative) with the exact UTC time beside it; "never" for null. */
export function timeCell(iso: string | null, nowMs: number, never = 'never'): Html {
  if (iso === null) return html`<span class="muted">${never}</span>`;
  return html`<time datetime="${iso}">${relativeTime(iso, nowMs)}</time> <span class="exact">${exactTime(iso)}</span>`;
}

export const number = (n: number): string => n.toLocaleString('en-GB');
