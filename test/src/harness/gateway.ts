import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { runGatewayctl } from '@gateway/policy';
import { testDatabaseUrl } from '@gateway/policy/test-support/postgres';
import { startTestRedis, type TestRedis } from '@gateway/policy/test-support/redis';
import { hashApiKey } from '@gateway/shared';

/**
 * Every API key and admin token this test process created (through `ctl`), with its SHA-256: no gateway log line
 * may hold one.
 * TestGateway.stop() scans its processes' output for them, so every suite that uses the harness checks it.
 */
const issuedKeys = new Map<string, string>();

/** The first line of `lines` that holds an issued key or its hash, described without the secret. */
export function secretInLines(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    for (const [key, hash] of issuedKeys) {
      if (line.includes(key)) return `a key (${key.slice(0, 12)}…) in: ${line.replace(key, '<KEY>').slice(0, 300)}`;
      if (line.includes(hash)) return `a key hash (${hash.slice(0, 8)}…) in: ${line.replace(hash, '<HASH>').slice(0, 300)}`;
    }
  }
  return undefined;
}

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

export interface LogLine {
  msg?: string;
  [k: string]: unknown;
}

/** A real child process whose JSON log lines we can wait for. */
export class ServiceProcess {
  readonly lines: LogLine[] = [];
  readonly output: string[] = [];
  private waiters: Array<{ test: (l: LogLine) => boolean; resolve: (l: LogLine) => void }> = [];
  readonly exited: Promise<number | null>;

  constructor(readonly name: string, readonly child: ChildProcess) {
    const rl = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    rl.on('line', (line) => {
      this.output.push(line);
      let parsed: LogLine;
      try {
        parsed = JSON.parse(line) as LogLine;
      } catch {
        return;
      }
      this.lines.push(parsed);
      this.waiters = this.waiters.filter((w) => {
        if (!w.test(parsed)) return true;
        w.resolve(parsed);
        return false;
      });
    });
    child.stderr?.on('data', (d: Buffer) => this.output.push(d.toString()));
    this.exited = new Promise((r) => child.once('exit', (code) => r(code)));
  }

