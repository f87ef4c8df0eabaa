import { createHash } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';

/** A single Redis server or a Redis Cluster: the store treats both alike. */
export type RedisClient = Redis | Cluster;

/**
 * A Lua script run by EVALSHA, one round trip; after a Redis restart (or on a cluster node that has not seen
 * it yet) the server answers NOSCRIPT and the script is sent once with EVAL, which caches it again.
 */
export class RedisScript {
  readonly sha: string;

  constructor(readonly name: string, readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(client: RedisClient, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    try {
      return await client.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (err: unknown) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return client.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}
