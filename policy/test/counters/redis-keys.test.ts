import { expect } from 'chai';
import { accountOf, RedisKeys } from '../../src/counters/redis-keys.js';

describe('RedisKeys', () => {
  const keys = new RedisKeys('gw:');

  it('tags every key of an account with {<accountId>} so they share one cluster hash slot', () => {
    const period = { accountId: 'acct_x', periodId: '2026-11' };
    const all = [
      keys.window('acct_x:live:rpm', 29_000_000),
      keys.window('acct_x:live:key:key_y:rpm', 29_000_000),
      keys.leases('acct_x:live'),
      keys.used(period),
      keys.rebuilding(period),
      keys.reservations('acct_x'),
      keys.reservedUnits('acct_x'),
    ];
    expect(all).to.deep.equal([
      'gw:win:{acct_x}:live:rpm:29000000',
      'gw:win:{acct_x}:live:key:key_y:rpm:29000000',
      'gw:lease:{acct_x}:live',
      'gw:used:{acct_x}:2026-11',
      'gw:rebuilding:{acct_x}:2026-11',
      'gw:resv:{acct_x}',
      'gw:resvu:{acct_x}',
    ]);
  });

  it('keeps live and test scopes apart', () => {
    expect(keys.leases('acct_x:live')).to.not.equal(keys.leases('acct_x:test'));
    expect(keys.window('acct_x:live:rpm', 1)).to.not.equal(keys.window('acct_x:test:rpm', 1));
  });

  it('refuses a scope without its account prefix, and a prefix that would break the hash tag', () => {
    expect(accountOf('acct_x:live')).to.equal('acct_x');
    expect(() => keys.leases('nocolon')).to.throw(/accountId/);
    expect(() => keys.leases(':live')).to.throw(/accountId/);
    expect(() => new RedisKeys('gw{x}:')).to.throw(/prefix/);
  });
});
