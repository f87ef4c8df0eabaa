import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import { TestGateway, createKey, type CreatedKey } from '../harness/gateway.js';
import { rawExchange, vendorBody } from './raw-http.js';

/** An open TCP connection, and when (ms after connecting) the server closed it, if it did. */
function openSocket(port: number): Promise<{ socket: Socket; closedAfter: Promise<number>; received: () => string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', () => undefined);
    const closedAfter = new Promise<number>((r) => socket.once('close', () => r(performance.now() - started)));
    socket.once('connect', () => resolve({ socket, closedAfter, received: () => Buffer.concat(chunks).toString('latin1') }));
    socket.once('error', reject);
  });
}

const within = <T>(p: Promise<T>, ms: number): Promise<T | 'timeout'> =>
  Promise.race([p, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), ms))]);

describe('connection caps and slow senders', function () {
  this.timeout(60_000);

  describe('per source', function () {
    let gw: TestGateway;
    before(async function () {
      gw = await new TestGateway({ env: { MAX_CONNECTIONS_PER_SOURCE: '5' } }).start();
    });
    after(async () => gw.stop());

    it('closes a connection past the per-source cap at once, and takes new ones when others close', async function () {
      const port = gw.ports[0] as number;
      const held = await Promise.all([1, 2, 3, 4, 5].map(() => openSocket(port)));
      const extra = await openSocket(port);
      expect(await within(extra.closedAfter, 2_000), 'the sixth connection is closed').to.be.a('number');
      expect(extra.received()).to.equal('');
      held[0]?.socket.destroy();
      await held[0]?.closedAfter;
      await new Promise((r) => setTimeout(r, 100));
      const res = await fetch(gw.url('/healthz'));
      expect(res.status).to.equal(200);
      for (const h of held) h.socket.destroy();
    });
  });

  describe('in all', function () {
    let gw: TestGateway;
    before(async function () {
      gw = await new TestGateway({ env: { MAX_CONNECTIONS: '4' } }).start();
    });
    after(async () => gw.stop());

    it('closes connections past the total cap', async function () {
      const port = gw.ports[0] as number;
      const held = await Promise.all([1, 2, 3, 4].map(() => openSocket(port)));
      const extra = await openSocket(port);
      expect(await within(extra.closedAfter, 2_000)).to.be.a('number');
      for (const h of held) h.socket.destroy();
    });
  });

  describe('timeouts', function () {
    let gw: TestGateway;
    let key: CreatedKey;
    before(async function () {
      gw = await new TestGateway({ env: { HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000' } }).start();
      key = await createKey(gw);
    });
    after(async () => gw.stop());

    it('answers a client that dribbles its headers with a vendor-shaped 408 within ~2 s', async function () {
      const started = performance.now();
      const pieces = ['GET /v1/models HTTP/1.1\r\nHost: x\r\n', ...Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: y\r\n`)];
      const r = await rawExchange(gw.ports[0] as number, pieces, { gapMs: 250, timeoutMs: 8_000 });
      const took = performance.now() - started;
      expect(r.status, r.raw).to.equal(408);
      expect(vendorBody(r)?.error?.type).to.equal('timeout_error');
      expect(r.headers['request-id']).to.match(/^req_/);
      expect(took).to.be.below(3_500);
    });

    it('cuts a client that dribbles its body after REQUEST_TIMEOUT_MS', async function () {
      const started = performance.now();
      const head = `POST /v1/messages HTTP/1.1\r\nHost: x\r\nx-api-key: ${key.key}\r\ncontent-type: application/json\r\nContent-Length: 1000\r\n\r\n`;
      const r = await rawExchange(gw.ports[0] as number, [head, ...Array.from({ length: 40 }, () => ' ')], { gapMs: 250, timeoutMs: 8_000 });
      expect(performance.now() - started).to.be.below(4_500);
      // Answered 408 by the parser's timeout, or refused by the route once the body reader saw the socket go.
      expect([408, 400, 0]).to.include(r.status);
    });

    it('closes a connection that never sends anything', async function () {
      const idle = await openSocket(gw.ports[0] as number);
      expect(await within(idle.closedAfter, 4_000)).to.be.a('number');
    });

    it('does not cut a response that runs longer than the request timeout (a 5 s stream)', async function () {
      const res = await fetch(gw.url('/v1/messages'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key.key, 'x-gateway-test-scenario': 'slow_stream' },
        body: JSON.stringify({ model: 'alpha-sonnet-5', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'take your time' }] }),
      });
      expect(res.status).to.equal(200);
      const text = await res.text();
      expect(text).to.contain('event: message_stop');
    });
  });
});

