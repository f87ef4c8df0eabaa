import { expect } from 'chai';
import { parseRedisUrl } from '../../src/counters/redis-connection.js';

describe('parseRedisUrl', () => {
  it('leaves redis:// and rediss:// URLs to ioredis', () => {
    expect(parseRedisUrl('redis://127.0.0.1:6380/2')).to.deep.equal({ kind: 'single', url: 'redis://127.0.0.1:6380/2' });
    expect(parseRedisUrl('rediss://u:p@cache.example:6380')).to.deep.equal({ kind: 'single', url: 'rediss://u:p@cache.example:6380' });
  });

  it('reads the seed nodes and credentials of redis+cluster://', () => {
    expect(parseRedisUrl('redis+cluster://10.0.0.1:7000,10.0.0.2:7001,[::1]:7002,cache')).to.deep.equal({
      kind: 'cluster',
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
        { host: '::1', port: 7002 },
        { host: 'cache', port: 6379 },
      ],
    });
    expect(parseRedisUrl('redis+cluster://gw:s%40cret@h1:7000,h2:7000/')).to.deep.equal({
      kind: 'cluster',
      nodes: [
        { host: 'h1', port: 7000 },
        { host: 'h2', port: 7000 },
      ],
      username: 'gw',
      password: 's@cret',
    });
    expect(parseRedisUrl('redis+cluster://:pw@h1:7000')).to.deep.include({ password: 'pw' }).and.not.have.property('username');
  });

  it('refuses what it cannot read', () => {
    expect(() => parseRedisUrl('http://h:1')).to.throw(/redis:\/\//);
    expect(() => parseRedisUrl('redis+cluster://')).to.throw(/at least one/);
    expect(() => parseRedisUrl('redis+cluster://h1:99999')).to.throw(/port/);
  });
});
