import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { ClientAddressResolver } from '../../src/http/client-address.js';

const req = (peer: string, xff?: string) =>
  ({ socket: { remoteAddress: peer }, headers: xff === undefined ? {} : { 'x-forwarded-for': xff } }) as unknown as IncomingMessage;

describe('client address', function () {
  it('uses the socket peer when no proxy is trusted, whatever X-Forwarded-For says', function () {
    const r = new ClientAddressResolver([]);
    expect(r.resolve(req('::ffff:192.0.2.1', '203.0.113.5'))).to.equal('::ffff:192.0.2.1');
  });

  it('walks X-Forwarded-For from the right past trusted hops only', function () {
    const r = new ClientAddressResolver(['10.0.0.0/8', '::1']);
    expect(r.resolve(req('10.0.0.2', '203.0.113.5'))).to.equal('203.0.113.5');
    expect(r.resolve(req('::1', '1.1.1.1, 203.0.113.5, 10.9.9.9'))).to.equal('203.0.113.5');
    expect(r.resolve(req('::ffff:10.0.0.2', '2001:db8::7'))).to.equal('2001:db8::7');
    // an untrusted peer's header is ignored
    expect(r.resolve(req('192.0.2.1', '203.0.113.5'))).to.equal('192.0.2.1');
    // a trusted peer with no header is the source
    expect(r.resolve(req('10.0.0.2'))).to.equal('10.0.0.2');
  });

  it('never reads an unusual spelling in X-Forwarded-For as another address', function () {
    const r = new ClientAddressResolver(['10.0.0.0/8', '127.0.0.0/8']);
    for (const spelled of ['0x7f.1', '127.1', '017.0.0.1', '0177.0.0.1', '2130706433', '127.0.0.01', '0x0a.0.0.1', '10.1', ' 10.0.0.1x', '::ffff:0x7f.1']) {
      // as the right-most entry: "unknown" (not trusted, so not skipped; matches no allowlist)
      expect(r.resolve(req('10.0.0.2', `203.0.113.5, ${spelled}`)), spelled).to.equal('unknown');
    }
    // IPv4-mapped IPv6 is the same address, so a trusted proxy written that way is still skipped
    expect(r.resolve(req('10.0.0.2', '203.0.113.5, ::ffff:10.0.0.3'))).to.equal('203.0.113.5');
    expect(r.resolve(req('10.0.0.2', '203.0.113.5, ::ffff:7f00:1'))).to.equal('203.0.113.5');
    // ports and brackets as balancers add them
    expect(r.resolve(req('10.0.0.2', '203.0.113.5:4711'))).to.equal('203.0.113.5');
    expect(r.resolve(req('10.0.0.2', '[2001:db8::7]:443'))).to.equal('2001:db8::7');
  });
});
