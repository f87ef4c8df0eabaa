import { userInfo } from 'node:os';
import { ConfigError, GatewayError, loadConfig } from '@gateway/shared';
import { createAdminService } from '../admin/create-admin-service.js';
import { ModelCatalogue } from '../catalogue.js';
import { openStore } from '../db/open-store.js';
import { UsageError } from './args.js';
import { ATTESTATION_COMMANDS } from './attestation-commands.js';
import { COMMANDS } from './commands.js';
import { dbCopy } from './db-copy-command.js';

const HELP = `gatewayctl: manage plans, accounts, keys and usage of the gateway (works on DATABASE_URL when set, else GATEWAY_DATA_DIR).

  gatewayctl plans create --name N --residency uk|eu --rpm N --concurrency N --allowance N [--overage true|false --overage-ceiling N] [--models a,b]
  gatewayctl plans update NAME [--rpm N --concurrency N --allowance N --overage true|false --overage-ceiling N --models a,b]
  gatewayctl plans list
  gatewayctl accounts create --name N --plan P [--rpm N --concurrency N --allowance N --overage true|false --overage-ceiling N --anchor-day D]
  gatewayctl accounts update ID [--plan P --rpm N --concurrency N --allowance N --overage true|false --overage-ceiling N --anchor-day D]
  gatewayctl accounts list
  gatewayctl keys create --account ID --name N --env live|test --residency uk|eu --privacy off|flag|redact|tokenise [--models a,b] [--ips cidr,…] [--expires ISO8601] [--rpm N]
  gatewayctl keys list [--account ID]
  gatewayctl keys revoke KEY_ID
  gatewayctl keys rotate KEY_ID
  gatewayctl usage --account ID
  gatewayctl admins create --email E [--account ID] --password-stdin
  gatewayctl admins list
  gatewayctl admins tokens create --email E --name N
  gatewayctl admins tokens revoke TOKEN_ID
  gatewayctl audit [--account ID]
  gatewayctl residency-report [--account ID] [--from YYYY-MM-DD] [--to YYYY-MM-DD]   (CSV; --json for the API's rows)
  gatewayctl attestation verify <jws> [--jwks FILE]   (exit 0 when valid, 1 when not)
  gatewayctl attestation rotate
  gatewayctl attestation jwks
  gatewayctl db copy --to postgres://user:password@host:port/db [--from FILE]   (SQLite → an empty PostgreSQL)

Every command takes --json for machine-readable output.`;

/** Runs one command; resolves with the exit code. Output goes to the given streams (stdout/stderr by default). */
export async function main(
  argv: string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
  out: (s: string) => void = (s) => process.stdout.write(s),
  err: (s: string) => void = (s) => process.stderr.write(s),
  readStdin: () => Promise<string> = readProcessStdin,
): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
    out(`${HELP}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  // The longest command name that matches: `admins tokens create`, `keys create`, `usage`.
  const copy = argv[0] === 'db' && argv[1] === 'copy';
  const name = copy
    ? 'db copy'
    : [3, 2, 1].map((n) => argv.slice(0, n).join(' ')).find((n) => COMMANDS[n] !== undefined || ATTESTATION_COMMANDS[n] !== undefined) ?? '';
  const command = COMMANDS[name];
  const attestationCommand = ATTESTATION_COMMANDS[name];
  if (command === undefined && attestationCommand === undefined && !copy) {
    err(`gatewayctl: unknown command "${argv.slice(0, 2).join(' ')}"\n\n${HELP}\n`);
    return 2;
  }
  const rest = argv.slice(name.split(' ').length);
  const json = rest.includes('--json');
  let config;
  try {
    config = loadConfig(env);
  } catch (e) {
    err(`${e instanceof ConfigError ? e.message : String(e)}\n`);
    return 2;
  }
  const failed = (e: unknown): number => {
    if (e instanceof UsageError || e instanceof GatewayError) {
      if (json) out(`${JSON.stringify({ error: e.message })}\n`);
      err(`gatewayctl ${name}: ${e.message}\n`);
      return e instanceof UsageError ? 2 : 1;
    }
    throw e;
  };
  // The attestation commands work on the key file alone: no database.
  if (attestationCommand !== undefined) {
    try {
      const result = await attestationCommand(config, rest);
      out(json ? `${JSON.stringify(result.json, null, 2)}\n` : `${result.text}\n`);
      return result.exitCode;
    } catch (e) {
      if (json) out(`${JSON.stringify({ error: e instanceof Error ? e.message : String(e) })}\n`);
      err(`gatewayctl ${name}: ${e instanceof Error ? e.message : String(e)}\n`);
      return e instanceof UsageError ? 2 : 1;
    }
  }
  if (copy || command === undefined) {
    try {
      const result = await dbCopy(rest, config.databaseFile);
      out(json ? `${JSON.stringify(result.json, null, 2)}\n` : `${result.text}\n`);
      return result.identical ? 0 : 1;
    } catch (e) {
      return failed(e);
    }
  }
  let store;
  try {
    store = await openStore(config, { poolSize: 2 });
  } catch (e) {
    err(`gatewayctl: cannot open the database: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  try {
    const catalogue = config.catalogueFile === undefined ? ModelCatalogue.load() : ModelCatalogue.load(config.catalogueFile);
    const service = createAdminService(store, catalogue, { providerTokenLifetimeMs: config.signIn.oidc?.tokenMaxLifetimeMs });
    const result = await command({ service, caller: { principal: { kind: 'cli', user: cliUser() }, address: null }, now: Date.now, readStdin }, rest);
    out(json ? `${JSON.stringify(result.json, null, 2)}\n` : `${result.text}\n`);
    return 0;
  } catch (e) {
    return failed(e);
  } finally {
    await store.close();
  }
}

function cliUser(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}

async function readProcessStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
