import { InvalidRequestError, RequestTooLargeError, type GatewayError } from '@gateway/shared';
import type { IncomingMessage } from 'node:http';
import { jsonShapeError } from './json-shape.js';

export const MAX_BODY_BYTES = 32 * 1024 * 1024;

export type BodyResult = { ok: true; json: unknown; bytes: number } | { ok: false; error: GatewayError };

/**
 * Reads and parses a JSON body with a size cap. Errors are returned, not thrown: the order of checks puts
 * 400/413 after authentication, so the caller decides when to send them. Past the cap, reading stops; the
 * error responder discards the rest (bounded) after the response. Depth and element count are checked on the
 * bytes before parsing, so a hostile shape is refused before it costs heap.
 */
export function readJsonBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.pause();
    return Promise.resolve({ ok: false, error: new RequestTooLargeError(limit) });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (r: BodyResult): void => {
      if (done) return;
      done = true;
      req.off('data', onData);
      resolve(r);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        finish({ ok: false, error: new RequestTooLargeError(limit) });
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('error', () => finish({ ok: false, error: new InvalidRequestError('The request body could not be read.') }));
    req.once('end', () => {
      const raw = Buffer.concat(chunks, size);
      chunks.length = 0;
      const shapeError = jsonShapeError(raw);
      if (shapeError !== undefined) {
        finish({ ok: false, error: shapeError });
        return;
      }
      const text = raw.toString('utf8');
      if (text.trim() === '') {
        finish({ ok: false, error: new InvalidRequestError('The request body is empty; a JSON object is required.') });
        return;
      }
      try {
        finish({ ok: true, json: JSON.parse(text) as unknown, bytes: size });
      } catch (err) {
        finish({
          ok: false,
          error: new InvalidRequestError(`The request body is not valid JSON: ${err instanceof Error ? err.message : 'parse error'}.`),
        });
      }
    });
  });
}
