import { expect } from 'chai';
import { IpAllowlist } from '../src/ip-allowlist.js';

describe('IpAllowlist', function () {
  it('matches standard spellings, IPv4-mapped IPv6 included', function () {
    const list = new IpAllowlist(['127.0.0.0/8', '10.0.0.0/8', '2001:db8::/32']);
    for (const a of ['127.0.0.1', '10.1.2.3', '::ffff:127.0.0.1', '::ffff:7f00:1', '2001:db8::1']) expect(list.allows(a), a).to.equal(true);
    expect(list.allows('192.0.2.1')).to.equal(false);
  });

  it('never reads an unusual IPv4 spelling as another address', function () {
    const list = new IpAllowlist(['127.0.0.0/8', '15.0.0.0/8', '10.0.0.0/8']);
    for (const a of ['0x7f.1', '127.1', '017.0.0.1', '0177.0.0.1', '2130706433', '127.0.0.01', '10.1', '0xa.0.0.1', '127.0.0.1 ', 'unknown', '']) {
      expect(list.allows(a), JSON.stringify(a)).to.equal(false);
    }
  });
});
