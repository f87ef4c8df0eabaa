// Restores tokens in model output. A token is `[` + upper-case name + `]`; only names this request issued
// are replaced, anything else bracketed is left as written. In 'json' kind the text is partial JSON and
// the token sits inside a string literal, so the original is JSON-escaped before it is put back.

export type RestoreKind = 'text' | 'json';

const TOKEN_RE = /\[[A-Z][A-Z0-9_]{0,40}\]/g;

export class TokenTable {
  /** Longest token length: a held tail is never longer. */
  readonly maxLength: number;
  private readonly prefixes = new Set<string>();
  private readonly jsonValues = new Map<string, string>();

  constructor(private readonly values: ReadonlyMap<string, string>) {
    let max = 0;
    for (const [token, value] of values) {
      if (token.length > max) max = token.length;
      for (let i = 1; i < token.length; i++) this.prefixes.add(token.slice(0, i));
      this.jsonValues.set(token, JSON.stringify(value).slice(1, -1));
    }
    this.maxLength = max;
  }

  /** Whether `tail` is a proper prefix of an issued token ("[EMA" for "[EMAIL_1]"). */
  isProperPrefix(tail: string): boolean {
    return this.prefixes.has(tail);
  }

  restore(text: string, kind: RestoreKind): string {
    if (text.indexOf('[') === -1) return text;
    const table = kind === 'json' ? this.jsonValues : this.values;
    TOKEN_RE.lastIndex = 0;
    return text.replace(TOKEN_RE, (token) => table.get(token) ?? token);
  }
}
