import type { UsageSummary } from '@gateway/shared';
import { billingPeriod, formatGbp, rfc3339Utc } from './billing.js';
import type { UsageReads } from './db/gateway-store.js';
import type { CachedKey } from './key-cache.js';
import type { RateLimitPosition } from '@gateway/shared';

/**
 * GET /v1/usage for the calling key's account and environment: per-model rows from the ledger; `used`, when
 * given, is the allowance counter's figure (it counts a finished request at once, before its ledger row commits).
 */
export async function usageSummary(
  entry: CachedKey,
  ledger: UsageReads,
  window: RateLimitPosition | null,
  nowMs: number,
  counted?: number,
): Promise<UsageSummary> {
  const period = billingPeriod(nowMs, entry.limits.anchor_day);
  const env = entry.record.environment;
  const byModel = await ledger.byModel(entry.account.id, env, period.startMs);
  const used = env === 'live' ? (counted ?? (await ledger.usedUnits(entry.account.id, period.startMs))) : 0;
  const allowance = entry.limits.allowance;
  return {
    period: { start: rfc3339Utc(period.startMs), end: rfc3339Utc(period.endMs) },
    plan: entry.limits.plan,
    residency: entry.residency,
    privacy_mode: entry.record.privacy_mode,
    tokens: {
      allowance,
      used,
      remaining: Math.max(0, allowance - used),
      percent_used: allowance === 0 ? (used > 0 ? 100 : 0) : Math.round((used / allowance) * 10_000) / 100,
      overage_allowed: entry.limits.overage_allowed,
    },
    rate_limit: {
      requests_per_minute: window?.limit ?? entry.limits.requests_per_minute,
      remaining: window?.remaining ?? entry.limits.requests_per_minute,
      concurrency: entry.limits.concurrency,
    },
    by_model: byModel.map((m) => ({
      model: m.model,
      requests: m.requests,
      billable_units: m.billable_units,
      cost_gbp: formatGbp(env === 'live' ? m.cost_units : 0n),
    })),
  };
}