  waitFor(test: (l: LogLine) => boolean, timeoutMs = 15_000): Promise<LogLine> {
    const found = this.lines.find(test);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolveWait, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${this.name}: timed out waiting for a log line; output:\n${this.output.join('\n')}`)),
        timeoutMs,
      );
      this.waiters.push({
        test,
        resolve: (l) => {
          clearTimeout(timer);
          resolveWait(l);
        },
      });
      void this.exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`${this.name} exited (${code}) before it was ready:\n${this.output.join('\n')}`));
      });
    });
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await this.exited;
    clearTimeout(timer);
  }
}

export function startService(name: string, script: string, env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, [resolve(REPO_ROOT, script)], {
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new ServiceProcess(name, child);
}

export interface GatewayOptions {
  env?: Record<string, string>;
  dataDir?: string;
  /** extra proxies against the same policy service */
  proxies?: number;
  /** counters in this Redis (a disposable server, or REDIS_URL) under this run's key prefix */
  redis?: { url: string; keyPrefix: string };
  /** the engine this gateway keeps its keys in (default: TEST_DATABASE); `databaseUrl` an existing PostgreSQL database */
  database?: 'sqlite' | 'postgres';
  databaseUrl?: string;
  /** the policy service also listens on this Unix domain socket, and the proxies dial it (POLICY_ADDR=unix:///…) */
  policySocket?: string;
  /** PROXY_WORKERS of each proxy (default: TEST_PROXY_WORKERS) */
  proxyWorkers?: number;
}

/**
 * Which engine the suite's gateways keep their keys in: `GATEWAY_TEST_DATABASE=postgres` runs every TestGateway
 * on a fresh PostgreSQL database (a server the harness starts) with a Redis of its own when the test gave none
 * (the policy service refuses DATABASE_URL without REDIS_URL); unset, a temp SQLite file as before.
 */
export const TEST_DATABASE: 'sqlite' | 'postgres' = process.env['GATEWAY_TEST_DATABASE'] === 'postgres' ? 'postgres' : 'sqlite';

/**
 * `GATEWAY_TEST_PROXY_WORKERS=2` runs every TestGateway's proxies as that many cluster workers sharing a port
 * (PROXY_WORKERS): a key's requests then reach the policy service on several decision streams, as with several
 * proxies. Unset: one process per proxy, as before.
 */
export const TEST_PROXY_WORKERS: number | undefined = ((raw) => (raw === undefined || raw === '' ? undefined : Number(raw)))(process.env['GATEWAY_TEST_PROXY_WORKERS']);

/** A policy service and a proxy (or several), as separate processes over real gRPC, on a temp SQLite file (or PostgreSQL). */
export class TestGateway {
  policy!: ServiceProcess;
  proxiesRunning: ServiceProcess[] = [];
  policyPort = 0;
  /** the policy service's admin port (dashboard and admin API) */
  adminPort = 0;
  ports: number[] = [];
  readonly dataDir: string;
  /** set when the suite runs on PostgreSQL (TEST_DATABASE) */
  databaseUrl: string | undefined;
  private ownRedis: TestRedis | undefined;
  private readonly ownsDataDir: boolean;

  constructor(private readonly options: GatewayOptions = {}) {
    this.ownsDataDir = options.dataDir === undefined;
    this.dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'gw-test-'));
  }

  get env(): Record<string, string> {
    return {
      GATEWAY_DATA_DIR: this.dataDir,
      GATEWAY_BOOTSTRAP_DEMO: 'false',
      LOG_LEVEL: 'info',
      HOST: '::',
      METRICS_HOST: '127.0.0.1',
      METRICS_PORT: '0',
      ADMIN_PORT: '0',
      PORT: '0',
      // Tests stop and restart processes often: no load-balancer grace, and a short drain (the drain tests set
      // their own). A stopped policy service waits at most this long for its proxies' decision streams.
      DRAIN_GRACE_MS: '0',
      DRAIN_TIMEOUT_MS: '1000',
      ...(this.options.redis === undefined ? {} : { REDIS_URL: this.options.redis.url, REDIS_KEY_PREFIX: this.options.redis.keyPrefix }),
      ...(this.ownRedis === undefined ? {} : { REDIS_URL: this.ownRedis.url, REDIS_KEY_PREFIX: this.ownRedis.keyPrefix }),
      ...(this.databaseUrl === undefined ? {} : { DATABASE_URL: this.databaseUrl }),
      ...this.options.env,
    };
  }

  /** http://localhost:PORT, the SDK's baseURL (the SDK adds /v1/...). */
  get baseURL(): string {
    return `http://127.0.0.1:${this.ports[0]}`;
  }

  /** What gatewayctl needs to work on this gateway's data (as `npx gatewayctl` would be run beside it). */
  get ctlEnv(): Record<string, string> {
    return { GATEWAY_DATA_DIR: this.dataDir, ...(this.databaseUrl === undefined ? {} : { DATABASE_URL: this.databaseUrl }) };
  }

  async start(): Promise<this> {
    if ((this.options.database ?? TEST_DATABASE) === 'postgres' && this.databaseUrl === undefined) {
      this.databaseUrl = this.options.databaseUrl ?? (await testDatabaseUrl('e2e'));
      if (this.options.redis === undefined) this.ownRedis = await startTestRedis();
    }
    await this.startPolicy();
    for (let i = 0; i < (this.options.proxies ?? 1); i += 1) await this.startProxy();
    return this;
  }

  async startPolicy(port = 0): Promise<void> {
    const socket = this.options.policySocket === undefined ? '' : `unix://${this.options.policySocket},`;
    this.policy = startService('policy', 'policy/dist/src/main.js', { ...this.env, POLICY_ADDR: `${socket}127.0.0.1:${port}` });
    const ready = await this.policy.waitFor((l) => l.msg === 'policy service listening');
    this.policyPort = ready['port'] as number;
    this.adminPort = ready['admin_port'] as number;
  }

