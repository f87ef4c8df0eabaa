import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { createLogger, type Grant } from '@gateway/shared';
import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AttestationKeyRing, Attestor } from '../../src/attestation/index.js';
import type { Exchange, ExchangeResult } from '../../src/exchange.js';
import type { MessagesBody } from '../../src/messages-request.js';
import { MessagesUpstream } from '../../src/upstream/messages-upstream.js';
import { AbortHandle } from '../../src/abort-handle.js';

const EVENTS = [
  { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'up-model', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 1 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hello' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } },
  { type: 'message_stop' },
];
const SSE = EVENTS.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');

const listen = async (s: Server): Promise<number> => {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as AddressInfo).port;
};

describe('upstream call: a 200 answer starts only with its attestation on the response', function () {
  let dir: string;
  let ring: AttestationKeyRing;
  let upstream: Server;
  let front: Server;
  let received: Buffer[];
  let agent: Agent;

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), 'attested-start-'));
    ring = await AttestationKeyRing.open({ keyFile: join(dir, 'keys.pem'), inDataDir: true, retainDays: 30 }, createLogger('test', 'silent'));
    const attestor = new Attestor(ring, createLogger('test', 'silent'), 'a'.repeat(64));
    upstream = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push(Buffer.concat(chunks));
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(SSE);
      });
    });
    agent = new Agent();
    const up = new MessagesUpstream({ url: `http://127.0.0.1:${await listen(upstream)}/v1`, apiKey: 'k', timeoutMs: 5_000, client: agent });
    front = createServer((req: IncomingMessage, res: ServerResponse) => {
      const grant = {
        key: { key_id: 'key_1', account_id: 'acct_1', environment: 'live', residency: 'eu', privacy_mode: 'off' },
        model: 'alpha-sonnet-5',
        route: { upstream_model: 'up-model', call_region: 'eu-central-1', processing_regions: ['eu-central-1'] },
        lease_id: '', lease_expires_unix_ms: 0, reserved_units: 0, evidence: null,
      } as Grant;
      const body: MessagesBody = { model: 'up-model', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] };
      const x: Exchange = {
        req, res, requestId: 'req_1', log: createLogger('test', 'silent'), grant, body, sent: undefined, stream: true, apiVersion: '2023-06-01',
        scenario: undefined, restorer: null, signal: new AbortHandle(), attestation: attestor.admitted('req_1', grant, 'c'.repeat(64)), attempt: 0,
      };
      void up.respond(x).then((r: ExchangeResult) => {
        lastResult = r;
        res.end();
      });
    });
    frontPort = await listen(front);
  });
  after(async function () {
    front.close();
    upstream.close();
    await agent.close();
    rmSync(dir, { recursive: true, force: true });
  });
  let frontPort = 0;
  let lastResult: ExchangeResult | undefined;
  beforeEach(() => (received = []));

  it('relays the stream with the header signed for 200 over the very bytes the upstream received', async function () {
    const res = await fetch(`http://127.0.0.1:${frontPort}/`, { method: 'POST' });
    const jws = res.headers.get('x-gateway-attestation') ?? '';
    const text = await res.text();
    expect(text).to.contain('event: message_stop').and.to.contain('hello');
    expect(lastResult?.outcome).to.equal('ok');
    expect(lastResult?.usage.output_tokens).to.equal(2);
    const [h, p, sig] = jws.split('.') as [string, string, string];
    const jwk = ring.jwks().keys[0];
    expect(JSON.parse(Buffer.from(h, 'base64url').toString())).to.deep.equal({ alg: 'EdDSA', kid: jwk?.kid });
    const publicKey = createPublicKey({ key: { ...jwk }, format: 'jwk' });
    expect(verify(null, Buffer.from(`${h}.${p}`), publicKey, Buffer.from(sig, 'base64url'))).to.equal(true);
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    expect(claims['status']).to.equal(200);
    expect(received).to.have.length(1);
    expect(claims['forwarded_body_sha256']).to.equal(createHash('sha256').update(received[0] as Buffer).digest('hex'));
  });
});
