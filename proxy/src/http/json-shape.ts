import { InvalidRequestError } from '@gateway/shared';

/**
 * Deepest nesting of objects and arrays a request body may have. The API's own shapes nest about eight deep
 * (body → messages → message → content → tool_result → content → document → source …) and tool inputs and
 * schemas rarely pass 20; 128 is serde_json's default. The bound keeps every recursive walk over the body
 * (JSON.stringify on the way upstream, structured clones to worker threads) far from the stack's limit.
 */
export const MAX_JSON_DEPTH = 128;

/**
 * Most JSON elements (objects, arrays, strings and commas, i.e. about two per value) a body may have. Parsed,
 * each costs ~60–200 bytes of heap however short its text, so a 26 MB body of one-character blocks once cost
 * ~550 MB; capped, a body costs a bounded few tens of MB on top of its own size. No context window holds
 * 500,000 elements' worth of tokens anyway.
 */
export const MAX_JSON_ELEMENTS = 500_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/** What one pass over a body's bytes found, before JSON.parse built anything. */
export interface JsonScan {
  /** depth or element count past its bound */
  error: InvalidRequestError | undefined;
  /**
   * Members of the outermost object as written (0 when the body is not an object). More than the parsed object
   * has keys means a key is written twice: JSON.parse keeps the last, a scan for it finds the first.
   */
  topLevelMembers: number;
  /** Byte range of the top-level `"model"` member's string value, quotes included; undefined when none. */
  model: { start: number; end: number } | undefined;
}

const MODEL_KEY = Buffer.from('"model"');

/**
 * Checks depth and element count on the raw bytes, before JSON.parse builds anything: one pass, no allocation,
 * string contents skipped with indexOf where they hold no escapes (32 MiB of text in ~3 ms, of anything ~110 ms). Malformed JSON is left for
 * JSON.parse to report; only what it would accept matters. The same pass counts the outermost object's members
 * and finds where its model value lies, so the upstream model id can be spliced in without serialising again.
 */
export function scanJson(body: Buffer): JsonScan {
  let depth = 0;
  let elements = 0;
  let members = 0;
  // In the outermost object: the next string is a key; the last key was "model".
  let isObject = false;
  let expectKey = false;
  let afterModelKey = false;
  let model: JsonScan['model'];
  const scan = (error: InvalidRequestError | undefined): JsonScan => ({ error, topLevelMembers: isObject ? members : 0, model });
  // Position of the next backslash at or after the scan, -1 when none is left; -2 until first looked up.
  let nextBackslash = -2;
  const n = body.length;
  for (let i = 0; i < n; i += 1) {
    const c = body[i];
    if (c === QUOTE) {
      elements += 1;
      const open = i;
      // Jump to the closing quote: memchr-speed while no backslash comes first, then byte by byte.
      const quote = body.indexOf(QUOTE, i + 1);
      if (quote === -1) return scan(undefined); // unterminated: JSON.parse reports it
      if (nextBackslash !== -1 && nextBackslash <= i) nextBackslash = body.indexOf(BACKSLASH, i + 1);
      if (nextBackslash === -1 || nextBackslash > quote) {
        i = quote;
      } else {
        let k = nextBackslash;
        while (k < n && body[k] !== QUOTE) k += body[k] === BACKSLASH ? 2 : 1;
        if (k >= n) return scan(undefined);
        i = k;
      }
      if (depth === 1 && isObject) {
        if (expectKey) {
          members += 1;
          expectKey = false;
          afterModelKey = i + 1 - open === MODEL_KEY.length && body.compare(MODEL_KEY, 0, MODEL_KEY.length, open, i + 1) === 0;
        } else if (afterModelKey) {
          model ??= { start: open, end: i + 1 };
          afterModelKey = false;
        }
      }
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth += 1;
      elements += 1;
      if (depth === 1) {
        isObject = c === OPEN_OBJECT;
        expectKey = isObject;
      }
      if (depth > MAX_JSON_DEPTH) {
        return scan(new InvalidRequestError(`The request body nests JSON more than ${MAX_JSON_DEPTH} levels deep.`));
      }
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth -= 1;
    } else if (c === COMMA) {
      elements += 1;
      if (depth === 1) {
        expectKey = isObject;
        afterModelKey = false;
      }
    } else {
      continue;
    }
    if (elements > MAX_JSON_ELEMENTS) {
      return scan(new InvalidRequestError(
        `The request body has more than ${MAX_JSON_ELEMENTS} JSON elements (objects, arrays, strings and values); send fewer, larger content blocks.`,
      ));
    }
  }
  return scan(undefined);
}

/** Depth and element count only (scanJson's error). */
export function jsonShapeError(body: Buffer): InvalidRequestError | undefined {
  return scanJson(body).error;
}
