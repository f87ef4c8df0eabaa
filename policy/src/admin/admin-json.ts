import { formatGbp } from '../billing.js';
import type { Administrator } from '../db/administrators.js';
import type { Account, KeyRecord, Plan } from '../db/records.js';
import type { DailyUsageRow } from '../db/usage-queries.js';
import { keyState } from './admin-service.js';

/** The JSON shapes of `gatewayctl --json`; the admin API answers with the same fields. */
export function planJson(p: Plan) {
  return {
    name: p.name,
    residency: p.residency,
    requests_per_minute: p.requests_per_minute,
    concurrency: p.concurrency,
    allowance: p.allowance,
    overage_allowed: p.overage_allowed,
    overage_ceiling: p.overage_ceiling,
    models: p.models,
  };
}

export function accountJson(a: Account) {
  return { id: a.id, name: a.name, plan: a.plan, overrides: a.overrides, anchor_day: a.anchor_day, created_at: a.created_at };
}

export function keyJson(k: KeyRecord, now: number) {
  return {
    id: k.id,
    key: k.display,
    name: k.name,
    environment: k.environment,
    residency: k.residency,
    privacy_mode: k.privacy_mode,
    allowed_models: k.allowed_models,
    allowed_ips: k.allowed_ips,
    expires_at: k.expires_at,
    account_id: k.account_id,
    status: keyState(k, now),
    created_at: k.created_at,
    revoked_at: k.revoked_at,
    last_used_at: k.last_used_at,
  };
}

/** The API's key listing: the CLI's fields plus `display` and `state` (CONTRACT.md). */
export function apiKeyJson(k: KeyRecord, now: number) {
  const base = keyJson(k, now);
  return { ...base, display: k.display, state: base.status, rotated_from: k.rotated_from };
}

/** Shown once at creation: the full key, with the fields CONTRACT.md names. */
export function createdKeyJson(k: KeyRecord, key: string) {
  return {
    id: k.id,
    key,
    name: k.name,
    environment: k.environment,
    residency: k.residency,
    privacy_mode: k.privacy_mode,
    allowed_models: k.allowed_models,
    allowed_ips: k.allowed_ips,
    expires_at: k.expires_at,
    account_id: k.account_id,
  };
}

export function adminJson(a: Administrator) {
  return { id: a.id, email: a.email, account_id: a.account_id, role: a.account_id === null ? 'platform' : 'account', created_at: a.created_at };
}

export function dailyUsageJson(r: DailyUsageRow) {
  return {
    date: r.date,
    model: r.model,
    environment: r.environment,
    requests: r.requests,
    billable_units: r.billable_units,
    cost_gbp: Number(formatGbp(r.environment === 'live' ? r.cost_units : 0n)),
  };
}
