import { billingPeriod, formatGbp, rfc3339Utc } from '../billing.js';
import type { UsageReads } from '../db/gateway-store.js';
import type { EffectiveLimits } from '../db/records.js';

/** An account's usage this billing period, from the ledger's period totals: what `gatewayctl usage` prints. */
export async function accountUsage(accountId: string, limits: EffectiveLimits, usage: UsageReads, nowMs: number) {
  const period = billingPeriod(nowMs, limits.anchor_day);
  const [used, live, test] = await Promise.all([
    usage.usedUnits(accountId, period.startMs),
    usage.byModel(accountId, 'live', period.startMs),
    usage.byModel(accountId, 'test', period.startMs),
  ]);
  const rows = (env: 'live' | 'test', totals: typeof live) =>
    totals.map((m) => ({
      model: m.model,
      requests: m.requests,
      billable_units: m.billable_units,
      cost_gbp: Number(formatGbp(env === 'live' ? m.cost_units : 0n)),
    }));
  return {
    account_id: accountId,
    period: { start: rfc3339Utc(period.startMs), end: rfc3339Utc(period.endMs) },
    plan: limits.plan,
    tokens: {
      allowance: limits.allowance,
      used,
      remaining: Math.max(0, limits.allowance - used),
      percent_used: limits.allowance === 0 ? (used > 0 ? 100 : 0) : Math.round((used / limits.allowance) * 10_000) / 100,
      overage_allowed: limits.overage_allowed,
      overage_ceiling: limits.overage_ceiling,
    },
    rate_limit: { requests_per_minute: limits.requests_per_minute, concurrency: limits.concurrency },
    by_model: rows('live', live),
    test_by_model: rows('test', test),
  };
}
