import { Cluster, Redis, type ClusterNode, type RedisOptions } from 'ioredis';
import type { Logger } from '@gateway/shared';
import type { RedisClient } from './redis-script.js';

export interface RedisConnectionOptions {
  /** how long one connection attempt may take */
  connectTimeoutMs?: number;
  /** how long a sent command may wait for its reply before it fails */
  commandTimeoutMs?: number;
  /** the longest pause between reconnection attempts */
  maxReconnectDelayMs?: number;
}

export type RedisTarget =
  | { kind: 'single'; url: string }
  | { kind: 'cluster'; nodes: ClusterNode[]; username?: string; password?: string };

/**
 * `redis://…` and `rediss://…` name one server (ioredis reads the URL); `redis+cluster://[user:pass@]h1:p1,h2:p2`
 * names the seed nodes of a cluster.
 */
export function parseRedisUrl(url: string): RedisTarget {
  const cluster = /^redis\+cluster:\/\/(.*)$/.exec(url);
  if (cluster === null) {
    if (!/^rediss?:\/\//.test(url)) throw new Error('a Redis URL starts with redis://, rediss:// or redis+cluster://');
    return { kind: 'single', url };
  }
  let rest = cluster[1] ?? '';
  const slash = rest.indexOf('/');
  if (slash >= 0) rest = rest.slice(0, slash);
  const at = rest.lastIndexOf('@');
  const auth = at >= 0 ? rest.slice(0, at) : '';
  const hosts = at >= 0 ? rest.slice(at + 1) : rest;
  const nodes = hosts.split(',').filter((h) => h !== '').map(parseHostPort);
  if (nodes.length === 0) throw new Error('a redis+cluster:// URL names at least one host:port');
  const target: RedisTarget = { kind: 'cluster', nodes };
  if (auth !== '') {
    const colon = auth.indexOf(':');
    const username = decodeURIComponent(colon >= 0 ? auth.slice(0, colon) : '');
    const password = decodeURIComponent(colon >= 0 ? auth.slice(colon + 1) : auth);
    if (username !== '') target.username = username;
    if (password !== '') target.password = password;
  }
  return target;
}

function parseHostPort(hostPort: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d+))?$/.exec(hostPort);
  if (m === null) throw new Error(`"${hostPort}" is not host:port`);
  const port = m[3] === undefined ? 6379 : Number(m[3]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`"${hostPort}" has no valid port`);
  return { host: m[1] ?? m[2] ?? '', port };
}

/**
 * A client that fails fast while Redis is down, so a decision can answer 503 instead of hanging: no offline
 * queue (a command sent while disconnected fails at once), short connect and command timeouts, and no resend of
 * a command whose connection dropped (an admit is not idempotent: resending could count it twice). It reconnects
 * by itself, forever, so the store recovers when Redis returns.
 */
export function createRedisClient(url: string, options: RedisConnectionOptions = {}): RedisClient {
  const target = parseRedisUrl(url);
  const maxDelay = options.maxReconnectDelayMs ?? 1_000;
  const retry = (times: number): number => Math.min(50 * times, maxDelay);
  const common: RedisOptions = {
    connectTimeout: options.connectTimeoutMs ?? 2_000,
    commandTimeout: options.commandTimeoutMs ?? 1_000,
    maxRetriesPerRequest: 0,
    // Commands issued in one tick leave in one write (the decisions of many requests at once), still in order.
    enableAutoPipelining: true,
  };
  if (target.kind === 'single') {
    return new Redis(target.url, { ...common, enableOfflineQueue: false, retryStrategy: retry });
  }
  return new Cluster(target.nodes, {
    enableOfflineQueue: false,
    clusterRetryStrategy: retry,
    slotsRefreshTimeout: common.connectTimeout ?? 2_000,
    redisOptions: {
      ...common,
      ...(target.username === undefined ? {} : { username: target.username }),
      ...(target.password === undefined ? {} : { password: target.password }),
    },
  });
}

/** Resolves true once the client is ready, false on its first error or after `timeoutMs` (it keeps trying). */
export function waitUntilReady(client: RedisClient, timeoutMs: number): Promise<boolean> {
  if (client.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean): void => {
      clearTimeout(timer);
      client.off('ready', onReady);
      client.off('error', onError);
      resolve(ready);
    };
    const onReady = (): void => done(true);
    const onError = (): void => done(false);
    const timer = setTimeout(() => done(false), timeoutMs);
    client.on('ready', onReady);
    client.on('error', onError);
  });
}

/**
 * Logs when Redis becomes unreachable and when it is back, once per change rather than once per reconnection
 * attempt. Also gives ioredis an error listener, without which it prints every connection error to the console.
 */
export function watchConnection(client: RedisClient, log: Logger | undefined): void {
  let up = client.status === 'ready';
  client.on('ready', () => {
    if (!up) log?.info('counter store (Redis) reachable');
    up = true;
  });
  client.on('error', (err: unknown) => {
    if (up) log?.warn({ err }, 'counter store (Redis) unreachable; decisions answer 503 until it returns');
    up = false;
  });
}
