import { allowlistEntryProblem, type PrivacyMode, type Residency } from '@gateway/shared';
import type { ModelCatalogue } from '../catalogue.js';
import type { AdminStore } from '../db/admin-store.js';
import { effectiveLimits, type KeyRecord, type Plan } from '../db/records.js';
import type { UsageLedger } from '../db/usage-ledger.js';
import { accountUsage } from './account-usage.js';
import {
  UsageError,
  oneOf,
  optionalBool,
  optionalInt,
  optionalList,
  optionalString,
  parseCommand,
  required,
  requiredInt,
  type ParsedCommand,
} from './args.js';

export interface CliContext {
  admin: AdminStore;
  ledger: UsageLedger;
  catalogue: ModelCatalogue;
  now: () => number;
}

/** What a command prints: JSON with --json, otherwise lines for a person. */
export interface CommandOutput {
  json: unknown;
  text: string;
}

type Command = (ctx: CliContext, argv: string[]) => CommandOutput;

const RESIDENCIES = ['uk', 'eu'] as const;
const PRIVACY = ['off', 'flag', 'redact', 'tokenise'] as const;
const ENVS = ['live', 'test'] as const;
const LIMIT_FLAGS = ['rpm', 'concurrency', 'allowance', 'overage', 'overage-ceiling'] as const;

function planJson(p: Plan) {
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

function keyJson(k: KeyRecord, now: number) {
  const status = k.revoked_at !== null ? 'revoked' : k.expires_at !== null && Date.parse(k.expires_at) <= now ? 'expired' : 'active';
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
    status,
    created_at: k.created_at,
    revoked_at: k.revoked_at,
    last_used_at: k.last_used_at,
  };
}