  async startProxy(): Promise<ServiceProcess> {
    const socket = this.options.policySocket === undefined ? '' : `unix://${this.options.policySocket},`;
    const workers = this.options.proxyWorkers ?? TEST_PROXY_WORKERS;
    const proxy = startService('proxy', 'proxy/dist/src/main.js', {
      ...(workers === undefined ? {} : { PROXY_WORKERS: String(workers) }),
      ...this.env,
      POLICY_ADDR: `${socket}127.0.0.1:${this.policyPort}`,
    });
    // Each worker loads the name model at once: on a loaded machine N of them take about N times as long to start.
    const ready = await proxy.waitFor((l) => l.msg === 'proxy listening', 15_000 * Math.max(1, workers ?? 1));
    this.proxiesRunning.push(proxy);
    this.ports.push(ready['port'] as number);
    return proxy;
  }

  url(path: string, proxyIndex = 0): string {
    return `http://127.0.0.1:${this.ports[proxyIndex]}${path}`;
  }

  /** Runs gatewayctl (the real CLI code, in this process) on this gateway's data directory; parses --json. */
  async ctl<T = Record<string, unknown>>(...args: string[]): Promise<T> {
    let out = '';
    let err = '';
    const code = await runGatewayctl([...args, '--json'], this.ctlEnv, (s) => (out += s), (s) => (err += s));
    if (code !== 0) throw new Error(`gatewayctl ${args.join(' ')} failed (${code}): ${err}`);
    const parsed = JSON.parse(out) as T;
    // API keys and admin API tokens alike (both are stored as SHA-256)
    for (const secret of [(parsed as { key?: unknown } | null)?.key, (parsed as { token?: unknown } | null)?.token]) {
      if (typeof secret === 'string' && secret.startsWith('gw_')) issuedKeys.set(secret, hashApiKey(secret));
    }
    return parsed;
  }

  async stop(): Promise<void> {
    await Promise.all(this.proxiesRunning.map((p) => p.stop()));
    await this.policy?.stop();
    await this.ownRedis?.dispose();
    if (this.ownsDataDir) rmSync(this.dataDir, { recursive: true, force: true });
    for (const p of [this.policy, ...this.proxiesRunning]) {
      const found = p === undefined ? undefined : secretInLines(p.output);
      if (found !== undefined) throw new Error(`${p?.name} logged ${found}`);
    }
  }
}

export interface CreatedKey {
  id: string;
  key: string;
  account_id: string;
  residency: string;
  privacy_mode: string;
  environment: string;
}

/** A plan + account + key in one call, for fixtures. */
/** A new account on a plan (created here), or an existing account: a plan beside an account would be ignored. */
type KeyOwner =
  | { plan?: { name: string; residency?: string; rpm?: number; concurrency?: number; allowance?: number; overage?: boolean; ceiling?: number; models?: string }; account?: undefined }
  | { account: string; plan?: undefined };

export async function createKey(
  gw: TestGateway,
  opts: KeyOwner & {
    env?: 'live' | 'test';
    residency?: 'uk' | 'eu';
    privacy?: string;
    models?: string;
    ips?: string;
    expires?: string;
  } = {},
): Promise<CreatedKey> {
  let account = opts.account;
  if (account === undefined) {
    const plan = opts.plan ?? { name: `plan-${Math.random().toString(36).slice(2, 10)}` };
    const planArgs = [
      'plans', 'create', '--name', plan.name, '--residency', plan.residency ?? 'eu',
      '--rpm', String(plan.rpm ?? 1000), '--concurrency', String(plan.concurrency ?? 50),
      '--allowance', String(plan.allowance ?? 10_000_000),
    ];
    if (plan.overage !== undefined) planArgs.push('--overage', String(plan.overage));
    if (plan.ceiling !== undefined) planArgs.push('--overage-ceiling', String(plan.ceiling));
    if (plan.models !== undefined) planArgs.push('--models', plan.models);
    await gw.ctl(...planArgs);
    const acct = await gw.ctl<{ id: string }>('accounts', 'create', '--name', 'Test Co', '--plan', plan.name);
    account = acct.id;
  }
  const args = [
    'keys', 'create', '--account', account, '--name', 'test key', '--env', opts.env ?? 'test',
    '--residency', opts.residency ?? 'eu', '--privacy', opts.privacy ?? 'off',
  ];
  if (opts.models !== undefined) args.push('--models', opts.models);
  if (opts.ips !== undefined) args.push('--ips', opts.ips);
  if (opts.expires !== undefined) args.push('--expires', opts.expires);
  return gw.ctl<CreatedKey>(...args);
}
