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
});
