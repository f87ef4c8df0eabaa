import { expect } from 'chai';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Sha256 } from '@aws-crypto/sha256-js';
import { EventStreamCodec, MessageDecoderStream, type Message } from '@smithy/eventstream-codec';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { startBedrockFake, type AwsCredentials, type BedrockFake } from './index.js';
import { FrameWriter, chunkFrame } from './bedrock-frames.js';

const CREDS: AwsCredentials = { accessKeyId: 'AKIAFAKEFAKEFAKE', secretAccessKey: 'fake/secret+key' };
const REGION = 'eu-west-1';
const MODEL_ID = 'eu.anthropic.alpha-sonnet-5-v1:0';
const BODY = {
  anthropic_version: 'bedrock-2023-05-31',
  max_tokens: 64,
  messages: [{ role: 'user', content: 'Hello Bedrock' }],
};

interface SendOptions {
  op?: 'invoke' | 'invoke-with-response-stream';
  region?: string;
  signingRegion?: string;
  body?: unknown;
  /** Sent instead of the signed body: a tampered payload. */
  sentBody?: string;
  credentials?: AwsCredentials;
  signingDate?: Date;
  applyChecksum?: boolean;
  /** Sign the decoded path while sending the encoded one: the classic double-encoding slip. */
  signDecodedPath?: boolean;
  /** Skip SigV4 and send these headers instead. */
  unsigned?: Record<string, string>;
}

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  chunks: Buffer[];
  text: string;
}

/** Signs with @smithy/signature-v4 exactly as the AWS SDK does (encoded path, host header), then sends. */
async function send(fake: BedrockFake, o: SendOptions = {}): Promise<Reply> {
  const path = `/${o.region ?? REGION}/model/${encodeURIComponent(MODEL_ID)}/${o.op ?? 'invoke'}`;
  const body = JSON.stringify(o.body ?? BODY);
  let headers: Record<string, string> = { host: `127.0.0.1:${fake.port}`, 'content-type': 'application/json', accept: 'application/json' };
  if (o.unsigned !== undefined) {
    headers = { ...headers, ...o.unsigned };
  } else {
    const signer = new SignatureV4({
      service: 'bedrock',
      region: o.signingRegion ?? o.region ?? REGION,
      credentials: o.credentials ?? CREDS,
      sha256: Sha256,
      ...(o.applyChecksum !== undefined ? { applyChecksum: o.applyChecksum } : {}),
    });
    const toSign = new HttpRequest({
      method: 'POST',
      protocol: 'http:',
      hostname: '127.0.0.1',
      port: fake.port,
      path: o.signDecodedPath === true ? decodeURIComponent(path) : path,
      headers,
      body,
    });
    const signed = await signer.sign(toSign, o.signingDate !== undefined ? { signingDate: o.signingDate } : {});
    headers = signed.headers;
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: fake.port, method: 'POST', path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, chunks, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(o.sentBody ?? body);
  });
}

/**
 * Cuts a byte stream into whole frames by the prelude's total length, as the AWS SDK's chunked stream does:
 * a frame may arrive in several reads, or several frames in one.
 */
async function* wholeFrames(chunks: Iterable<Uint8Array>): AsyncIterable<Uint8Array> {
  let pending = Buffer.alloc(0);
  for (const chunk of chunks) {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 4 && pending.length >= pending.readUInt32BE(0)) {
      const total = pending.readUInt32BE(0);
      yield new Uint8Array(pending.subarray(0, total));
      pending = pending.subarray(total);
    }
  }
  expect(pending.length, 'trailing partial frame').to.equal(0);
}

/** Decodes the stream as the AWS SDK does: whole frames into a MessageDecoderStream over EventStreamCodec. */
async function decodeFrames(chunks: Buffer[]): Promise<Message[]> {
  const decoder = new MessageDecoderStream({ inputStream: wholeFrames(chunks), decoder: new EventStreamCodec(toUtf8, fromUtf8) });
  const messages: Message[] = [];
  for await (const m of decoder) messages.push(m);
  return messages;
}

function headerValue(m: Message, name: string): unknown {
  return m.headers[name]?.value;
}

/** The Messages event inside a chunk frame. */
function chunkEvent(m: Message): Record<string, unknown> {
  const payload = JSON.parse(toUtf8(m.body)) as { bytes: string; p: string };
  expect(payload.p).to.match(/^[a-zA-Z0-9]+$/);
  return JSON.parse(Buffer.from(payload.bytes, 'base64').toString('utf8')) as Record<string, unknown>;
}

