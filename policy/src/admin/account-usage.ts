import { billingPeriod, formatGbp, rfc3339Utc } from '../billing.js';
import type { UsageLedger } from '../db/usage-ledger.js';
import type { EffectiveLimits } from '../db/records.js';

/** An account's usage this billing period, from the ledger: what `gatewayctl usage` prints. */
export function accountUsage(accountId: string, limits: EffectiveLimits, ledger: UsageLedger, nowMs: number) {
  const period = billingPeriod(nowMs, limits.anchor_day);
  const used = ledger.usedUnits(accountId, period.startMs);
  const rows = (env: 'live' | 'test') =>
    ledger.byModel(accountId, env, period.startMs).map((m) => ({
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
    by_model: rows('live'),
    test_by_model: rows('test'),
  };
}
