import { expect } from 'chai';
import { connect } from 'node:net';
import { TestGateway, createKey, type CreatedKey } from '../harness/gateway.js';
import { rawExchange, vendorBody, type RawReply } from './raw-http.js';

function expectRawVendorError(r: RawReply, status: number, type: string): void {
  expect(r.status, r.raw.slice(0, 600)).to.equal(status);
  const body = vendorBody(r);
  expect(body?.type, r.raw.slice(0, 600)).to.equal('error');
  expect(body?.error?.type).to.equal(type);
  expect(body?.request_id).to.match(/^req_[A-Za-z0-9]{24,}$/);
  expect(r.headers['request-id']).to.equal(body?.request_id);
  expect(r.headers['content-type']).to.equal('application/json');
}

const hello = JSON.stringify({ model: 'alpha-sonnet-5', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });

describe('malformed HTTP and refusals of unread bodies', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let key: CreatedKey;
  let port: number;

  before(async function () {
    gw = await new TestGateway().start();
    key = await createKey(gw, { plan: { name: 'hostile-http', rpm: 100_000, concurrency: 100 } });
    port = gw.ports[0] as number;
  });
  after(async () => gw.stop());

  const head = (lines: string[]): string => `${lines.join('\r\n')}\r\n\r\n`;

  describe('what Node parser refuses is answered in the vendor shape with a request id', function () {
    const cases: Array<[string, () => string, number]> = [
      ['two different Content-Lengths', () => head(['POST /v1/messages HTTP/1.1', 'Host: x', `x-api-key: ${key.key}`, 'Content-Length: 5', 'Content-Length: 6']) + 'hello!', 400],
      ['a non-numeric Content-Length', () => head(['POST /v1/messages HTTP/1.1', 'Host: x', 'Content-Length: abc']), 400],
      ['a negative Content-Length', () => head(['POST /v1/messages HTTP/1.1', 'Host: x', 'Content-Length: -1']), 400],
      ['Transfer-Encoding with Content-Length', () => head(['POST /v1/messages HTTP/1.1', 'Host: x', 'Transfer-Encoding: chunked', 'Content-Length: 5']) + '0\r\n\r\n', 400],
      ['a bad chunk size', () => head(['POST /v1/messages HTTP/1.1', 'Host: x', `x-api-key: ${key.key}`, 'Transfer-Encoding: chunked']) + 'zz\r\nhello\r\n0\r\n\r\n', 400],
      ['a control character in a header value', () => head(['POST /v1/messages HTTP/1.1', 'Host: x', 'X-Thing: a\x01b', 'Content-Length: 0']), 400],
      ['a space in a header name', () => head(['GET /v1/models HTTP/1.1', 'Host: x', 'Bad Header: 1']), 400],
      ['an invalid method', () => head(['P@ST /v1/messages HTTP/1.1', 'Host: x']), 400],
      ['an invalid HTTP version', () => head(['GET /v1/models HTTP/9.x', 'Host: x']), 400],
      ['headers over 16 KiB', () => head(['GET /v1/models HTTP/1.1', 'Host: x', `X-Big: ${'a'.repeat(20 * 1024)}`]), 431],
      ['many headers over 16 KiB in all', () => head(['GET /v1/models HTTP/1.1', 'Host: x', ...Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'b'.repeat(50)}`)]), 431],
    ];
    for (const [name, request, status] of cases) {
      it(name, async function () {
        const r = await rawExchange(port, [request()]);
        expectRawVendorError(r, status, 'invalid_request_error');
        expect(r.headers['connection']).to.equal('close');
      });
    }

    it('Expect other than 100-continue: a vendor-shaped 417', async function () {
      const r = await rawExchange(port, [head(['POST /v1/messages HTTP/1.1', 'Host: x', 'Expect: the-unexpected', 'Content-Length: 0', 'Connection: close'])]);
      expectRawVendorError(r, 417, 'invalid_request_error');
    });

    it('CONNECT: a vendor-shaped 405, not a dropped socket', async function () {
      const r = await rawExchange(port, [head(['CONNECT example.com:443 HTTP/1.1', 'Host: example.com:443'])]);
      expectRawVendorError(r, 405, 'invalid_request_error');
    });

    it('an HTTP/1.1 request without Host is served like any other', async function () {
      const r = await rawExchange(port, [head(['GET /v1/models HTTP/1.1', 'x-api-key: gw_test_nope', 'Connection: close'])]);
      expectRawVendorError(r, 401, 'authentication_error');
    });

    it('never quotes the request back (a key in a refused request stays out of the answer)', async function () {
      const r = await rawExchange(port, [head(['POST /v1/messages HTTP/1.1', 'Host: x', `x-api-key: ${key.key}`, 'Content-Length: 1', 'Content-Length: 2'])]);
      expect(r.status).to.equal(400);
      expect(r.raw).not.to.contain(key.key);
    });
  });

  describe('a refusal before the body is read reaches a client that is still sending', function () {
    it('no key, a chunked body still being sent: the client reads the 401', async function () {
      const r = await rawExchange(
        port,
        [head(['POST /v1/messages HTTP/1.1', 'Host: x', 'content-type: application/json', 'Transfer-Encoding: chunked'])],
        { keepWriting: { chunk: Buffer.from(`4000\r\n${'x'.repeat(0x4000)}\r\n`), maxBytes: 40 * 1024 * 1024 }, timeoutMs: 15_000 },
      );
      expectRawVendorError(r, 401, 'authentication_error');
    });

    it('a body over 32 MiB still being sent: the client reads the 413', async function () {
      const size = 40 * 1024 * 1024;
      const r = await rawExchange(
        port,
        [head(['POST /v1/messages HTTP/1.1', 'Host: x', `x-api-key: ${key.key}`, 'content-type: application/json', `Content-Length: ${size}`])],
        { keepWriting: { chunk: Buffer.alloc(64 * 1024, 0x20), maxBytes: size }, timeoutMs: 15_000 },
      );
      if (r.status !== 413) console.log('DEBUG', r.reset, r.raw.length, r.raw.slice(0, 300));
      expectRawVendorError(r, 413, 'request_too_large');
    });

    it('a body over 32 MiB sent chunked: the client reads the 413', async function () {
      const r = await rawExchange(
        port,
        [head(['POST /v1/messages HTTP/1.1', 'Host: x', `x-api-key: ${key.key}`, 'content-type: application/json', 'Transfer-Encoding: chunked'])],
        { keepWriting: { chunk: Buffer.from(`10000\r\n${' '.repeat(0x10000)}\r\n`), maxBytes: 48 * 1024 * 1024 }, timeoutMs: 15_000 },
      );
      if (r.status !== 413) console.log('DEBUG', r.reset, r.raw.length, r.raw.slice(0, 300));
      expectRawVendorError(r, 413, 'request_too_large');
    });

    it('fetch (undici) with a 40 MB body and no key gets the 401, not a reset', async function () {
      const res = await fetch(gw.url('/v1/messages'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.alloc(40 * 1024 * 1024, 0x20) });
      expect(res.status).to.equal(401);
      const body = (await res.json()) as { error: { type: string } };
      expect(body.error.type).to.equal('authentication_error');
    });

    it('cuts a client that keeps sending past the discard bound (64 MiB) after a refusal', async function () {
      const socket = connect({ port, host: '127.0.0.1' });
      await new Promise((r) => socket.once('connect', r));
      socket.on('data', () => undefined);
      const chunk = Buffer.from(`100000\r\n${'x'.repeat(0x100000)}\r\n`);
      let sent = 0;
      const cut = await new Promise<boolean>((resolve) => {
        socket.once('error', () => resolve(true));
        socket.once('close', () => resolve(true));
        socket.write(head(['POST /v1/messages HTTP/1.1', 'Host: x', 'Transfer-Encoding: chunked']));
        const pump = (): void => {
          while (sent < 512 * 1024 * 1024) {
            sent += chunk.length;
            if (!socket.write(chunk)) {
              socket.once('drain', pump);
              return;
            }
          }
          resolve(false);
        };
        pump();
      });
      socket.destroy();
      expect(cut, 'the connection was cut').to.equal(true);
      expect(sent).to.be.above(64 * 1024 * 1024); // the answer was out long before: the rest was discarded, not refused
      expect(sent).to.be.below(200 * 1024 * 1024);
    });

    it('the connection still serves the next request after a refused body was discarded', async function () {
      const refused = head(['POST /v1/messages HTTP/1.1', 'Host: x', 'Content-Length: 5']) + 'hello';
      const next = head(['POST /v1/messages HTTP/1.1', 'Host: x', `x-api-key: ${key.key}`, 'content-type: application/json', `Content-Length: ${hello.length}`]) + hello;
      const r = await rawExchange(port, [refused, next], { gapMs: 100, timeoutMs: 1_500, replies: 2 });
      expect(r.status).to.equal(401);
      expect(r.raw).to.match(/HTTP\/1\.1 200 OK/);
    });
  });
});
