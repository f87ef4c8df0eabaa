import { PII_TYPES, type PiiType } from '@gateway/privacy';

/** `X-Gateway-PII` value: "EMAIL=2,PHONE=1" in PII_TYPES order, zero counts omitted, "" when none. */
export function formatPiiHeader(counts: Partial<Record<PiiType, number>>): string {
  const parts: string[] = [];
  for (const type of PII_TYPES) {
    const n = counts[type];
    if (n !== undefined && n > 0) parts.push(`${type}=${n}`);
  }
  return parts.join(',');
}
