/**
 * Generated malformed requests for the fuzz suite: seeded, so a run (or one case) can be replayed exactly.
 * Each case is raw bytes for one TCP connection, so headers, framing and pacing can be as wrong as the body.
 */

import { Prng } from '../support/prng.js';

export interface FuzzKeys {
  test: string[];
  live: string[];
}

export interface FuzzCase {
  category: string;
  name: string;
  /** bytes written in order, `gapMs` apart */
  pieces: Array<string | Buffer>;
  gapMs?: number;
  /** a well-formed request may be served: 2xx is then as good as a vendor-shaped 4xx */
  mayPass?: boolean;
  /** the server is expected to wait for more, then answer 408 (slow or short senders) */
  slow?: boolean;
}

const MODELS = ['alpha-sonnet-5', 'alpha-sonnet-4-6', 'alpha-haiku-4-5', 'alpha-opus-5'];
const PATHS = ['/v1/messages', '/v1/messages/count_tokens', '/v1/messages?beta=true'];

function validBody(rng: Prng): Record<string, unknown> {
  return {
    model: rng.pick(MODELS),
    max_tokens: rng.int(1, 64),
    messages: [{ role: 'user', content: rng.pick(['hello', 'Say hi', 'Write a haiku']) }],
    ...(rng.chance(0.2) ? { stream: true } : {}),
  };
}

