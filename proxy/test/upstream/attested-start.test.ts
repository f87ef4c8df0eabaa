import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { createLogger, type Grant } from '@gateway/shared';
import type { RequestAttestation } from '../../src/attestation/index.js';
import type { Exchange, ExchangeResult } from '../../src/exchange.js';
import type { MessagesBody } from '../../src/messages-request.js';
import { MessagesUpstream } from '../../src/upstream/messages-upstream.js';

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

/** An attestation whose 200 statement is slow to sign: the upstream's answer must wait for it. */
function lateAttestation(delayMs: number) {
  const seen = { forwarded: [] as Buffer[], attachedAt: 0 };
  const attestation = {
    privacy: () => undefined,
    forwarded: (bytes: Uint8Array | string) => void seen.forwarded.push(Buffer.from(bytes)),
    attach: (res: ServerResponse, status: number) =>
      new Promise<void>((resolve) => setTimeout(() => {
        seen.attachedAt = performance.now();
        res.setHeader('x-gateway-attestation', `signed-for-${status}`);
        resolve();
      }, delayMs)),
  };
  return { seen, attestation: attestation as unknown as RequestAttestation };
}

describe('upstream call: a 200 answer starts only with its attestation on the response', function () {
  let upstream: Server;
  let front: Server;
  let received: Buffer[];
  let answeredAt: number;
  let agent: Agent;

  before(async function () {
    upstream = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push(Buffer.concat(chunks));
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(SSE);
        answeredAt = performance.now();
      });
    });
    agent = new Agent();
    const up = new MessagesUpstream({ url: `http://127.0.0.1:${await listen(upstream)}/v1`, apiKey: 'k', timeoutMs: 5_000, client: agent });
    front = createServer((req: IncomingMessage, res: ServerResponse) => {
      const late = lateAttestation(150);
      lastLate = late;
      const grant = {
        key: { key_id: 'key_1', account_id: 'acct_1', environment: 'live', residency: 'eu', privacy_mode: 'off' },
        model: 'alpha-sonnet-5',
        route: { upstream_model: 'up-model', call_region: 'eu-central-1', processing_regions: ['eu-central-1'] },
        lease_id: '', lease_expires_unix_ms: 0, reserved_units: 0, evidence: null,
      } as Grant;
      const body: MessagesBody = { model: 'up-model', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] };
      const x: Exchange = {
        req, res, requestId: 'req_1', log: createLogger('test', 'silent'), grant, body, stream: true, apiVersion: '2023-06-01',
        scenario: undefined, restorer: null, signal: new AbortController().signal, attestation: late.attestation,
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
  });
  let frontPort = 0;
  let lastLate: ReturnType<typeof lateAttestation> | undefined;
  let lastResult: ExchangeResult | undefined;
  beforeEach(() => (received = []));

  it('holds the upstream\'s stream until the signature is ready, then relays all of it with the header', async function () {
    const res = await fetch(`http://127.0.0.1:${frontPort}/`, { method: 'POST' });
    const headersAt = performance.now();
    expect(res.headers.get('x-gateway-attestation')).to.equal('signed-for-200');
    const text = await res.text();
    expect(text).to.contain('event: message_stop').and.to.contain('hello');
    expect(lastResult?.outcome).to.equal('ok');
    expect(lastResult?.usage.output_tokens).to.equal(2);
    // The upstream had answered in full well before the header could go.
    expect(lastLate?.seen.attachedAt).to.be.greaterThan(answeredAt + 100);
    expect(headersAt).to.be.at.least(lastLate?.seen.attachedAt ?? Infinity);
    // The digest is taken of the very bytes the upstream received.
    expect(lastLate?.seen.forwarded).to.have.length(1);
    expect(lastLate?.seen.forwarded[0]?.equals(received[0] as Buffer)).to.equal(true);
  });
});
