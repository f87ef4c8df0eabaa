/*
 * Disposable Redis servers for tests: a single redis-server, or a 3-master Redis Cluster, on free loopback ports,
 * each with its own temporary directory and no persistence. Nothing here ever touches another Redis on the
 * machine (such as one on 6379): every command names the port of a server this harness started, or the URL given
 * in REDIS_URL, where only keys under this run's prefix are deleted.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Cluster, Redis } from 'ioredis';

const run = promisify(execFile);
const HOST = '127.0.0.1';

/** A port nobody listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** One redis-server process that can be stopped and started again on the same port. */
export class RedisServerProcess {
  private child: ChildProcess | undefined;
  private readonly killOnExit = (): void => {
    this.child?.kill('SIGKILL');
  };

  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly extraArgs: string[],
  ) {}

  /** @param options.port a port of your choosing (default: a free one); options.extraArgs more server options */
  static async start(options: { port?: number; extraArgs?: (dir: string) => string[] } = {}): Promise<RedisServerProcess> {
    const dir = await mkdtemp(join(tmpdir(), 'gw-redis-'));
    const server = new RedisServerProcess(options.port ?? (await freePort()), dir, options.extraArgs?.(dir) ?? []);
    try {
      await server.start();
    } catch (err: unknown) {
      await server.dispose();
      throw err;
    }
    return server;
  }

  get url(): string {
    return `redis://${HOST}:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.child !== undefined) return;
    const args = ['--port', String(this.port), '--bind', HOST, '--save', '', '--appendonly', 'no', '--dir', this.dir, ...this.extraArgs];
    const child = spawn('redis-server', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    this.child = child;
    process.once('exit', this.killOnExit);
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`redis-server on ${this.port} exited (${String(code)}): ${stderr}`))),
    );
    exited.catch(() => undefined);
    await Promise.race([waitForPong(this.port, 5_000), exited]);
  }

  /** Stops the server (its data is gone: nothing is persisted). */
  async stop(): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    this.child = undefined;
    process.off('exit', this.killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    child.kill('SIGCONT'); // a paused server must wake up to act on SIGTERM
    const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
    await exited;
    clearTimeout(timer);
  }

  /** Freezes the process (SIGSTOP): connections stay open but nothing is answered. */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  /** Stops the server and removes its directory. */
  async dispose(): Promise<void> {
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** Resolves when a server on the port answers PING; rejects after `timeoutMs`. */
export async function waitForPong(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await pingOnce(port)) return;
    if (Date.now() > deadline) throw new Error(`no Redis answered PING on ${HOST}:${port}`);
    await sleep(25);
  }
}

function pingOnce(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: HOST, port });
    let reply = '';
    const finish = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) finish(reply.startsWith('+PONG'));
    });
  });
}

/** A 3-master Redis Cluster on loopback, no replicas. */
export class RedisClusterProcesses {
  private constructor(readonly nodes: RedisServerProcess[]) {}

  static async start(): Promise<RedisClusterProcesses> {
    const nodes: RedisServerProcess[] = [];
    try {
      for (let i = 0; i < 3; i += 1) {
        // The bus port is chosen too (Redis 7), as port + 10000 might be taken or past 65535.
        const busPort = await freePort();
        nodes.push(
          await RedisServerProcess.start({ extraArgs: (dir) => [
            '--cluster-enabled', 'yes',
            '--cluster-config-file', join(dir, 'nodes.conf'),
            '--cluster-port', String(busPort),
            '--cluster-node-timeout', '2000',
          ] }),
        );
      }
      const cluster = new RedisClusterProcesses(nodes);
      await run('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `${HOST}:${n.port}`), '--cluster-replicas', '0', '--cluster-yes']);
      await cluster.waitUntilOk(10_000);
      return cluster;
    } catch (err: unknown) {
      await Promise.all(nodes.map((n) => n.dispose()));
      throw err;
    }
  }

  get url(): string {
    return `redis+cluster://${this.nodes.map((n) => `${HOST}:${n.port}`).join(',')}`;
  }

  async dispose(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.dispose()));
  }

  private async waitUntilOk(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const infos = await Promise.all(
        this.nodes.map(async (n) => (await run('redis-cli', ['-h', HOST, '-p', String(n.port), 'cluster', 'info'])).stdout),
      );
      if (infos.every((info) => info.includes('cluster_state:ok'))) return;
      if (Date.now() > deadline) throw new Error('the test Redis Cluster did not reach cluster_state:ok');
      await sleep(100);
    }
  }
}

/** A Redis for one test run: REDIS_URL when given (only this run's keys are touched), else a disposable server. */
export interface TestRedis {
  url: string;
  /** prefix of every key this run writes */
  keyPrefix: string;
  /** Deletes every key under this run's prefix (on every master of a cluster). */
  flush(): Promise<void>;
  dispose(): Promise<void>;
}

export async function startTestRedis(): Promise<TestRedis> {
  const given = process.env['REDIS_URL'];
  if (given !== undefined && given !== '') return testRedisAt(given, async () => undefined);
  const server = await RedisServerProcess.start();
  return testRedisAt(server.url, () => server.dispose());
}

export async function startTestRedisCluster(): Promise<TestRedis> {
  const cluster = await RedisClusterProcesses.start();
  return testRedisAt(cluster.url, () => cluster.dispose());
}

function testRedisAt(url: string, stop: () => Promise<void>): TestRedis {
  const keyPrefix = `gwtest:${randomBytes(6).toString('hex')}:`;
  return {
    url,
    keyPrefix,
    flush: () => deleteKeys(url, `${keyPrefix}*`),
    async dispose() {
      await deleteKeys(url, `${keyPrefix}*`).catch(() => undefined);
      await stop();
    },
  };
}

async function deleteKeys(url: string, pattern: string): Promise<void> {
  const cluster = url.startsWith('redis+cluster://');
  const client = cluster
    ? new Cluster(
        url.slice('redis+cluster://'.length).split(',').map((hostPort) => {
          const [host, port] = hostPort.split(':');
          return { host: host ?? HOST, port: Number(port) };
        }),
      )
    : new Redis(url);
  try {
    if (client instanceof Cluster && client.status !== 'ready') await new Promise((resolve) => client.once('ready', resolve));
    const servers = client instanceof Cluster ? client.nodes('master') : [client];
    for (const server of servers) {
      let cursor = '0';
      do {
        const [next, keys] = await server.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
        cursor = next;
        // One DEL per key: on a cluster the keys of one batch may sit in different slots.
        for (const key of keys) await server.del(key);
      } while (cursor !== '0');
    }
  } finally {
    client.disconnect();
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
