/** Rows of plans, accounts and keys as both engines store them (lists as JSON text, booleans as 0/1). */
import type { Residency } from '@gateway/shared';
import type { NewKey } from './admin-store.js';
import type { Account, AccountOverrides, KeyRecord, Plan } from './records.js';

export interface PlanRow {
  name: string;
  residency: Residency;
  requests_per_minute: number;
  concurrency: number;
  allowance: number;
  overage_allowed: number;
  overage_ceiling: number;
  models: string | null;
}

export interface AccountRow {
  id: string;
  name: string;
  plan: string;
  requests_per_minute: number | null;
  concurrency: number | null;
  allowance: number | null;
  overage_allowed: number | null;
  overage_ceiling: number | null;
  anchor_day: number | null;
  created_at: string;
}

export interface KeyRow extends Omit<KeyRecord, 'allowed_models' | 'allowed_ips'> {
  allowed_models: string | null;
  allowed_ips: string | null;
}

/** A JSON list column; a corrupt one reads as the empty list, which admits nothing (fail closed). */
export function jsonList(s: string | null): string[] | null {
  if (s === null) return null;
  try {
    const v: unknown = JSON.parse(s);
    return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : [];
  } catch {
    return [];
  }
}
export const listJson = (l: readonly string[] | null | undefined): string | null => (l == null ? null : JSON.stringify(l));

export function planFromRow(r: PlanRow): Plan {
  return { ...r, overage_allowed: r.overage_allowed === 1, models: jsonList(r.models) };
}

export function accountFromRow(r: AccountRow): Account {
  return {
    id: r.id,
    name: r.name,
    plan: r.plan,
    anchor_day: r.anchor_day,
    created_at: r.created_at,
    overrides: {
      requests_per_minute: r.requests_per_minute,
      concurrency: r.concurrency,
      allowance: r.allowance,
      overage_allowed: r.overage_allowed === null ? null : r.overage_allowed === 1,
      overage_ceiling: r.overage_ceiling,
    },
  };
}

export function keyFromRow(r: KeyRow): KeyRecord {
  return { ...r, allowed_models: jsonList(r.allowed_models), allowed_ips: jsonList(r.allowed_ips) };
}

export function fullOverrides(o: Partial<AccountOverrides>): AccountOverrides {
  return {
    requests_per_minute: o.requests_per_minute ?? null,
    concurrency: o.concurrency ?? null,
    allowance: o.allowance ?? null,
    overage_allowed: o.overage_allowed ?? null,
    overage_ceiling: o.overage_ceiling ?? null,
  };
}

/** The settings of a rotated key's replacement: the old key's, held to its plan's tier. */
export function replacementKey(old: KeyRecord, plan: Plan | undefined): NewKey {
  return {
    account_id: old.account_id,
    name: old.name,
    environment: old.environment,
    // An eu key whose account moved to a uk-only plan is already held to uk; its replacement says so.
    residency: plan?.residency === 'uk' ? 'uk' : old.residency,
    privacy_mode: old.privacy_mode,
    allowed_models: old.allowed_models,
    allowed_ips: old.allowed_ips,
    expires_at: old.expires_at,
    requests_per_minute: old.requests_per_minute,
    rotated_from: old.id,
  };
}
