import type { AdminService } from '../admin/admin-service.js';
import type { Caller } from '../admin/principal.js';
import type { AdminToken } from '../db/administrators.js';
import { accountJson, adminJson, createdKeyJson, keyJson, planJson } from '../admin/admin-json.js';
import type { KeyRecord } from '../db/records.js';
import { residencyReportCsv } from '../admin/residency-csv.js';
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

/** The CLI is a thin adapter: it parses flags and prints; every rule is the admin service's. */
export interface CliContext {
  service: AdminService;
  caller: Caller;
  now: () => number;
  /** the whole of standard input (for --password-stdin) */
  readStdin: () => Promise<string>;
}

/** What a command prints: JSON with --json, otherwise lines for a person. */
export interface CommandOutput {
  json: unknown;
  text: string;
}

type Command = (ctx: CliContext, argv: string[]) => CommandOutput | Promise<CommandOutput>;

const RESIDENCIES = ['uk', 'eu'] as const;
const PRIVACY = ['off', 'flag', 'redact', 'tokenise'] as const;
const ENVS = ['live', 'test'] as const;
const LIMIT_FLAGS = ['rpm', 'concurrency', 'allowance', 'overage', 'overage-ceiling'] as const;

const keyCreatedText = (k: KeyRecord, key: string): string =>
  `Created key ${k.id} (${k.environment}, ${k.residency}, privacy ${k.privacy_mode}) for account ${k.account_id}.\n` +
  `Store it now; it is not shown again:\n\n    ${key}\n`;

function limitInput(cmd: ParsedCommand) {
  return {
    requests_per_minute: optionalInt(cmd.flags, 'rpm', 1),
    concurrency: optionalInt(cmd.flags, 'concurrency', 1),
    allowance: optionalInt(cmd.flags, 'allowance', 0),
    overage_allowed: optionalBool(cmd.flags, 'overage'),
    overage_ceiling: optionalInt(cmd.flags, 'overage-ceiling', 0),
  };
}

function tokenJson(t: AdminToken, email: string) {
  return { id: t.id, name: t.name, email, display: t.display, created_at: t.created_at, revoked_at: t.revoked_at };
}

