import { InvalidRequestError, allowlistEntryProblem, type Environment, type PrivacyMode, type Residency } from '@gateway/shared';
import type { ModelCatalogue } from '../catalogue.js';

/**
 * Field checks shared by every admin surface. Each collects all the problems of one input and raises one
 * InvalidRequestError naming them, so a form or an API call learns everything wrong at once.
 */
export class Problems {
  private readonly list: string[] = [];
  add(problem: string): void {
    this.list.push(problem);
  }
  throwIfAny(): void {
    if (this.list.length > 0) throw new InvalidRequestError(this.list.join('; '));
  }
}

export const RESIDENCIES = ['uk', 'eu'] as const;
export const PRIVACY_MODES = ['off', 'flag', 'redact', 'tokenise'] as const;
export const ENVIRONMENTS = ['live', 'test'] as const;

export function oneOf<T extends string>(p: Problems, field: string, v: unknown, allowed: readonly T[], fallback?: T): T {
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return v as T;
  p.add(`${field} must be one of ${allowed.join(', ')}${v === undefined ? '' : ` (got ${JSON.stringify(v)})`}`);
  return allowed[0] as T;
}

export function text(p: Problems, field: string, v: unknown, max: number): string {
  if (typeof v !== 'string' || v.trim() === '') {
    p.add(`${field} is required`);
    return '';
  }
  if (v.length > max) p.add(`${field} must be at most ${max} characters`);
  return v.trim();
}

export function int(p: Problems, field: string, v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < min || n > max) {
    p.add(`${field} must be an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`} (got ${JSON.stringify(v)})`);
    return undefined;
  }
  return n;
}

export function bool(p: Problems, field: string, v: unknown): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  p.add(`${field} must be true or false (got ${JSON.stringify(v)})`);
  return undefined;
}

function stringList(p: Problems, field: string, v: unknown): string[] | null {
  if (v === undefined || v === null) return null;
  const list = typeof v === 'string' ? v.split(',') : v;
  if (!Array.isArray(list) || !list.every((x): x is string => typeof x === 'string')) {
    p.add(`${field} must be a list of strings`);
    return null;
  }
  const cleaned = list.map((s) => s.trim()).filter((s) => s !== '');
  return cleaned.length === 0 ? null : cleaned;
}

/** Model aliases, resolved to catalogue ids (dated aliases included); unknown names are refused. */
export function models(p: Problems, field: string, v: unknown, catalogue: ModelCatalogue): string[] | null {
  const list = stringList(p, field, v);
  if (list === null) return null;
  const ids: string[] = [];
  for (const m of list) {
    const found = catalogue.resolve(m);
    if (found === undefined) p.add(`${field}: unknown model "${m}"`);
    else if (!ids.includes(found.id)) ids.push(found.id);
  }
  return ids;
}

/** IP addresses and CIDRs in the spellings the proxy's allowlist reads. */
export function ips(p: Problems, field: string, v: unknown): string[] | null {
  const list = stringList(p, field, v);
  if (list === null) return null;
  for (const entry of list) {
    const problem = allowlistEntryProblem(entry);
    if (problem !== undefined) p.add(`${field}: ${problem}`);
  }
  return list;
}

/** An ISO 8601 timestamp in the future, normalised to UTC. */
export function expiry(p: Problems, field: string, v: unknown, nowMs: number): string | null {
  if (v === undefined || v === null || v === '') return null;
  const ms = typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) ? Date.parse(v) : Number.NaN;
  if (Number.isNaN(ms)) {
    p.add(`${field} must be an ISO 8601 timestamp (got ${JSON.stringify(v)})`);
    return null;
  }
  if (ms <= nowMs) {
    p.add(`${field} must be in the future (got ${JSON.stringify(v)})`);
    return null;
  }
  return new Date(ms).toISOString();
}

export const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;
export const PLAN_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const MIN_PASSWORD_LENGTH = 12;

export type { Environment, PrivacyMode, Residency };
