import { collectTextSlots, type TextSlot } from './body-texts.js';
import { detectAll } from './detect.js';
import type { Finding, PiiType } from './pii-types.js';
import { createTokenRestorer } from './token-restorer.js';
import type { TokenRestorer } from './token-restorer.js';
import { collectTokenNames, TokenVault } from './token-vault.js';

export type PrivacyMode = 'off' | 'flag' | 'redact' | 'tokenise';

export interface PrivacyResult {
  /** The body to forward: the input, changed in place for redact and tokenise. */
  body: Record<string, unknown>;
  /** Findings per type, every occurrence counted. */
  counts: Partial<Record<PiiType, number>>;
  /** Tokenise only, and only when something was tokenised. */
  restorer: TokenRestorer | null;
}

function replaceFindings(text: string, findings: readonly Finding[], replacement: (f: Finding) => string): string {
  let out = '';
  let from = 0;
  for (const f of findings) {
    out += text.slice(from, f.start) + replacement(f);
    from = f.end;
  }
  return out + text.slice(from);
}

/**
 * Applies a key's privacy mode to every text of a Messages request body (CONTRACT.md "Privacy modes").
 * Detected values are never logged; in tokenise mode they live only in the returned restorer.
 */
export function applyPrivacy(body: Record<string, unknown>, mode: PrivacyMode): PrivacyResult {
  if (mode === 'off') return { body, counts: {}, restorer: null };
  const slots = collectTextSlots(body);
  return applyFindings(body, mode, slots, detectAll(slots.map((slot) => slot.text)));
}

/** Finds personal data in many texts: in this thread, or (for large requests) in a worker pool. */
export type DetectMany = (texts: string[]) => Promise<Finding[][]>;

/**
 * applyPrivacy with detection handed to `detectMany`, so a large request is scanned off the event loop.
 * The texts are read, and replaced, in this thread.
 */
export async function applyPrivacyWith(body: Record<string, unknown>, mode: PrivacyMode, detectMany: DetectMany): Promise<PrivacyResult> {
  if (mode === 'off') return { body, counts: {}, restorer: null };
  const slots = collectTextSlots(body);
  return applyFindings(body, mode, slots, await detectMany(slots.map((s) => s.text)));
}

/** The total length of the texts a privacy mode would scan. */
export function privacyTextLength(body: Record<string, unknown>): number {
  let n = 0;
  for (const slot of collectTextSlots(body)) n += slot.text.length;
  return n;
}

function applyFindings(
  body: Record<string, unknown>,
  mode: Exclude<PrivacyMode, 'off'>,
  slots: TextSlot[],
  findings: Finding[][],
): PrivacyResult {
  const counts: Partial<Record<PiiType, number>> = {};
  for (const list of findings) for (const f of list) counts[f.type] = (counts[f.type] ?? 0) + 1;
  if (mode === 'flag') return { body, counts, restorer: null };

  if (mode === 'redact') {
    slots.forEach((slot, i) => {
      const list = findings[i] ?? [];
      if (list.length > 0) slot.set(replaceFindings(slot.text, list, (f) => `[REDACTED_${f.type}]`));
    });
    return { body, counts, restorer: null };
  }

  // Tokenise: reserve every token-like name the request already contains before issuing any.
  const reserved = new Set<string>();
  for (const slot of slots) collectTokenNames(slot.text, reserved);
  const vault = new TokenVault(reserved);
  slots.forEach((slot, i) => {
    const list = findings[i] ?? [];
    if (list.length > 0) slot.set(replaceFindings(slot.text, list, (f) => vault.tokenFor(f.type, f.value)));
  });
  const restorer = vault.tokens.size > 0 ? createTokenRestorer(vault.tokens) : null;
  return { body, counts, restorer };
}
