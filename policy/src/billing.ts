import type { Pricing, TokenUsage } from '@gateway/shared';

/**
 * Billable units and cost, in integers so nothing drifts.
 * Prices have at most two decimals (the catalogue enforces it), so a price in GBP per million tokens is an integer
 * number of "price units" of 0.01 GBP per million tokens, and tokens × price units is cost in 1e-8 GBP.
 */
export const COST_UNITS_PER_GBP = 100_000_000;

export function billableUnits(u: TokenUsage): number {
  // ceil(1.25 × n) and ceil(0.1 × n) in integers: ceil(5n/4), ceil(n/10).
  return (
    u.input_tokens +
    u.output_tokens +
    Math.ceil((u.cache_creation_input_tokens * 5) / 4) +
    Math.ceil(u.cache_read_input_tokens / 10)
  );
}

export function priceUnits(price: string): number {
  const [whole, frac = ''] = price.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

/** Cost in 1e-8 GBP. */
export function costUnits(u: TokenUsage, pricing: Pricing): number {
  return (
    u.input_tokens * priceUnits(pricing.input) +
    u.output_tokens * priceUnits(pricing.output) +
    u.cache_creation_input_tokens * priceUnits(pricing.cache_write) +
    u.cache_read_input_tokens * priceUnits(pricing.cache_read)
  );
}

/** Cost units → GBP as a decimal string rounded half-up to 6 places. */
export function formatGbp(units: number | bigint): string {
  const u = BigInt(units);
  // 1e-8 → 1e-6: divide by 100 rounding half up.
  const micro = (u + 50n) / 100n;
  const whole = micro / 1_000_000n;
  const frac = (micro % 1_000_000n).toString().padStart(6, '0');
  return `${whole}.${frac}`;
}

export interface BillingPeriod {
  /** ms since the epoch, inclusive */
  startMs: number;
  /** ms since the epoch, exclusive */
  endMs: number;
  /** stable name of the period, for counter keys */
  id: string;
}

/**
 * The billing period containing `nowMs`: the calendar month in UTC, or months starting on `anchorDay`
 * (1–28) when the account sets one. Each decision and report asks for it, so the last period per anchor day is
 * kept (frozen: every caller shares it) and reused while `nowMs` falls inside it: 0.02 µs instead of ~1 µs.
 */
export function billingPeriod(nowMs: number, anchorDay: number | null = null): BillingPeriod {
  const day = anchorDay ?? 1;
  const last = lastPeriod[day];
  if (last !== undefined && nowMs >= last.startMs && nowMs < last.endMs) return last;
  const period = computePeriod(nowMs, day);
  lastPeriod[day] = period;
  return period;
}

const lastPeriod: Array<Readonly<BillingPeriod> | undefined> = [];

function computePeriod(nowMs: number, day: number): Readonly<BillingPeriod> {
  const now = new Date(nowMs);
  let y = now.getUTCFullYear();
  let m = now.getUTCMonth();
  if (now.getUTCDate() < day) {
    m -= 1;
    if (m < 0) {
      m = 11;
      y -= 1;
    }
  }
  const startMs = Date.UTC(y, m, day);
  const endMs = Date.UTC(y, m + 1, day);
  return Object.freeze({ startMs, endMs, id: new Date(startMs).toISOString().slice(0, 10) });
}

/** RFC 3339 with a numeric offset, as the usage report shows periods (`2026-11-01T00:00:00+00:00`). */
export function rfc3339Utc(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}
