import type { PiiType } from './pii-types.js';

// The request-scoped mapping of tokenise mode: each distinct (type, value) gets `[<TYPE>_<n>]`, n counting
// per type from 1 across the whole request. Names already present in the request's own text are skipped,
// so a user who literally writes "[EMAIL_1]" never has it "restored" into someone's address.

const TOKEN_NAME_RE = /\[[A-Z][A-Z0-9_]{0,40}\]/g;

/** Adds every bracketed upper-case name in `text` (anything that could look like a token) to `into`. */
export function collectTokenNames(text: string, into: Set<string>): void {
  if (text.indexOf('[') === -1) return;
  TOKEN_NAME_RE.lastIndex = 0;
  for (let m = TOKEN_NAME_RE.exec(text); m !== null; m = TOKEN_NAME_RE.exec(text)) into.add(m[0]);
}

export class TokenVault {
  private readonly tokenByValue = new Map<string, string>();
  private readonly valueByToken = new Map<string, string>();
  private readonly lastNumber = new Map<PiiType, number>();

  constructor(private readonly reserved: ReadonlySet<string>) {}

  tokenFor(type: PiiType, value: string): string {
    const key = `${type}\u0000${value}`;
    const existing = this.tokenByValue.get(key);
    if (existing !== undefined) return existing;
    let n = this.lastNumber.get(type) ?? 0;
    let token: string;
    do {
      n++;
      token = `[${type}_${n}]`;
    } while (this.reserved.has(token));
    this.lastNumber.set(type, n);
    this.tokenByValue.set(key, token);
    this.valueByToken.set(token, value);
    return token;
  }

  /** token → original value. */
  get tokens(): ReadonlyMap<string, string> {
    return this.valueByToken;
  }
}
