/*
 * A disposable PostgreSQL server for tests: Debian's initdb and postgres binaries, a cluster in a temporary
 * directory, listening on a free loopback port (and a socket in that directory), never the machine's shared
 * server on 5432. Debian's `postgresql` package is installed with apt-get when absent (as the dashboard test
 * installs chromium). PostgreSQL refuses to run as root, so under root (CI) the cluster belongs to the
 * unprivileged `postgres` user the package creates, and its processes run as that user.
 */
import { execFileSync, execSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './redis-harness.js';

const HOST = '127.0.0.1';
const SUPERUSER = 'gateway';

/** The directory of Debian's PostgreSQL binaries (newest major version), installing the package when absent. */
export function ensurePostgresBinaries(): string {
  const find = (): string | undefined => {
    const root = '/usr/lib/postgresql';
    if (!existsSync(root)) return undefined;
    const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
    return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
  };
  const found = find();
  if (found !== undefined) return found;
  execSync('apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql', { stdio: 'inherit' });
  const installed = find();
  if (installed === undefined) throw new Error('initdb is still not under /usr/lib/postgresql/*/bin after apt-get install postgresql');
  return installed;
}

/** Under root: the uid and gid of the unprivileged user the server runs as. Otherwise: run as ourselves. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

export class TestPostgres {
  private child: ChildProcess | undefined;
  private databases = 0;
  private readonly killOnExit = (): void => {
    this.child?.kill('SIGKILL');
  };

  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly bin: string,
    private readonly user: { uid: number; gid: number } | undefined,
  ) {}

  /** initdb in a fresh temporary directory, then the server on a free loopback port. */
  static async start(): Promise<TestPostgres> {
    const bin = ensurePostgresBinaries();
    const user = serverUser();
    const dir = mkdtempSync(join(tmpdir(), 'gw-pg-'));
    if (user !== undefined) chownSync(dir, user.uid, user.gid);
    const server = new TestPostgres(await freePort(), dir, bin, user);
    try {
      execFileSync(join(bin, 'initdb'), ['-D', join(dir, 'data'), '-U', SUPERUSER, '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'], {
        stdio: ['ignore', 'ignore', 'pipe'],
        ...(user ?? {}),
      });
      await server.startServer();
    } catch (err: unknown) {
      await server.dispose();
      throw err;
    }
    return server;
  }

  /** A URL for the maintenance database (to create more). */
  private url(database: string): string {
    return `postgres://${SUPERUSER}@${HOST}:${this.port}/${database}`;
  }

  /** A new, empty database on this server; its DATABASE_URL. */
  async createDatabase(prefix = 'gw'): Promise<string> {
    const name = `${prefix}_${process.pid}_${++this.databases}`;
    const client = new pg.Client({ connectionString: this.url('postgres') });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${name}`);
    } finally {
      await client.end();
    }
    return this.url(name);
  }

  /** Stops the server, as a crash or a failover would (fast shutdown: clients are cut off). */
  async stop(): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    this.child = undefined;
    process.removeListener('exit', this.killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT');
      await exited;
    }
  }

  /** Starts the server again on the same port and data (after stop()). */
  async restart(): Promise<void> {
    await this.startServer();
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** For a process 'exit' handler (nothing asynchronous runs there): kill the server, remove its files. */
  disposeNow(): void {
    this.child?.kill('SIGKILL');
    this.child = undefined;
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async startServer(): Promise<void> {
    // Durability settings off: a test cluster is thrown away, and fsync would only slow the suite down.
    const args = ['-D', join(this.dir, 'data'), '-p', String(this.port), '-k', this.dir, '-c', `listen_addresses=${HOST}`,
      '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'];
    const child = spawn(join(this.bin, 'postgres'), args, { stdio: ['ignore', 'ignore', 'pipe'], ...(this.user ?? {}) });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    this.child = child;
    // The server must not keep a finished test process alive (mocha waits for open handles): it is killed on exit.
    child.unref();
    (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
    process.once('exit', this.killOnExit);
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`postgres on ${this.port} exited (${String(code)}): ${stderr}`))),
    );
    exited.catch(() => undefined);
    await Promise.race([this.waitUntilAccepting(15_000), exited]);
  }

  private async waitUntilAccepting(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const client = new pg.Client({ connectionString: this.url('postgres') });
      try {
        await client.connect();
        await client.query('SELECT 1');
        await client.end();
        return;
      } catch (err: unknown) {
        await client.end().catch(() => undefined);
        if (Date.now() > deadline) throw new Error(`postgres on ${this.port} did not accept connections`, { cause: err });
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }
}

let shared: Promise<TestPostgres> | undefined;

/**
 * One server per test process, started on first use and removed when the process exits (the server is killed
 * and its directory deleted); each caller gets a fresh database on it (a database takes milliseconds, a cluster
 * about a second).
 */
export async function testDatabaseUrl(prefix = 'gw'): Promise<string> {
  shared ??= TestPostgres.start().then((server) => {
    process.once('exit', () => server.disposeNow());
    return server;
  });
  return (await shared).createDatabase(prefix);
}