describe('fakes: AWS Bedrock upstream', function () {
  let fake: BedrockFake;

  before(async () => {
    fake = await startBedrockFake({ credentials: CREDS, bearerToken: 'bedrock-api-key-fake' });
  });
  afterEach(() => fake.reset());
  after(() => fake.close());

  it('accepts a SigV4-signed InvokeModel and answers the vendor Message with token-count headers', async function () {
    const reply = await send(fake);
    expect(reply.status, reply.text).to.equal(200);
    const msg = JSON.parse(reply.text) as Record<string, unknown>;
    expect(msg['id']).to.match(/^msg_bdrk_01/);
    expect(msg).to.include({ type: 'message', role: 'assistant', model: 'alpha-sonnet-5', stop_reason: 'end_turn' });
    expect(msg['content']).to.deep.equal([{ type: 'text', text: 'Mock reply to: Hello Bedrock' }]);
    const usage = msg['usage'] as Record<string, number>;
    expect(reply.headers['content-type']).to.equal('application/json');
    expect(reply.headers['x-amzn-bedrock-input-token-count']).to.equal(String(usage['input_tokens']));
    expect(reply.headers['x-amzn-bedrock-output-token-count']).to.equal(String(usage['output_tokens']));
    expect(reply.headers['x-amzn-requestid']).to.match(/^[0-9a-f-]{36}$/);

    const rec = fake.requests[0]!;
    expect(rec).to.include({ region: REGION, modelId: MODEL_ID, signatureValid: true, authMethod: 'sigv4', authError: null });
    expect(rec).to.include({ path: `/${REGION}/model/eu.anthropic.alpha-sonnet-5-v1%3A0/invoke`, completed: true, status: 200 });
    expect(rec.json).to.deep.equal(BODY);
  });

  it('streams binary event-stream frames carrying the vendor events, metrics on message_stop', async function () {
    fake.enqueue({
      content: [{ type: 'thinking', thinking: 'ponder', signature: 'S' }, { type: 'text', text: 'Hello from the stream, in pieces.' }],
      chunkSize: 3,
      usage: { input_tokens: 20, output_tokens: 9 },
    });
    const reply = await send(fake, { op: 'invoke-with-response-stream' });
    expect(reply.status).to.equal(200);
    expect(reply.headers['content-type']).to.equal('application/vnd.amazon.eventstream');
    const frames = await decodeFrames(reply.chunks);
    for (const f of frames) {
      expect(headerValue(f, ':message-type')).to.equal('event');
      expect(headerValue(f, ':event-type')).to.equal('chunk');
      expect(headerValue(f, ':content-type')).to.equal('application/json');
    }
    const events = frames.map(chunkEvent);
    const types = events.map((e) => e['type']);
    expect(types[0]).to.equal('message_start');
    expect(types.slice(-2)).to.deep.equal(['message_delta', 'message_stop']);
    expect(types.filter((t) => t === 'content_block_start')).to.have.length(2);
    const text = events
      .map((e) => e['delta'] as { type?: string; text?: string } | undefined)
      .filter((d) => d?.type === 'text_delta')
      .map((d) => d?.text)
      .join('');
    expect(text).to.equal('Hello from the stream, in pieces.');
    expect(events.at(-2)!['usage']).to.deep.equal({ input_tokens: 20, output_tokens: 9 });
    const metrics = events.at(-1)!['amazon-bedrock-invocationMetrics'] as Record<string, number>;
    expect(metrics).to.include({ inputTokenCount: 20, outputTokenCount: 9 });
    expect(metrics['invocationLatency']).to.be.a('number');
    expect(metrics['firstByteLatency']).to.be.a('number');
    expect(events.slice(0, -1).some((e) => 'amazon-bedrock-invocationMetrics' in e)).to.equal(false);

    // Some frame arrived in two reads: the decoder had to reassemble it.
    const frameEnds = new Set<number>();
    let offset = 0;
    for (const f of frames) {
      offset += new EventStreamCodec(toUtf8, fromUtf8).encode(f).length;
      frameEnds.add(offset);
    }
    let read = 0;
    const splitReads = reply.chunks.filter((c) => !frameEnds.has((read += c.length)));
    expect(splitReads.length).to.be.greaterThan(0);
  });

  it('writes every third frame in two pieces, cutting inside the prelude or mid-payload', async function () {
    const writes: number[] = [];
    const writer = new FrameWriter(async (chunk) => {
      writes.push(chunk.length);
    }, 0);
    const frame = chunkFrame({ type: 'ping' });
    for (let i = 0; i < 6; i++) await writer.frame(frame);
    const n = frame.length;
    expect(writes).to.deep.equal([n, n, 7, n - 7, n, n, Math.floor(n / 2), n - Math.floor(n / 2)]);
  });

  it('ends with an exception frame on errorMidStream', async function () {
    fake.enqueue({ errorMidStream: { afterDeltas: 2, type: 'ThrottlingException', message: 'Too many tokens' }, chunkSize: 2 });
    fake.enqueue({ errorMidStream: { afterDeltas: 0, type: 'overloaded_error', message: 'Overloaded' } });
    const frames = await decodeFrames((await send(fake, { op: 'invoke-with-response-stream' })).chunks);
    const last = frames.at(-1)!;
    expect(headerValue(last, ':message-type')).to.equal('exception');
    expect(headerValue(last, ':exception-type')).to.equal('throttlingException');
    expect(JSON.parse(toUtf8(last.body))).to.deep.equal({ message: 'Too many tokens' });
    const deltas = frames.slice(0, -1).map(chunkEvent).filter((e) => e['type'] === 'content_block_delta');
    expect(deltas).to.have.length(2);

    const second = await decodeFrames((await send(fake, { op: 'invoke-with-response-stream' })).chunks);
    expect(second.map((f) => headerValue(f, ':message-type'))).to.deep.equal(['event', 'exception']);
    expect(headerValue(second[1]!, ':exception-type')).to.equal('serviceUnavailableException');
  });

  it('rejects bad or missing signatures with 403 and the AWS error type', async function () {
    const stale = new Date(Date.now() - 10 * 60 * 1000);
    const cases: Array<[string, SendOptions, string]> = [
      ['tampered body (x-amz-content-sha256 set)', { sentBody: JSON.stringify({ ...BODY, max_tokens: 65 }) }, 'InvalidSignatureException'],
      ['tampered body (no payload hash header)', { applyChecksum: false, sentBody: JSON.stringify({ ...BODY, max_tokens: 65 }) }, 'InvalidSignatureException'],
      ['wrong secret', { credentials: { ...CREDS, secretAccessKey: 'not-the-secret' } }, 'InvalidSignatureException'],
      ['unknown access key', { credentials: { ...CREDS, accessKeyId: 'AKIAOTHER' } }, 'UnrecognizedClientException'],
      ['unexpected session token', { credentials: { ...CREDS, sessionToken: 'tok' } }, 'UnrecognizedClientException'],
      ['scope region differs from the path', { signingRegion: 'eu-central-1' }, 'InvalidSignatureException'],
      ['stale x-amz-date', { signingDate: stale }, 'InvalidSignatureException'],
      ['decoded path signed, encoded path sent', { signDecodedPath: true }, 'InvalidSignatureException'],
      ['no authorization', { unsigned: {} }, 'UnrecognizedClientException'],
      ['wrong bearer token', { unsigned: { authorization: 'Bearer nope' } }, 'UnrecognizedClientException'],
    ];
    const messages: string[] = [];
    for (const [name, options, errorType] of cases) {
      const reply = await send(fake, options);
      expect(reply.status, name).to.equal(403);
      expect(reply.headers['x-amzn-errortype'], name).to.equal(errorType);
      const body = JSON.parse(reply.text) as { message: string };
      expect(body.message, name).to.be.a('string').and.not.equal('');
      expect(fake.requests.at(-1)).to.include({ signatureValid: false, authError: body.message });
      messages.push(`${name}: ${body.message}`);
    }
    // Each failure is caught by its own check, not by an earlier one.
    expect(messages.filter((m) => m.includes('signature we calculated'))).to.have.length(3);
    expect(messages.some((m) => m.includes("'x-amz-content-sha256'"))).to.equal(true);
    expect(messages.some((m) => m.includes('scoped to a valid region'))).to.equal(true);
    expect(messages.some((m) => m.includes('Signature expired'))).to.equal(true);
  });

  it('accepts a signature without x-amz-content-sha256 (the hash is then computed from the body)', async function () {
    const reply = await send(fake, { applyChecksum: false });
    expect(reply.status, reply.text).to.equal(200);
    expect(fake.requests[0]!.headers).not.to.have.property('x-amz-content-sha256');
    expect(fake.requests[0]!.signatureValid).to.equal(true);
  });

  it('accepts a Bedrock API key as a bearer token', async function () {
    const reply = await send(fake, { unsigned: { authorization: 'Bearer bedrock-api-key-fake' } });
    expect(reply.status).to.equal(200);
    expect(fake.requests[0]).to.include({ authMethod: 'bearer', signatureValid: false, authError: null });
  });

  it('verifies a session token when the credentials carry one', async function () {
    const withToken = { ...CREDS, sessionToken: 'session-token-fake' };
    const sts = await startBedrockFake({ credentials: withToken });
    try {
      expect((await send(sts, { credentials: withToken })).status).to.equal(200);
      expect(sts.requests[0]!.headers['x-amz-security-token']).to.equal('session-token-fake');
      const missing = await send(sts);
      expect(missing.status).to.equal(403);
      expect(missing.headers['x-amzn-errortype']).to.equal('UnrecognizedClientException');
    } finally {
      await sts.close();
    }
  });

  it('validates the body like Bedrock: no model or stream, the bedrock anthropic_version', async function () {
    const cases: unknown[] = [
      { ...BODY, model: 'alpha-sonnet-5' },
      { ...BODY, stream: true },
      { ...BODY, anthropic_version: undefined },
      { ...BODY, anthropic_version: '2023-06-01' },
      { ...BODY, max_tokens: undefined },
      { ...BODY, messages: undefined },
      { ...BODY, anthropic_beta: 'not-an-array' },
    ];
    for (const body of cases) {
      const reply = await send(fake, { body });
      expect(reply.status, JSON.stringify(body)).to.equal(400);
      expect(reply.headers['x-amzn-errortype']).to.equal('ValidationException');
      expect((JSON.parse(reply.text) as { message: string }).message).to.match(/^Malformed input request/);
    }
    expect(fake.requests.every((r) => r.signatureValid)).to.equal(true);
    const ok = await send(fake, { body: { ...BODY, anthropic_beta: ['some-beta-2025-01-01'] } });
    expect(ok.status).to.equal(200);
  });

  it('maps errorBefore to Bedrock exceptions by type, then by status', async function () {
    fake.enqueue(
      { errorBefore: { status: 429 } },
      { errorBefore: { status: 429, type: 'ModelNotReadyException' } },
      { errorBefore: { status: 529, type: 'overloaded_error', message: 'Overloaded' } },
      { errorBefore: { status: 500 } },
      { errorBefore: { status: 408 } },
      { errorBefore: { status: 403, type: 'permission_error' } },
    );
    const seen: Array<[number, unknown, string]> = [];
    for (let i = 0; i < 6; i++) {
      const r = await send(fake, { op: i % 2 === 0 ? 'invoke' : 'invoke-with-response-stream' });
      seen.push([r.status, r.headers['x-amzn-errortype'], (JSON.parse(r.text) as { message: string }).message]);
    }
    expect(seen.map(([s, t]) => [s, t])).to.deep.equal([
      [429, 'ThrottlingException'],
      [429, 'ModelNotReadyException'],
      [503, 'ServiceUnavailableException'],
      [500, 'InternalServerException'],
      [408, 'ModelTimeoutException'],
      [403, 'AccessDeniedException'],
    ]);
    expect(seen[2]![2]).to.equal('Overloaded');
  });

  it('answers 404 off the Bedrock routes', async function () {
    const res = await fetch(`${fake.url}/${REGION}/model/x/converse`, { method: 'POST', body: '{}' });
    expect(res.status).to.equal(404);
    expect(res.headers.get('x-amzn-errortype')).to.equal('UnknownOperationException');
  });

  it('records a client that disconnects from a stalled stream as clientAborted', async function () {
    fake.enqueue({ hangAfterDeltas: 1 });
    const controller = new AbortController();
    const path = `/${REGION}/model/${encodeURIComponent(MODEL_ID)}/invoke-with-response-stream`;
    const signer = new SignatureV4({ service: 'bedrock', region: REGION, credentials: CREDS, sha256: Sha256 });
    const signed = await signer.sign(
      new HttpRequest({
        method: 'POST',
        protocol: 'http:',
        hostname: '127.0.0.1',
        port: fake.port,
        path,
        headers: { host: `127.0.0.1:${fake.port}`, 'content-type': 'application/json' },
        body: JSON.stringify(BODY),
      }),
    );
    const res = await fetch(`${fake.url}${path}`, {
      method: 'POST',
      headers: Object.fromEntries(Object.entries(signed.headers).filter(([k]) => k !== 'host')),
      body: JSON.stringify(BODY),
      signal: controller.signal,
    });
    expect(res.status).to.equal(200);
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await fake.waitFor((reqs) => reqs[0]?.clientAborted === true);
    expect(fake.requests[0]).to.include({ completed: false, signatureValid: true });
  });
});
