import type { Environment, PrivacyMode, Residency } from '@gateway/shared';

export interface Plan {
  name: string;
  residency: Residency;
  requests_per_minute: number;
  concurrency: number;
  allowance: number;
  overage_allowed: boolean;
  overage_ceiling: number;
  models: string[] | null;
}

/** Per-account overrides of the plan's numbers; null = the plan's value. */
export interface AccountOverrides {
  requests_per_minute: number | null;
  concurrency: number | null;
  allowance: number | null;
  overage_allowed: boolean | null;
  overage_ceiling: number | null;
}

export interface Account {
  id: string;
  name: string;
  plan: string;
  overrides: AccountOverrides;
  anchor_day: number | null;
  created_at: string;
}

export interface KeyRecord {
  id: string;
  account_id: string;
  name: string;
  key_hash: string;
  display: string;
  environment: Environment;
  residency: Residency;
  privacy_mode: PrivacyMode;
  allowed_models: string[] | null;
  allowed_ips: string[] | null;
  expires_at: string | null;
  requests_per_minute: number | null;
  rotated_from: string | null;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

/** The numbers that bind an account: its overrides over its plan. */
export interface EffectiveLimits {
  plan: string;
  residency: Residency;
  requests_per_minute: number;
  concurrency: number;
  allowance: number;
  overage_allowed: boolean;
  overage_ceiling: number;
  models: string[] | null;
  anchor_day: number | null;
}

export function effectiveLimits(plan: Plan, account: Account): EffectiveLimits {
  const o = account.overrides;
  return {
    plan: plan.name,
    residency: plan.residency,
    requests_per_minute: o.requests_per_minute ?? plan.requests_per_minute,
    concurrency: o.concurrency ?? plan.concurrency,
    allowance: o.allowance ?? plan.allowance,
    overage_allowed: o.overage_allowed ?? plan.overage_allowed,
    overage_ceiling: o.overage_ceiling ?? plan.overage_ceiling,
    models: plan.models,
    anchor_day: account.anchor_day,
  };
}