/** Shown once at creation: the full key, with the fields CONTRACT.md names. */
function createdKeyJson(k: KeyRecord, key: string) {
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

function modelsFlag(ctx: CliContext, cmd: ParsedCommand): string[] | undefined {
  const list = optionalList(cmd.flags, 'models');
  if (list === undefined) return undefined;
  return list.map((m) => {
    const found = ctx.catalogue.resolve(m);
    if (found === undefined) throw new UsageError(`--models: unknown model "${m}"`);
    return found.id;
  });
}

function ipsFlag(cmd: ParsedCommand): string[] | undefined {
  const list = optionalList(cmd.flags, 'ips');
  if (list === undefined) return undefined;
  const problems = list.map(allowlistEntryProblem).filter((p): p is string => p !== undefined);
  if (problems.length > 0) throw new UsageError(`--ips: ${problems.join('; ')}`);
  return list;
}

function expiresFlag(cmd: ParsedCommand): string | undefined {
  const v = optionalString(cmd.flags, 'expires');
  if (v === undefined) return undefined;
  const ms = Date.parse(v);
  if (Number.isNaN(ms) || !/^\d{4}-\d{2}-\d{2}T/.test(v)) throw new UsageError(`--expires must be an ISO 8601 timestamp (got "${v}")`);
  return new Date(ms).toISOString();
}

const keyCreatedText = (k: KeyRecord, key: string): string =>
  `Created key ${k.id} (${k.environment}, ${k.residency}, privacy ${k.privacy_mode}) for account ${k.account_id}.\n` +
  `Store it now; it is not shown again:\n\n    ${key}\n`;

export const COMMANDS: Record<string, Command> = {
  'plans create': (ctx, argv) => {
    const cmd = parseCommand(argv, ['name', 'residency', 'models', ...LIMIT_FLAGS]);
    const plan: Plan = {
      name: required(cmd.flags, 'name'),
      residency: oneOf(cmd.flags, 'residency', RESIDENCIES),
      requests_per_minute: requiredInt(cmd.flags, 'rpm', 1),
      concurrency: requiredInt(cmd.flags, 'concurrency', 1),
      allowance: requiredInt(cmd.flags, 'allowance', 0),
      overage_allowed: optionalBool(cmd.flags, 'overage') ?? false,
      overage_ceiling: optionalInt(cmd.flags, 'overage-ceiling', 0) ?? 0,
      models: modelsFlag(ctx, cmd) ?? null,
    };
    ctx.admin.createPlan(plan);
    return { json: planJson(plan), text: `Created plan ${plan.name}.` };
  },
  'plans update': (ctx, argv) => {
    const cmd = parseCommand(argv, ['residency', 'models', ...LIMIT_FLAGS]);
    const name = cmd.positionals[0];
    if (name === undefined) throw new UsageError('plans update NAME [--rpm N …]');
    const changes: Partial<Plan> = {};
    const rpm = optionalInt(cmd.flags, 'rpm', 1);
    if (rpm !== undefined) changes.requests_per_minute = rpm;
    const conc = optionalInt(cmd.flags, 'concurrency', 1);
    if (conc !== undefined) changes.concurrency = conc;
    const allowance = optionalInt(cmd.flags, 'allowance', 0);
    if (allowance !== undefined) changes.allowance = allowance;
    const overage = optionalBool(cmd.flags, 'overage');
    if (overage !== undefined) changes.overage_allowed = overage;
    const ceiling = optionalInt(cmd.flags, 'overage-ceiling', 0);
    if (ceiling !== undefined) changes.overage_ceiling = ceiling;
    const models = modelsFlag(ctx, cmd);
    if (models !== undefined) changes.models = models;
    if (optionalString(cmd.flags, 'residency') !== undefined) changes.residency = oneOf(cmd.flags, 'residency', RESIDENCIES);
    const plan = ctx.admin.updatePlan(name, changes);
    return { json: planJson(plan), text: `Updated plan ${plan.name}.` };
  },
  'plans list': (ctx, argv) => {
    parseCommand(argv, []);
    const plans = ctx.admin.listPlans().map(planJson);
    const text = plans
      .map((p) => `${p.name}\t${p.residency}\trpm=${p.requests_per_minute}\tconcurrency=${p.concurrency}\tallowance=${p.allowance}\toverage=${p.overage_allowed}${p.overage_allowed ? `(ceiling ${p.overage_ceiling})` : ''}\tmodels=${p.models?.join(',') ?? 'all'}`)
      .join('\n');
    return { json: plans, text: text === '' ? 'No plans.' : text };
  },
  'accounts create': (ctx, argv) => {
    const cmd = parseCommand(argv, ['name', 'plan', 'anchor-day', ...LIMIT_FLAGS]);
    const account = ctx.admin.createAccount(
      required(cmd.flags, 'name'),
      required(cmd.flags, 'plan'),
      limitOverrides(cmd),
      optionalInt(cmd.flags, 'anchor-day', 1) ?? null,
    );
    return { json: accountJson(account), text: `Created account ${account.id} (${account.name}) on plan ${account.plan}.` };
  },
  'accounts update': (ctx, argv) => {
    const cmd = parseCommand(argv, ['plan', 'anchor-day', ...LIMIT_FLAGS]);
    const id = cmd.positionals[0];
    if (id === undefined) throw new UsageError('accounts update ACCOUNT_ID [--rpm N …]');
    const plan = optionalString(cmd.flags, 'plan');
    const anchor = optionalInt(cmd.flags, 'anchor-day', 1);
    const account = ctx.admin.updateAccount(id, {
      ...(plan === undefined ? {} : { plan }),
      overrides: limitOverrides(cmd),
      ...(anchor === undefined ? {} : { anchor_day: anchor }),
    });
    return { json: accountJson(account), text: `Updated account ${account.id}.` };
  },
  'accounts list': (ctx, argv) => {
    parseCommand(argv, []);
    const accounts = ctx.admin.listAccounts().map(accountJson);
    return { json: accounts, text: accounts.map((a) => `${a.id}\t${a.name}\t${a.plan}`).join('\n') || 'No accounts.' };
  },
  'keys create': (ctx, argv) => {
    const cmd = parseCommand(argv, ['account', 'name', 'env', 'residency', 'privacy', 'models', 'ips', 'expires', 'rpm']);
    const { record, key } = ctx.admin.createKey({
      account_id: required(cmd.flags, 'account'),
      name: required(cmd.flags, 'name'),
      environment: oneOf(cmd.flags, 'env', ENVS),
      residency: oneOf(cmd.flags, 'residency', RESIDENCIES) as Residency,
      privacy_mode: (optionalString(cmd.flags, 'privacy') === undefined ? 'off' : oneOf(cmd.flags, 'privacy', PRIVACY)) as PrivacyMode,
      allowed_models: modelsFlag(ctx, cmd) ?? null,
      allowed_ips: ipsFlag(cmd) ?? null,
      expires_at: expiresFlag(cmd) ?? null,
      requests_per_minute: optionalInt(cmd.flags, 'rpm', 1) ?? null,
    });
    return { json: createdKeyJson(record, key), text: keyCreatedText(record, key) };
  },
  'keys list': (ctx, argv) => {
    const cmd = parseCommand(argv, ['account']);
    const keys = ctx.admin.listKeys(optionalString(cmd.flags, 'account')).map((k) => keyJson(k, ctx.now()));
    const text = keys
      .map((k) => `${k.id}\t${k.key}\t${k.name}\t${k.environment}\t${k.residency}\t${k.privacy_mode}\t${k.status}\tlast used ${k.last_used_at ?? 'never'}`)
      .join('\n');
    return { json: keys, text: text || 'No keys.' };
  },
  'keys revoke': (ctx, argv) => {
    const cmd = parseCommand(argv, []);
    const id = cmd.positionals[0];
    if (id === undefined) throw new UsageError('keys revoke KEY_ID');
    const k = ctx.admin.revokeKey(id);
    return { json: keyJson(k, ctx.now()), text: `Revoked key ${k.id} (${k.display}).` };
  },
  'keys rotate': (ctx, argv) => {
    const cmd = parseCommand(argv, []);
    const id = cmd.positionals[0];
    if (id === undefined) throw new UsageError('keys rotate KEY_ID');
    const { record, key } = ctx.admin.rotateKey(id);
    return {
      json: { ...createdKeyJson(record, key), rotated_from: id },
      text: `${keyCreatedText(record, key)}\nThe old key ${id} stays valid until you revoke it: deploy the new key, check the old key's last-used time is idle, then run \`gatewayctl keys revoke ${id}\`.`,
    };
  },
  usage: (ctx, argv) => {
    const cmd = parseCommand(argv, ['account']);
    const id = required(cmd.flags, 'account');
    const account = ctx.admin.getAccount(id);
    if (account === undefined) throw new UsageError(`no account "${id}"`);
    const plan = ctx.admin.getPlan(account.plan) as Plan;
    const u = accountUsage(id, effectiveLimits(plan, account), ctx.ledger, ctx.now());
    const text = [
      `Account ${id} on plan ${u.plan}, period ${u.period.start} – ${u.period.end}`,
      `Tokens: ${u.tokens.used} of ${u.tokens.allowance} used (${u.tokens.percent_used}%), ${u.tokens.remaining} remaining`,
      ...u.by_model.map((m) => `  ${m.model}: ${m.requests} requests, ${m.billable_units} units, £${m.cost_gbp.toFixed(6)}`),
      u.test_by_model.length > 0 ? `Test traffic: ${u.test_by_model.map((m) => `${m.model} ${m.requests} requests`).join(', ')}` : '',
    ].filter((l) => l !== '').join('\n');
    return { json: u, text };
  },
};

function limitOverrides(cmd: ParsedCommand) {
  const o: Partial<{ requests_per_minute: number; concurrency: number; allowance: number; overage_allowed: boolean; overage_ceiling: number }> = {};
  const rpm = optionalInt(cmd.flags, 'rpm', 1);
  if (rpm !== undefined) o.requests_per_minute = rpm;
  const conc = optionalInt(cmd.flags, 'concurrency', 1);
  if (conc !== undefined) o.concurrency = conc;
  const allowance = optionalInt(cmd.flags, 'allowance', 0);
  if (allowance !== undefined) o.allowance = allowance;
  const overage = optionalBool(cmd.flags, 'overage');
  if (overage !== undefined) o.overage_allowed = overage;
  const ceiling = optionalInt(cmd.flags, 'overage-ceiling', 0);
  if (ceiling !== undefined) o.overage_ceiling = ceiling;
  return o;
}

function accountJson(a: { id: string; name: string; plan: string; overrides: object; anchor_day: number | null; created_at: string }) {
  return { id: a.id, name: a.name, plan: a.plan, overrides: a.overrides, anchor_day: a.anchor_day, created_at: a.created_at };
}
