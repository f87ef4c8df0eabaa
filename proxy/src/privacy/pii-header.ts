import { PII_TYPES } from './pii-types.js';
import type { PiiType } from './pii-types.js';

/** `X-Gateway-PII` value: "EMAIL=2,PHONE=1" in PII_TYPES order, zero counts omitted, "" when none. */
export function formatPiiHeader(counts: Partial<Record<PiiType, number>>): string {
  const parts: string[] = [];
  for (const type of PII_TYPES) {
    const n = counts[type];
    if (n !== undefined && n > 0) parts.push(`${type}=${n}`);
  }
  return parts.join(',');
}
