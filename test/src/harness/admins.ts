import { runGatewayctl } from '@gateway/policy';
import type { TestGateway } from './gateway.js';

/** gatewayctl with a password on standard input (admins create --password-stdin). */
export async function ctlWithStdin(gw: TestGateway, stdin: string, ...args: string[]): Promise<Record<string, unknown>> {
  let out = '';
  let err = '';
  const code = await runGatewayctl([...args, '--json'], gw.ctlEnv, (s) => (out += s), (s) => (err += s), async () => stdin);
  if (code !== 0) throw new Error(`gatewayctl ${args.join(' ')} failed: ${err}`);
  return JSON.parse(out) as Record<string, unknown>;
}

/** An administrator (platform-wide, or of `account`) and an admin API token of theirs. */
export async function adminToken(gw: TestGateway, email: string, account?: string): Promise<string> {
  await ctlWithStdin(gw, 'a long enough password\n', 'admins', 'create', '--email', email, ...(account === undefined ? [] : ['--account', account]), '--password-stdin');
  return (await gw.ctl<{ token: string }>('admins', 'tokens', 'create', '--email', email, '--name', 'ci')).token;
}