function head(method: string, path: string, headers: Array<[string, string]>): string {
  return `${method} ${path} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
}

/** A POST with a valid key and a correct Content-Length around `body`; extra headers appended. */
function postBody(rng: Prng, keys: FuzzKeys, body: string | Buffer, extra: Array<[string, string]> = [], path = rng.pick(PATHS)): Array<string | Buffer> {
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  const key = rng.chance(0.25) ? rng.pick(keys.live) : rng.pick(keys.test);
  const auth: [string, string] = rng.chance(0.5) ? ['x-api-key', key] : ['authorization', `Bearer ${key}`];
  return [
    head('POST', path, [['Host', 'gateway'], auth, ['content-type', 'application/json'], ['Content-Length', String(buf.length)], ['Connection', 'close'], ...extra]),
    buf,
  ];
}

const nest = (open: string, close: string, depth: number, inner: string) => open.repeat(depth) + inner + close.repeat(depth);

// ---------------------------------------------------------------------------------------------------------------
// Bodies

function invalidJson(rng: Prng, keys: FuzzKeys): FuzzCase {
  const valid = JSON.stringify(validBody(rng));
  const variants: Array<[string, () => string | Buffer]> = [
    ['truncated', () => valid.slice(0, rng.int(0, valid.length - 1))],
    ['trailing garbage', () => `${valid}${rng.pick(['}', ']', ',', 'x', '{}', '\u0000'])}`],
    ['random bytes', () => Buffer.from(Array.from({ length: rng.int(1, 2000) }, () => rng.int(0, 255)))],
    ['NaN and Infinity', () => valid.replace(/"max_tokens":\d+/, `"max_tokens":${rng.pick(['NaN', 'Infinity', '-Infinity', '1e309', '0x10'])}`)],
    ['comments', () => `/* hi */${valid}`],
    ['single quotes', () => valid.replaceAll('"', "'")],
    ['byte-order mark', () => `\ufeff${valid}`],
    ['empty', () => ''],
    ['whitespace only', () => ' \n\t\r '.repeat(rng.int(1, 100))],
    ['invalid UTF-8', () => Buffer.concat([Buffer.from(valid.slice(0, -3)), Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80]), Buffer.from('"}]}')])],
    ['unquoted keys', () => valid.replace(/"(\w+)":/g, '$1:')],
    ['a bare value', () => rng.pick(['null', 'true', '42', '"string"', '[]', '[1,2,3]'])],
    ['duplicate keys, the last one wrong', () => `${valid.slice(0, -1)},"model":7}`],
    ['unterminated string', () => `{"model":"${'a'.repeat(rng.int(1, 5000))}`],
    ['bad escape', () => valid.replace(/"content":"/, `"content":"${rng.pick(['\\q', '\\u12G4', '\\x41', '\\'])}`)],
    ['control characters in strings', () => valid.replace(/"content":"[^"]*"/, '"content":"a\u0001b\u001fc"')],
  ];
  const [name, make] = rng.pick(variants);
  // count_tokens ignores max_tokens, so only /v1/messages must refuse a bad one
  const path = name === 'NaN and Infinity' ? '/v1/messages' : rng.pick(PATHS);
  return { category: 'invalid JSON', name, pieces: postBody(rng, keys, make(), [], path) };
}

function deepJson(rng: Prng, keys: FuzzKeys): FuzzCase {
  const depth = rng.pick([129, 200, 1_000, 20_000, 100_000, rng.int(129, 300_000)]);
  const b = validBody(rng);
  const variants: Array<[string, () => string]> = [
    ['arrays in an unread field', () => JSON.stringify(b).replace('{', `{"extra":${nest('[', ']', depth, '')},`)],
    ['objects in an unread field', () => JSON.stringify(b).replace('{', `{"extra":${nest('{"a":', '}', depth, '1')},`)],
    ['nested tool_result blocks', () => JSON.stringify({ ...b, messages: [{ role: 'user', content: '@@' }] }).replace('"@@"', `[${nest('{"type":"tool_result","tool_use_id":"t","content":[', ']}', Math.min(depth, 60_000), '{"type":"text","text":"x"}')}]`)],
    ['deep tool_use input', () => JSON.stringify({ ...b, messages: [{ role: 'assistant', content: '@@' }, { role: 'user', content: 'x' }] }).replace('"@@"', `[{"type":"tool_use","id":"t","name":"n","input":${nest('{"k":', '}', depth, '"v"')}}]`)],
    ['deep system', () => JSON.stringify({ ...b, system: '@@' }).replace('"@@"', nest('[', ']', depth, '{"type":"text","text":"s"}'))],
    ['deep metadata', () => JSON.stringify({ ...b, metadata: '@@' }).replace('"@@"', nest('{"user_id":', '}', depth, '"u"'))],
    ['unbalanced deep open', () => `{"model":"alpha-sonnet-5","x":${'['.repeat(depth)}`],
  ];
  const [name, make] = rng.pick(variants);
  return { category: 'deep JSON', name: `${name} (${depth})`, pieces: postBody(rng, keys, make()) };
}

function hugeStrings(rng: Prng, keys: FuzzKeys): FuzzCase {
  const size = rng.pick([300, 70_000, 1_100_000, 4 * 1024 * 1024 + rng.int(1, 1000)]);
  const big = 'x'.repeat(size);
  const b = validBody(rng);
  const variants: Array<[string, () => string, boolean]> = [
    ['model', () => JSON.stringify({ ...b, model: big }), false],
    ['text past the 4 MiB text limit', () => JSON.stringify({ ...b, messages: [{ role: 'user', content: 'y'.repeat(4 * 1024 * 1024 + rng.int(1, 5000)) }] }), false],
    ['role', () => JSON.stringify({ ...b, messages: [{ role: big, content: 'hi' }] }), true], // any string role is forwarded
    ['block type', () => JSON.stringify({ ...b, messages: [{ role: 'user', content: [{ type: big }] }] }), true],
    ['tool_use id', () => JSON.stringify({ ...b, messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: big, name: 'n', input: {} }] }, { role: 'user', content: 'x' }] }), true],
    ['object key', () => JSON.stringify(b).replace('{', `{"${big}":1,`), true],
    ['many messages', () => JSON.stringify({ ...b, messages: Array.from({ length: rng.int(1_000, 60_000) }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: 'a' })) }), true],
    // Seven JSON elements a block ({, four strings, two commas): more than the proxy's 500,000 from 71,429 blocks on
    // (70,000 blocks, this case's old lower bound, is a body within the limits and rightly served).
    ['many one-character blocks', () => JSON.stringify({ ...b, messages: [{ role: 'user', content: Array.from({ length: rng.int(72_000, 400_000) }, () => ({ type: 'text', text: 'a' })) }] }), false],
    ['many empty arrays', () => JSON.stringify(b).replace('{', `{"extra":[${'[],'.repeat(rng.int(300_000, 1_000_000))}[]],`), false],
  ];
  const [name, make, mayPass] = rng.pick(variants);
  return { category: 'huge strings and counts', name: `${name} (${size})`, pieces: postBody(rng, keys, make()), mayPass };
}

function wrongTypes(rng: Prng, keys: FuzzKeys): FuzzCase {
  const b = validBody(rng);
  const junk = (): unknown => rng.pick([null, 0, -1, 1.5, 1e308, '', 'x', true, false, [], {}, [null], { a: 1 }, '12', 2 ** 53 + 1]);
  const variants: Array<[string, () => Record<string, unknown>]> = [
    ['model', () => ({ ...b, model: rng.pick([null, 7, [], {}, true, '']) })],
    ['max_tokens', () => ({ ...b, max_tokens: rng.pick([null, '16', -5, 0, 1.5, 1e12, [], {}, true, 2 ** 32 + 1]) })],
    ['messages', () => ({ ...b, messages: rng.pick([null, 'hi', 7, {}, [], [null], [7], ['hi']]) })],
    ['role', () => ({ ...b, messages: [{ role: rng.pick([null, 7, [], {}, true]), content: 'hi' }] })],
    ['content', () => ({ ...b, messages: [{ role: 'user', content: rng.pick([null, 7, {}, true, [null], [7], ['hi'], [{}], [{ type: 7 }]]) }] })],
    ['stream', () => ({ ...b, stream: rng.pick(['true', 1, 0, null, [], {}]) })],
    ['missing fields', () => {
      const c: Record<string, unknown> = { ...b };
      delete c[rng.pick(['model', 'messages', 'max_tokens'])];
      return c;
    }],
    ['everything', () => ({ model: junk(), max_tokens: junk(), messages: junk(), stream: junk(), system: junk() })],
  ];
  const [name, make] = rng.pick(variants);
  const path = rng.pick(PATHS);
  // count_tokens takes no max_tokens or stream: those mutations may be served there.
  const mayPass = path.includes('count_tokens') && (name === 'max_tokens' || name === 'stream' || name === 'missing fields');
  return { category: 'wrong types', name, pieces: postBody(rng, keys, JSON.stringify(make()), [], path), mayPass };
}

function unicode(rng: Prng, keys: FuzzKeys): FuzzCase {
  const texts = [
    '\u202eevil\u202c', '\u200b\u200c\u200d\ufeff', '👩‍👩‍👧‍👦🏳️‍🌈', 'e\u0301\u0301\u0301', '\u0000nul', '\\ud800 lone', '𝕳𝖊𝖑𝖑𝖔',
    'ｊａｎｅ＠ｅｘａｍｐｌｅ．ｃｏｍ', 'jane@exa\u200bmple.com', '０２０ ７９４６ ０９５８', '\uffff\ufffe', 'ǅ ß ﬃ İ', '\u2028\u2029',
    '[EMAIL_1] [REDACTED_PHONE]', '٠١٢٣٤٥٦٧٨٩', 'a'.repeat(rng.int(1, 100)),
  ];
  const t = rng.pick(texts);
  const b = validBody(rng);
  const variants: Array<[string, () => string, boolean]> = [
    ['text', () => JSON.stringify({ ...b, messages: [{ role: 'user', content: t }] }), true],
    ['lone surrogate escapes', () => JSON.stringify({ ...b, messages: [{ role: 'user', content: '@@' }] }).replace('"@@"', `"a\\ud800b\\udc00c\\udbff"`), true],
    ['unicode model', () => JSON.stringify({ ...b, model: `alpha-sonnet-5${t}` }), false],
    // any string role is forwarded (CONTRACT.md: forward compatibility), so this one may be served
    ['unicode role', () => JSON.stringify({ ...b, messages: [{ role: `user${t}`, content: 'x' }] }), true],
    ['fullwidth JSON punctuation', () => JSON.stringify(b).replaceAll('{', '｛'), false],
    ['unicode in a header value', () => '', false],
  ];
  const [name, make, mayPass] = rng.pick(variants);
  if (name === 'unicode in a header value') {
    const key = rng.pick(keys.test);
    const body = Buffer.from(JSON.stringify(b));
    return {
      category: 'unicode',
      name,
      pieces: [Buffer.from(head('POST', '/v1/messages', [['Host', 'x'], ['x-api-key', key], ['anthropic-version', `2023-06-01${t}`], ['Content-Length', String(body.length)], ['Connection', 'close']]), 'utf8'), body],
    };
  }
  return { category: 'unicode', name, pieces: postBody(rng, keys, make()), mayPass };
}

function injection(rng: Prng, keys: FuzzKeys): FuzzCase {
  const payloads = [
    '../../etc/passwd', "' OR '1'='1' --", '${jndi:ldap://x/a}', '<script>alert(1)</script>', '{{7*7}}', '%00', '\r\nX-Injected: 1',
    '; rm -rf /', '$(id)', '`id`', 'alpha-sonnet-5\u0000', 'alpha-sonnet-5%0d%0aX-A:1', 'alpha-fable-5', '*', 'eu.anthropic.alpha-sonnet-5-v1:0',
  ];
  const p = rng.pick(payloads);
  const b = validBody(rng);
  const variants: Array<[string, () => FuzzCase]> = [
    ['model', () => ({ category: 'injection', name: 'model', pieces: postBody(rng, keys, JSON.stringify({ ...b, model: p })) })],
    ['prototype pollution', () => ({
      category: 'injection', name: 'prototype pollution', mayPass: true,
      pieces: postBody(rng, keys, JSON.stringify(b).replace('{', `{"__proto__":{"kind":"allow","admin":true},"constructor":{"prototype":{"x":1}},`)),
    })],
    // A key written twice: JSON.parse keeps the last, a scan for it the first, so the model checked and the model
    // forwarded could differ. Refused, whichever key and however it is spelled.
    ['duplicate top-level key', () => {
      const key = rng.pick(['"model"', '"mod\\u0065l"', '"max_tokens"', '"messages"']);
      const value = key === '"max_tokens"' ? String(rng.int(1, 64)) : key === '"messages"' ? '[{"role":"user","content":"hi"}]' : JSON.stringify(rng.pick([...MODELS, p]));
      const body = JSON.stringify(b);
      const twice = rng.chance(0.5) ? `${body.slice(0, -1)},${key}:${value}}` : `{${key}:${value},${body.slice(1)}`;
      return { category: 'injection', name: `duplicate top-level key ${key}`, pieces: postBody(rng, keys, twice) };
    }],
    // (count_tokens has no scenarios, so it does not read the header)
    ['test scenario header', () => ({ category: 'injection', name: 'test scenario header', pieces: postBody(rng, keys, JSON.stringify(b), [['x-gateway-test-scenario', p.replace(/[\r\n]/g, '')]], '/v1/messages') })],
    ['version header', () => ({ category: 'injection', name: 'version header', pieces: postBody(rng, keys, JSON.stringify(b), [['anthropic-version', p.replace(/[\r\n]/g, '')]]) })],
    ['path', () => {
      const path = rng.pick(['/v1/../v1/messages', '/v1/messages%00', '/v1/models/%2e%2e%2fusage', '/v1/models/..%2f..%2f', '//v1//messages', '/v1/messages/', '/V1/MESSAGES', '/v1/models/%ff%fe', `/v1/models/${encodeURIComponent(p)}`, '/v1/messages;x=1', '/%', '/v1/models/%']);
      const key = rng.pick(keys.test);
      return { category: 'injection', name: `path ${path}`, mayPass: true, pieces: [head(rng.pick(['GET', 'POST']), path, [['Host', 'x'], ['x-api-key', key], ['Content-Length', '0'], ['Connection', 'close']])] };
    }],
    ['forwarded-for', () => {
      const key = rng.pick(keys.test);
      const xff = rng.pick(['127.1', '0x7f.1', '017.0.0.1', '::ffff:127.0.0.1', '2130706433', 'unknown', p.replace(/[\r\n]/g, ''), '1.2.3.4, 5.6.7.8'.repeat(rng.int(1, 200))]);
      return { category: 'injection', name: 'x-forwarded-for', mayPass: true, pieces: [head('GET', '/v1/models', [['Host', 'x'], ['x-api-key', key], ['x-forwarded-for', xff], ['Connection', 'close']])] };
    }],
    ['key', () => {
      const k = rng.pick(['gw_test_', `gw_test_${'A'.repeat(31)}`, `gw_live_${'A'.repeat(33)}`, `gw_admin_${'a'.repeat(32)}`, `${rng.pick(keys.test)}\u0000`, p.replace(/[\r\n]/g, ''), `Bearer ${rng.pick(keys.test)}`]);
      const body = Buffer.from(JSON.stringify(b));
      // (a `Bearer …` value is a well-formed authorization header: only wrong as x-api-key)
      const name = k.startsWith('Bearer ') ? 'x-api-key' : rng.pick(['x-api-key', 'authorization']);
      return { category: 'injection', name: 'key', pieces: [head('POST', '/v1/messages', [['Host', 'x'], [name, k], ['Content-Length', String(body.length)], ['Connection', 'close']]), body] };
    }],
  ];
  return rng.pick(variants)[1]();
}

// ---------------------------------------------------------------------------------------------------------------
// Headers and framing

function badHeaders(rng: Prng, keys: FuzzKeys): FuzzCase {
  const key = rng.pick(keys.test);
  const body = JSON.stringify(validBody(rng));
  const len = String(Buffer.byteLength(body));
  const base: Array<[string, string]> = [['Host', 'x'], ['x-api-key', key], ['content-type', 'application/json']];
  const variants: Array<[string, () => Array<string | Buffer>, boolean]> = [
    ['duplicate Content-Length, different', () => [head('POST', '/v1/messages', [...base, ['Content-Length', len], ['Content-Length', String(Number(len) + 1)]]), body], false],
    ['duplicate Content-Length, same', () => [head('POST', '/v1/messages', [...base, ['Content-Length', len], ['Content-Length', len], ['Connection', 'close']]), body], true],
    ['duplicate x-api-key', () => [head('POST', '/v1/messages', [...base, ['x-api-key', rng.pick(keys.test)], ['Content-Length', len], ['Connection', 'close']]), body], false],
    ['duplicate anthropic-version', () => [head('POST', '/v1/messages', [...base, ['anthropic-version', '2023-06-01'], ['anthropic-version', '2026-10-21'], ['Content-Length', len], ['Connection', 'close']]), body], false],
    ['oversized header', () => [head('POST', '/v1/messages', [...base, ['X-Big', 'a'.repeat(rng.int(16 * 1024, 80 * 1024))], ['Content-Length', len]]), body], false],
    ['oversized URL', () => [head('GET', `/v1/models?x=${'a'.repeat(rng.int(16 * 1024, 40 * 1024))}`, base)], false],
    ['many headers', () => [head('POST', '/v1/messages', [...base, ...Array.from({ length: rng.int(100, 3000) }, (_, i): [string, string] => [`X-H${i}`, 'v']), ['Content-Length', len], ['Connection', 'close']]), body], true],
    ['control character in a value', () => [head('POST', '/v1/messages', [...base, ['X-C', `a${String.fromCharCode(rng.pick([0, 1, 7, 8, 0x0b, 0x0c, 0x1b, 0x7f]))}b`], ['Content-Length', len]]), body], false],
    ['invalid header name', () => [head('POST', '/v1/messages', [...base, [rng.pick(['Bad Name', 'X\u00e9', '(x)', '', 'X\u0000']), 'v'], ['Content-Length', len]]), body], false],
    ['obs-fold continuation line', () => [`POST /v1/messages HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\nX-Fold: a\r\n b\r\nContent-Length: ${len}\r\n\r\n`, body], false],
    ['bare LF line ends', () => [`POST /v1/messages HTTP/1.1\nHost: x\nx-api-key: ${key}\nContent-Length: ${len}\nConnection: close\n\n`, body], true],
    ['latin-1 bytes in a value', () => [Buffer.from(head('POST', '/v1/messages', [...base, ['X-L', 'caf\u00e9 \u00ff'], ['Content-Length', len], ['Connection', 'close']]), 'latin1'), body], true],
    ['no Host', () => [head('POST', '/v1/messages', [['x-api-key', key], ['Content-Length', len], ['Connection', 'close']]), body], true],
    ['HTTP/1.0', () => [`POST /v1/messages HTTP/1.0\r\nx-api-key: ${key}\r\nContent-Length: ${len}\r\n\r\n`, body], true],
    ['bad request line', () => [rng.pick(['GARBAGE\r\n\r\n', 'GET\r\n\r\n', 'GET /v1/models HTTP/1.1 extra\r\nHost: x\r\n\r\n', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'GET /v1/models HTTP/9.9\r\nHost: x\r\n\r\n', '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003'])], false],
    ['invalid method', () => [head(rng.pick(['G@T', 'POST\u0000', 'FOO', 'PROPFIND', 'TRACE', 'PATCH', 'DELETE', 'OPTIONS']), '/v1/messages', [...base, ['Content-Length', '0'], ['Connection', 'close']])], false],
    ['Expect other than 100-continue', () => [head('POST', '/v1/messages', [...base, ['Expect', 'fuzz'], ['Content-Length', len], ['Connection', 'close']]), body], false],
    ['Expect 100-continue', () => [head('POST', '/v1/messages', [...base, ['Expect', '100-continue'], ['Content-Length', len], ['Connection', 'close']]), body], true],
    ['CONNECT', () => [head('CONNECT', 'example.com:443', [['Host', 'example.com:443']])], false],
    ['Upgrade to websocket', () => [head('GET', '/v1/models', [...base, ['Connection', 'Upgrade'], ['Upgrade', 'websocket']])], true],
  ];
  const [name, make, mayPass] = rng.pick(variants);
  return { category: 'headers', name, pieces: make(), mayPass };
}

function contentLengthLies(rng: Prng, keys: FuzzKeys): FuzzCase {
  const key = rng.pick(keys.test);
  const body = JSON.stringify(validBody(rng));
  const n = Buffer.byteLength(body);
  const h = (cl: string) => head('POST', '/v1/messages', [['Host', 'x'], ['x-api-key', key], ['Content-Length', cl], ['Connection', 'close']]);
  const variants: Array<[string, () => FuzzCase]> = [
    ['declares more than it sends', () => ({ category: 'Content-Length lies', name: 'declares more', pieces: [h(String(n + rng.int(1, 10_000))), body], slow: true })],
    ['declares less than it sends', () => ({ category: 'Content-Length lies', name: 'declares less', pieces: [h(String(rng.int(0, n - 1))), body] })],
    ['declares over 32 MiB', () => ({ category: 'Content-Length lies', name: 'declares over 32 MiB', pieces: [h(String(32 * 1024 * 1024 + rng.int(1, 1e9))), body] })],
    ['declares an absurd length', () => ({ category: 'Content-Length lies', name: 'absurd', pieces: [h(rng.pick(['99999999999999999999999', '18446744073709551616', '9007199254740993'])), body] })],
    ['malformed', () => ({ category: 'Content-Length lies', name: 'malformed', pieces: [h(rng.pick(['-1', '+5', ' 5 5', '0x10', '1e3', '5,5', 'abc', ''])), body] })],
    ['zero with a body', () => ({ category: 'Content-Length lies', name: 'zero with a body', pieces: [h('0'), body] })],
  ];
  return rng.pick(variants)[1]();
}

function chunkedAbuse(rng: Prng, keys: FuzzKeys): FuzzCase {
  const key = rng.pick(keys.test);
  const body = JSON.stringify(validBody(rng));
  const h = (te: string, extra: Array<[string, string]> = []) =>
    head('POST', '/v1/messages', [['Host', 'x'], ['x-api-key', key], ['Transfer-Encoding', te], ['Connection', 'close'], ...extra]);
  const chunk = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`;
  const variants: Array<[string, () => FuzzCase]> = [
    ['invalid chunk size', () => ({ category: 'chunked abuse', name: 'invalid size', pieces: [h('chunked'), `${rng.pick(['zz', '-1', '0x10', ' ', 'ffffffffffffffffffff', '1 1'])}\r\n${body}\r\n0\r\n\r\n`] })],
    ['size larger than the chunk', () => ({ category: 'chunked abuse', name: 'size larger than data', pieces: [h('chunked'), `${(Buffer.byteLength(body) + 100).toString(16)}\r\n${body}\r\n0\r\n\r\n`], slow: true })],
    ['missing CRLF', () => ({ category: 'chunked abuse', name: 'missing CRLF', pieces: [h('chunked'), `${Buffer.byteLength(body).toString(16)}\r\n${body}0\r\n\r\n`] })],
    ['long chunk extension', () => ({ category: 'chunked abuse', name: 'long extension', mayPass: true, pieces: [h('chunked'), `${Buffer.byteLength(body).toString(16)};${'e'.repeat(rng.int(10_000, 100_000))}\r\n${body}\r\n0\r\n\r\n`] })],
    ['trailers', () => ({ category: 'chunked abuse', name: 'trailers', mayPass: true, pieces: [h('chunked'), `${chunk(body)}0\r\nX-Trailer: 1\r\n\r\n`] })],
    ['with Content-Length', () => ({ category: 'chunked abuse', name: 'TE and CL', pieces: [h('chunked', [['Content-Length', String(Buffer.byteLength(body))]]), `${chunk(body)}0\r\n\r\n`] })],
    ['odd Transfer-Encoding', () => ({ category: 'chunked abuse', name: 'odd TE', pieces: [h(rng.pick(['chunked, chunked', 'gzip, chunked', 'identity', 'xchunked', 'chunked;q=1', ' chunked', 'CHUNKED', 'chunked, gzip'])), `${chunk(body)}0\r\n\r\n`], mayPass: true })],
    ['no last chunk', () => ({ category: 'chunked abuse', name: 'no last chunk', pieces: [h('chunked'), chunk(body)], slow: true })],
    ['many tiny chunks', () => ({ category: 'chunked abuse', name: 'many tiny chunks', mayPass: true, pieces: [h('chunked'), `${[...body].map((c) => chunk(c)).join('')}0\r\n\r\n`] })],
    ['over 32 MiB in chunks', () => {
      const piece = Buffer.from(`100000\r\n${' '.repeat(0x100000)}\r\n`);
      return { category: 'chunked abuse', name: 'over 32 MiB', pieces: [h('chunked'), ...Array.from({ length: 34 }, () => piece), '0\r\n\r\n'] };
    }],
    ['no key', () => ({ category: 'chunked abuse', name: 'no key', pieces: [head('POST', '/v1/messages', [['Host', 'x'], ['Transfer-Encoding', 'chunked'], ['Connection', 'close']]), `${chunk(body)}0\r\n\r\n`] })],
  ];
  return rng.pick(variants)[1]();
}

function slowSenders(rng: Prng, keys: FuzzKeys): FuzzCase {
  const key = rng.pick(keys.test);
  const body = JSON.stringify(validBody(rng));
  const variants: Array<[string, () => FuzzCase]> = [
    ['dribbled headers', () => ({
      category: 'slow senders', name: 'dribbled headers', slow: true, gapMs: 200,
      pieces: ['POST /v1/messages HTTP/1.1\r\n', ...Array.from({ length: 60 }, (_, i) => `X-Slow-${i}: ${'s'.repeat(10)}\r\n`)],
    })],
    ['dribbled body', () => ({
      category: 'slow senders', name: 'dribbled body', slow: true, gapMs: 200,
      pieces: [head('POST', '/v1/messages', [['Host', 'x'], ['x-api-key', key], ['Content-Length', String(body.length + 500)]]), ...body.match(/.{1,8}/g) ?? []],
    })],
    ['silent after connecting', () => ({ category: 'slow senders', name: 'silent', slow: true, pieces: [] })],
    ['half a request line', () => ({ category: 'slow senders', name: 'half a request line', slow: true, pieces: ['POST /v1/mess'] })],
  ];
  return rng.pick(variants)[1]();
}

const GENERATORS: Array<[number, (rng: Prng, keys: FuzzKeys) => FuzzCase]> = [
  [14, invalidJson],
  [8, deepJson],
  [3, hugeStrings],
  [14, wrongTypes],
  [8, unicode],
  [10, injection],
  [18, badHeaders],
  [10, contentLengthLies],
  [12, chunkedAbuse],
  [1, slowSenders],
];
const TOTAL_WEIGHT = GENERATORS.reduce((n, [w]) => n + w, 0);

/** Case `index` of the run seeded `seed`: each case has its own stream, so one can be replayed alone. */
export function fuzzCase(seed: number, index: number, keys: FuzzKeys): FuzzCase {
  const rng = new Prng((seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
  let roll = rng.next() * TOTAL_WEIGHT;
  for (const [weight, generate] of GENERATORS) {
    roll -= weight;
    if (roll < 0) return generate(rng, keys);
  }
  return invalidJson(rng, keys);
}
