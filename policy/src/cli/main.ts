import { ConfigError, loadConfig } from '@gateway/shared';
import { ModelCatalogue } from '../catalogue.js';
import { AdminError, AdminStore } from '../db/admin-store.js';
import { openDatabase } from '../db/database.js';
import { UsageLedger } from '../db/usage-ledger.js';
import { UsageError } from './args.js';
import { COMMANDS } from './commands.js';

const HELP = `gatewayctl: manage plans, accounts, keys and usage of the gateway (works on GATEWAY_DATA_DIR).

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

Every command takes --json for machine-readable output.`;

/** Runs one command; resolves with the exit code. Output goes to the given streams (stdout/stderr by default). */
export async function main(
  argv: string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
  out: (s: string) => void = (s) => process.stdout.write(s),
  err: (s: string) => void = (s) => process.stderr.write(s),
): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
    out(`${HELP}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  const twoWord = `${argv[0]} ${argv[1] ?? ''}`;
  const name = COMMANDS[twoWord] !== undefined ? twoWord : argv[0] as string;
  const command = COMMANDS[name];
  if (command === undefined) {
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
  const db = openDatabase(config.databaseFile);
  try {
    const catalogue = config.catalogueFile === undefined ? ModelCatalogue.load() : ModelCatalogue.load(config.catalogueFile);
    const result = command({ admin: new AdminStore(db), ledger: new UsageLedger(db), catalogue, now: Date.now }, rest);
    out(json ? `${JSON.stringify(result.json, null, 2)}\n` : `${result.text}\n`);
    return 0;
  } catch (e) {
    if (e instanceof UsageError || e instanceof AdminError) {
      if (json) out(`${JSON.stringify({ error: e.message })}\n`);
      err(`gatewayctl ${name}: ${e.message}\n`);
      return e instanceof UsageError ? 2 : 1;
    }
    throw e;
  } finally {
    db.close();
  }
}