export const COMMANDS: Record<string, Command> = {
  'plans create': async (ctx, argv) => {
    const cmd = parseCommand(argv, ['name', 'residency', 'models', ...LIMIT_FLAGS]);
    const plan = await ctx.service.createPlan(ctx.caller, {
      name: required(cmd.flags, 'name'),
      residency: oneOf(cmd.flags, 'residency', RESIDENCIES),
      ...limitInput(cmd),
      requests_per_minute: requiredInt(cmd.flags, 'rpm', 1),
      concurrency: requiredInt(cmd.flags, 'concurrency', 1),
      allowance: requiredInt(cmd.flags, 'allowance', 0),
      models: optionalList(cmd.flags, 'models'),
    });
    return { json: planJson(plan), text: `Created plan ${plan.name}.` };
  },
  'plans update': async (ctx, argv) => {
    const cmd = parseCommand(argv, ['residency', 'models', ...LIMIT_FLAGS]);
    const name = cmd.positionals[0];
    if (name === undefined) throw new UsageError('plans update NAME [--rpm N …]');
    const residency = optionalString(cmd.flags, 'residency') === undefined ? undefined : oneOf(cmd.flags, 'residency', RESIDENCIES);
    const plan = await ctx.service.updatePlan(ctx.caller, name, { ...limitInput(cmd), residency, models: optionalList(cmd.flags, 'models') });
    return { json: planJson(plan), text: `Updated plan ${plan.name}.` };
  },
  'plans list': async (ctx, argv) => {
    parseCommand(argv, []);
    const plans = (await ctx.service.listPlans(ctx.caller)).map(planJson);
    const text = plans
      .map((p) => `${p.name}\t${p.residency}\trpm=${p.requests_per_minute}\tconcurrency=${p.concurrency}\tallowance=${p.allowance}\toverage=${p.overage_allowed}${p.overage_allowed ? `(ceiling ${p.overage_ceiling})` : ''}\tmodels=${p.models?.join(',') ?? 'all'}`)
      .join('\n');
    return { json: plans, text: text === '' ? 'No plans.' : text };
  },
  'accounts create': async (ctx, argv) => {
    const cmd = parseCommand(argv, ['name', 'plan', 'anchor-day', ...LIMIT_FLAGS]);
    const account = await ctx.service.createAccount(ctx.caller, {
      name: required(cmd.flags, 'name'),
      plan: required(cmd.flags, 'plan'),
      ...limitInput(cmd),
      anchor_day: optionalInt(cmd.flags, 'anchor-day', 1),
    });
    return { json: accountJson(account), text: `Created account ${account.id} (${account.name}) on plan ${account.plan}.` };
  },
  'accounts update': async (ctx, argv) => {
    const cmd = parseCommand(argv, ['plan', 'anchor-day', ...LIMIT_FLAGS]);
    const id = cmd.positionals[0];
    if (id === undefined) throw new UsageError('accounts update ACCOUNT_ID [--rpm N …]');
    const account = await ctx.service.updateAccount(ctx.caller, id, {
      plan: optionalString(cmd.flags, 'plan'),
      ...limitInput(cmd),
      anchor_day: optionalInt(cmd.flags, 'anchor-day', 1),
    });
    return { json: accountJson(account), text: `Updated account ${account.id}.` };
  },
  'accounts list': async (ctx, argv) => {
    parseCommand(argv, []);
    const accounts = (await ctx.service.listAccounts(ctx.caller)).map(accountJson);
    return { json: accounts, text: accounts.map((a) => `${a.id}\t${a.name}\t${a.plan}`).join('\n') || 'No accounts.' };
  },
  'keys create': async (ctx, argv) => {
    const cmd = parseCommand(argv, ['account', 'name', 'env', 'residency', 'privacy', 'models', 'ips', 'expires', 'rpm']);
    const account = required(cmd.flags, 'account');
    const input = {
      name: required(cmd.flags, 'name'),
      environment: oneOf(cmd.flags, 'env', ENVS),
      residency: oneOf(cmd.flags, 'residency', RESIDENCIES),
      privacy_mode: optionalString(cmd.flags, 'privacy') === undefined ? 'off' : oneOf(cmd.flags, 'privacy', PRIVACY),
      allowed_models: optionalList(cmd.flags, 'models'),
      allowed_ips: optionalList(cmd.flags, 'ips'),
      expires_at: optionalString(cmd.flags, 'expires'),
      requests_per_minute: optionalInt(cmd.flags, 'rpm', 1),
    };
    const { record, key } = await ctx.service.createKey(ctx.caller, account, input);
    return { json: createdKeyJson(record, key), text: keyCreatedText(record, key) };
  },
  'keys list': async (ctx, argv) => {
    const cmd = parseCommand(argv, ['account']);
    const keys = (await ctx.service.listKeys(ctx.caller, optionalString(cmd.flags, 'account'))).map((k) => keyJson(k, ctx.now()));
    const text = keys
      .map((k) => `${k.id}\t${k.key}\t${k.name}\t${k.environment}\t${k.residency}\t${k.privacy_mode}\t${k.status}\tlast used ${k.last_used_at ?? 'never'}`)
      .join('\n');
    return { json: keys, text: text || 'No keys.' };
  },
  'keys revoke': async (ctx, argv) => {
    const cmd = parseCommand(argv, []);
    const id = cmd.positionals[0];
    if (id === undefined) throw new UsageError('keys revoke KEY_ID');
    const k = await ctx.service.revokeKey(ctx.caller, id);
    return { json: keyJson(k, ctx.now()), text: `Revoked key ${k.id} (${k.display}).` };
  },
  'keys rotate': async (ctx, argv) => {
    const cmd = parseCommand(argv, []);
    const id = cmd.positionals[0];
    if (id === undefined) throw new UsageError('keys rotate KEY_ID');
    const { record, key } = await ctx.service.rotateKey(ctx.caller, id);
    return {
      json: { ...createdKeyJson(record, key), rotated_from: id },
      text: `${keyCreatedText(record, key)}\nThe old key ${id} stays valid until you revoke it: deploy the new key, check the old key's last-used time is idle, then run \`gatewayctl keys revoke ${id}\`.`,
    };
  },
  usage: async (ctx, argv) => {
    const cmd = parseCommand(argv, ['account']);
    const u = await ctx.service.accountUsage(ctx.caller, required(cmd.flags, 'account'));
    const text = [
      `Account ${u.account_id} on plan ${u.plan}, period ${u.period.start} – ${u.period.end}`,
      `Tokens: ${u.tokens.used} of ${u.tokens.allowance} used (${u.tokens.percent_used}%), ${u.tokens.remaining} remaining`,
      ...u.by_model.map((m) => `  ${m.model}: ${m.requests} requests, ${m.billable_units} units, £${m.cost_gbp.toFixed(6)}`),
      u.test_by_model.length > 0 ? `Test traffic: ${u.test_by_model.map((m) => `${m.model} ${m.requests} requests`).join(', ')}` : '',
    ].filter((l) => l !== '').join('\n');
    return { json: u, text };
  },
  'admins create': async (ctx, argv) => {
    const cmd = parseCommand(argv, ['email', 'account'], ['password-stdin']);
    if (cmd.flags['password-stdin'] !== true) throw new UsageError('--password-stdin is required (the password is read from standard input, never from the command line)');
    // One line: the password, without its line ending.
    const password = (await ctx.readStdin()).replace(/\r?\n$/, '');
    const admin = await ctx.service.administrators.createAdmin(ctx.caller, {
      email: required(cmd.flags, 'email'),
      password,
      account_id: optionalString(cmd.flags, 'account'),
    });
    const role = admin.account_id === null ? 'platform administrator' : `administrator of account ${admin.account_id}`;
    return { json: adminJson(admin), text: `Created ${role} ${admin.email} (${admin.id}).` };
  },
  'admins list': async (ctx, argv) => {
    parseCommand(argv, []);
    const admins = (await ctx.service.administrators.listAdmins(ctx.caller)).map(adminJson);
    return { json: admins, text: admins.map((a) => `${a.id}\t${a.email}\t${a.account_id ?? 'platform'}`).join('\n') || 'No administrators.' };
  },
  'admins tokens create': async (ctx, argv) => {
    const cmd = parseCommand(argv, ['email', 'name']);
    const email = required(cmd.flags, 'email');
    const { record, token } = await ctx.service.administrators.createToken(ctx.caller, { email, name: required(cmd.flags, 'name') });
    return {
      json: { ...tokenJson(record, email.toLowerCase()), token },
      text: `Created admin API token ${record.id} for ${email}.\nStore it now; it is not shown again:\n\n    ${token}\n`,
    };
  },
  'admins tokens revoke': async (ctx, argv) => {
    const cmd = parseCommand(argv, []);
    const id = cmd.positionals[0];
    if (id === undefined) throw new UsageError('admins tokens revoke TOKEN_ID');
    const t = await ctx.service.administrators.revokeToken(ctx.caller, id);
    return { json: { id: t.id, name: t.name, display: t.display, revoked_at: t.revoked_at }, text: `Revoked admin API token ${t.id} (${t.display}).` };
  },
  audit: async (ctx, argv) => {
    const cmd = parseCommand(argv, ['account']);
    const entries = await ctx.service.auditTrail(ctx.caller, optionalString(cmd.flags, 'account'));
    const text = entries
      .map((e) => `${e.at}\t${e.actor_kind}:${e.actor}\t${e.address ?? '-'}\t${e.action}\t${e.target_id}\t${JSON.stringify(e.detail)}`)
      .join('\n');
    return { json: entries, text: text || 'No entries.' };
  },
  // The admin API's residency report; as text, its CSV (what an auditor is handed).
  'residency-report': async (ctx, argv) => {
    const cmd = parseCommand(argv, ['account', 'from', 'to']);
    const rows = await ctx.service.residencyReport(ctx.caller, optionalString(cmd.flags, 'account'), optionalString(cmd.flags, 'from'), optionalString(cmd.flags, 'to'));
    return { json: rows, text: residencyReportCsv(rows).trimEnd() };
  },
};
