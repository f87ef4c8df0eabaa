import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { readJsonBody, type BodyResult } from '../../src/http/body-reader.js';

/** A request body stream as the reader sees it: a readable with headers (no socket needed for what it reads). */
function request(headers: Record<string, string> = {}): PassThrough & IncomingMessage {
  return Object.assign(new PassThrough(), { headers }) as unknown as PassThrough & IncomingMessage;
}

/** The reader's own listeners still on the request: each would keep its closure, chunks included, alive. */
function readerListeners(req: PassThrough): number {
  return req.listenerCount('data') + req.listenerCount('end') + req.listenerCount('error');
}

function failed(r: BodyResult): { status: number; message: string } {
  if (r.ok) throw new Error('expected a refused body');
  return { status: r.error.status, message: r.error.message };
}

describe('readJsonBody', function () {
  it('parses a body and says where its model value lies in the bytes', async function () {
    const req = request();
    const reading = readJsonBody(req);
    req.end('{"max_tokens":5,"model":"alpha-sonnet-5","messages":[]}');
    const r = await reading;
    if (!r.ok) throw new Error(r.error.message);
    expect(r.json).to.deep.equal({ max_tokens: 5, model: 'alpha-sonnet-5', messages: [] });
    expect(r.bytes).to.equal(r.raw.length);
    expect(r.raw.subarray(r.model!.start, r.model!.end).toString()).to.equal('"alpha-sonnet-5"');
    expect(readerListeners(req)).to.equal(0);
  });

  it('past the cap answers 413, stops reading and lets go of what it had read', async function () {
    const req = request();
    const reading = readJsonBody(req, 1024);
    req.write(Buffer.alloc(600, 0x20));
    req.write(Buffer.alloc(600, 0x20));
    const r = await reading;
    expect(failed(r).status).to.equal(413);
    expect(req.isPaused()).to.equal(true);
    // The request outlives the answer (its socket is drained afterwards): nothing of the reader may stay on it.
    expect(readerListeners(req)).to.equal(0);
  });

  it('a declared length past the cap is refused before a byte is read', async function () {
    const req = request({ 'content-length': String(2048) });
    const r = await readJsonBody(req, 1024);
    expect(failed(r).status).to.equal(413);
    expect(readerListeners(req)).to.equal(0);
  });

  it('invalid JSON, an empty body and a repeated top-level key are 400s that leave no listener behind', async function () {
    for (const [body, says] of [
      ['{"model":', 'not valid JSON'],
      ['  ', 'empty'],
      ['{"model":"a","messages":[],"model":"b"}', 'more than once'],
    ] as const) {
      const req = request();
      const reading = readJsonBody(req);
      req.end(body);
      const r = failed(await reading);
      expect(r.status, body).to.equal(400);
      expect(r.message, body).to.contain(says);
      expect(readerListeners(req), body).to.equal(0);
    }
  });

  it('a stream error is a 400 and the reader is gone from the request afterwards', async function () {
    const req = request();
    const reading = readJsonBody(req);
    req.write('{"model":"a"');
    req.destroy(new Error('socket hang up'));
    const r = failed(await reading);
    expect(r.status).to.equal(400);
    expect(r.message).to.contain('could not be read');
    expect(readerListeners(req)).to.equal(0);
  });
});
