import type { Exchange } from '../exchange.js';

/**
 * The body a Messages upstream gets: the client's bytes with the model value replaced by the route's model id
 * where the exchange carries them (the body was read once and nothing but the model changes), else the body
 * serialised. Splicing skips a JSON.stringify of the whole body and its UTF-8 encoding on every attempt.
 */
export function forwardedBody(x: Exchange): Buffer | string {
  const sent = x.sent;
  if (sent === undefined) return JSON.stringify(x.body);
  const { bytes, model } = sent;
  return Buffer.concat([bytes.subarray(0, model.start), Buffer.from(JSON.stringify(x.body.model)), bytes.subarray(model.end)]);
}
