import { InvalidRequestError, RequestTooLargeError, type GatewayError } from '@gateway/shared';
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { scanJson } from './json-shape.js';

export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/**
 * A parsed body, with its bytes as sent and where its top-level model value lies in them (the forwarded body is
 * those bytes with only that value replaced, when nothing else about it changes).
 */
export type BodyResult =
  | { ok: true; json: unknown; bytes: number; raw: Buffer; model: { start: number; end: number } | undefined }
  | { ok: false; error: GatewayError };

/**
 * Reads and parses a JSON body with a size cap. Errors are returned, not thrown: the order of checks puts
 * 400/413 after authentication, so the caller decides when to send them. Past the cap, reading stops; the
 * error responder discards the rest (bounded) after the response. Depth and element count are checked on the
 * bytes before parsing, so a hostile shape is refused before it costs heap. A body whose outermost object names a
 * key twice is refused: JSON.parse keeps the last, other readers the first, so `{"model":A,…,"model":B}` could
 * be checked as one model and forwarded as the other.
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
    // Every listener is removed and the chunks dropped once the answer is known: the request object outlives the
    // answer (a refused body's socket is drained, a kept-alive one waits), and a listener's closure would keep up
    // to MAX_BODY_BYTES of chunks alive with it (the fuzz run held 800 MB of 64 KiB chunks that way).
    const finish = (r: BodyResult): void => {
      if (done) return;
      done = true;
      chunks.length = 0;
      req.off('data', onData);
      req.off('error', onError);
      req.off('end', onEnd);
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
    const onError = (): void => finish({ ok: false, error: new InvalidRequestError('The request body could not be read.') });
    const onEnd = (): void => {
      const raw = Buffer.concat(chunks, size);
      chunks.length = 0;
      const scan = scanJson(raw);
      if (scan.error !== undefined) {
        finish({ ok: false, error: scan.error });
        return;
      }
      const text = raw.toString('utf8');
      if (text.trim() === '') {
        finish({ ok: false, error: new InvalidRequestError('The request body is empty; a JSON object is required.') });
        return;
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (err) {
        finish({
          ok: false,
          error: new InvalidRequestError(`The request body is not valid JSON: ${err instanceof Error ? err.message : 'parse error'}.`),
        });
        return;
      }
      if (scan.topLevelMembers > 0 && Object.keys(json as object).length !== scan.topLevelMembers) {
        finish({ ok: false, error: new InvalidRequestError('The request body names a top-level key more than once; each may appear only once.') });
        return;
      }
      // Bytes that are not UTF-8 were read as U+FFFD: only the re-serialised body says what the gateway checked.
      finish({ ok: true, json, bytes: size, raw, model: isUtf8(raw) ? scan.model : undefined });
    };
    req.on('data', onData);
    req.once('error', onError);
    req.once('end', onEnd);
  });
}
