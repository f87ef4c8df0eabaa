import { expect } from 'chai';
import { request } from 'node:http';
import { TestGateway, createKey, type CreatedKey } from './harness/gateway.js';

interface Reply {
  status: number;
  headers: Headers;
  body: { type?: string; error?: { type: string; message: string }; request_id?: string } & Record<string, unknown>;
}

async function call(url: string, init: RequestInit = {}): Promise<Reply> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? {} : (JSON.parse(text) as Reply['body']) };
}

const json = (key: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-api-key': key, ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

const hello = { model: 'alpha-sonnet-5', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] };

describe('HTTP surface', function () {
  let gw: TestGateway;
  let key: CreatedKey;

  before(async function () {
    gw = await new TestGateway().start();
    key = await createKey(gw);
  });
  after(async () => gw.stop());

  it('answers unknown paths with a vendor-shaped 404', async function () {
    const r = await call(gw.url('/v1/nothing-here'), { headers: { 'x-api-key': key.key } });
    expect(r.status).to.equal(404);
    expect(r.body.type).to.equal('error');
    expect(r.body.error?.type).to.equal('not_found_error');
    expect(r.headers.get('request-id')).to.match(/^req_/);
  });

  it('answers a wrong method on a known path with 405 invalid_request_error', async function () {
    for (const [method, path] of [['GET', '/v1/messages'], ['DELETE', '/v1/models'], ['POST', '/v1/usage']] as const) {
      const r = await call(gw.url(path), { method, headers: { 'x-api-key': key.key } });
      expect(r.status, `${method} ${path}`).to.equal(405);
      expect(r.body.error?.type).to.equal('invalid_request_error');
    }
  });

  it('answers malformed JSON with 400, but only after the key is checked', async function () {
    const bad = await call(gw.url('/v1/messages'), json(key.key, '{"model": "alpha'));
    expect(bad.status).to.equal(400);
    expect(bad.body.error?.type).to.equal('invalid_request_error');
    expect(bad.headers.get('compat-ratelimit-requests-limit')).to.match(/^\d+$/);
    const unauth = await call(gw.url('/v1/messages'), json('nope', '{"model": "alpha'));
    expect(unauth.status).to.equal(401);
  });

  it('validates model, max_tokens, messages and stream', async function () {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ max_tokens: 5, messages: hello.messages }, 'model'],
      [{ model: 'alpha-sonnet-5', messages: hello.messages }, 'max_tokens'],
      [{ model: 'alpha-sonnet-5', max_tokens: 0, messages: hello.messages }, 'max_tokens'],
      [{ model: 'alpha-sonnet-5', max_tokens: 1.5, messages: hello.messages }, 'max_tokens'],
      [{ model: 'alpha-sonnet-5', max_tokens: 5 }, 'messages'],
      [{ model: 'alpha-sonnet-5', max_tokens: 5, messages: [] }, 'messages'],
      // Any string role is forwarded (CONTRACT.md, forward compatibility); a missing or non-string one is not.
      [{ model: 'alpha-sonnet-5', max_tokens: 5, messages: [{ role: 7, content: 'x' }] }, 'role'],
      [{ model: 'alpha-sonnet-5', max_tokens: 5, messages: [{ content: 'x' }] }, 'role'],
      [{ model: 'alpha-sonnet-5', max_tokens: 5, messages: [{ role: 'user', content: 7 }] }, 'content'],
      [{ ...hello, stream: 'yes' }, 'stream'],
    ];
    for (const [body, field] of cases) {
      const r = await call(gw.url('/v1/messages'), json(key.key, body));
      expect(r.status, JSON.stringify(body)).to.equal(400);
      expect(r.body.error?.message).to.contain(field);
    }
  });

  it('refuses a body that names a top-level key twice with 400 invalid_request_error', async function () {
    const twice = '{"model":"alpha-sonnet-5","max_tokens":16,"messages":[{"role":"user","content":"hello"}],"model":"alpha-opus-5"}';
    for (const path of ['/v1/messages', '/v1/messages/count_tokens']) {
      const r = await call(gw.url(path), json(key.key, twice));
      expect(r.status, path).to.equal(400);
      expect(r.body.type).to.equal('error');
      expect(r.body.error?.type).to.equal('invalid_request_error');
      expect(r.body.error?.message).to.contain('more than once');
    }
    // The same key in nested objects is not a duplicate.
    const nested = await call(gw.url('/v1/messages'), json(key.key, { ...hello, metadata: { user_id: 'u' }, extension: { model: 'alpha-opus-5', nested: { model: 'x' } } }));
    expect(nested.status).to.equal(200);
  });

  it('refuses max_tokens above the model maximum with 400', async function () {
    const r = await call(gw.url('/v1/messages'), json(key.key, { ...hello, model: 'alpha-sonnet-4-6', max_tokens: 64001 }));
    expect(r.status).to.equal(400);
    expect(r.body.error?.message).to.contain('64000');
    const ok = await call(gw.url('/v1/messages'), json(key.key, { ...hello, model: 'alpha-sonnet-4-6', max_tokens: 64000 }));
    expect(ok.status).to.equal(200);
  });

  it('passes unknown fields and content blocks through', async function () {
    const r = await call(gw.url('/v1/messages'), json(key.key, {
      ...hello,
      temperature: 0.2,
      system: [{ type: 'text', text: 'be brief' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] }],
    }));
    expect(r.status).to.equal(200);
  });

  it('refuses a body over 32 MiB with 413 request_too_large (after authentication)', async function () {
    const big = JSON.stringify({ ...hello, messages: [{ role: 'user', content: 'x'.repeat(32 * 1024 * 1024) }] });
    const r = await call(gw.url('/v1/messages'), json(key.key, big));
    expect(r.status).to.equal(413);
    expect(r.body.error?.type).to.equal('request_too_large');
    const unauth = await call(gw.url('/v1/messages'), json('nope', big));
    expect(unauth.status).to.equal(401);
  });

  it('refuses a missing, malformed or unknown key (or a refused address) before reading a large body', async function () {
    const elsewhere = await createKey(gw, { account: key.account_id, ips: '10.0.0.0/8' });
    const variants: Array<[Record<string, string>, number]> = [
      [{}, 401],
      [{ 'x-api-key': 'gw_live_short' }, 401],
      [{ 'x-api-key': `gw_live_${'Z'.repeat(32)}` }, 401],
      [{ 'x-api-key': elsewhere.key }, 403],
    ];
    for (const [headers, expected] of variants) {
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(gw.url('/v1/messages'), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': String(20 * 1024 * 1024), ...headers },
        }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
        req.on('error', reject);
        // only the first kilobyte of a declared 20 MiB is ever sent: the answer must not wait for the rest
        req.write('{"model":"alpha-sonnet-5","messages":[' + ' '.repeat(1024));
      });
      expect(status, JSON.stringify(headers)).to.equal(expected);
    }
  });

  it('accepts the supported versions in compat-version or anthropic-version and refuses others', async function () {
    const variants: Array<Record<string, string>> = [{}, { 'compat-version': '2023-06-01' }, { 'compat-version': '2026-10-21' }, { 'anthropic-version': '2026-10-21' }];
    for (const h of variants) {
      expect((await call(gw.url('/v1/messages'), json(key.key, hello, h))).status, JSON.stringify(h)).to.equal(200);
    }
    const bad = await call(gw.url('/v1/messages'), json(key.key, hello, { 'compat-version': '2024-01-01' }));
    expect(bad.status).to.equal(400);
    expect(bad.body.error?.message).to.contain('2023-06-01').and.contain('2026-10-21');
    // compat-version wins over the vendor alias
    const wins = await call(gw.url('/v1/messages'), json(key.key, hello, { 'compat-version': '2026-10-21', 'anthropic-version': '1999-01-01' }));
    expect(wins.status).to.equal(200);
    const loses = await call(gw.url('/v1/messages'), json(key.key, hello, { 'compat-version': '1999-01-01', 'anthropic-version': '2026-10-21' }));
    expect(loses.status).to.equal(400);
  });

  it('answers bad query values and malformed paths with 400, counting nothing', async function () {
    const first = await call(gw.url('/v1/usage'), { headers: { 'x-api-key': key.key } });
    const before = (first.body['rate_limit'] as { remaining: number }).remaining;
    const bad = await call(gw.url('/v1/models?limit=abc'), { headers: { 'x-api-key': key.key } });
    expect(bad.status).to.equal(400);
    expect(bad.headers.get('compat-ratelimit-requests-remaining')).to.equal(String(before));
    const after = await call(gw.url('/v1/usage'), { headers: { 'x-api-key': key.key } });
    expect((after.body['rate_limit'] as { remaining: number }).remaining).to.equal(before);
    const mangled = await call(gw.url('/v1/models/%E0%A4%A'), { headers: { 'x-api-key': key.key } });
    expect(mangled.status).to.equal(400);
    expect(mangled.body.error?.type).to.equal('invalid_request_error');
    const huge = await call(gw.url('/v1/messages'), json(key.key, { ...hello, max_tokens: 4294967396 }));
    expect(huge.status).to.equal(400);
    expect(huge.body.error?.message).to.contain('max_tokens');
  });

  it('pages models with an unknown cursor as an empty, final page', async function () {
    const r = await call(gw.url('/v1/models?before_id=alpha-nothing'), { headers: { 'x-api-key': key.key } });
    expect(r.status).to.equal(200);
    expect(r.body['data']).to.deep.equal([]);
    expect(r.body['has_more']).to.equal(false);
  });

  it('serves healthz and readyz, with a request-id like every response', async function () {
    expect((await call(gw.url('/healthz'))).headers.get('request-id')).to.match(/^req_[A-Za-z0-9]{24}$/);
    expect((await call(gw.url('/healthz'))).status).to.equal(200);
    const ready = await call(gw.url('/readyz'));
    expect(ready.status).to.equal(200);
    expect(ready.body['policy']).to.equal(true);
    // A Messages-API upstream: regions are declared, no route is verified.
    expect(ready.body['residency']).to.deep.equal([]);
  });

  it('answers 503 api_error with x-should-retry when the policy service is down, and readyz says so', async function () {
    const own = await new TestGateway().start();
    try {
      const k = await createKey(own);
      await own.policy.stop();
      const r = await call(own.url('/v1/messages'), json(k.key, hello));
      expect(r.status).to.equal(503);
      expect(r.body.error?.type).to.equal('api_error');
      expect(r.headers.get('x-should-retry')).to.equal('true');
      expect((await call(own.url('/readyz'))).status).to.equal(503);
    } finally {
      await own.stop();
    }
  });

  it('answers a live key with 503 "no upstream configured" when no upstream is set', async function () {
    const live = await createKey(gw, { account: key.account_id, env: 'live' });
    const r = await call(gw.url('/v1/messages'), json(live.key, hello));
    expect(r.status).to.equal(503);
    expect(r.body.error).to.deep.equal({ type: 'api_error', message: 'no upstream configured' });
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async function () {
    const k = await createKey(gw, { account: key.account_id, ips: '203.0.113.0/24' });
    const r = await call(gw.url('/v1/messages'), json(k.key, hello, { 'x-forwarded-for': '203.0.113.9' }));
    expect(r.status).to.equal(403);
  });

  it('exposes Prometheus metrics on the metrics port', async function () {
    const port = gw.proxiesRunning[0]?.lines.find((l) => l.msg === 'proxy listening')?.['metrics_port'];
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(text).to.match(/gateway_requests_total\{[^}]*route="messages"[^}]*\} \d+/);
    // a well-formed key the policy service does not know (malformed ones never reach it)
    await call(gw.url('/v1/messages'), json(`gw_test_${'Z'.repeat(32)}`, hello));
    const policyPort = gw.policy.lines.find((l) => l.msg === 'policy service listening')?.['metrics_port'];
    const policyText = await (await fetch(`http://127.0.0.1:${policyPort}/metrics`)).text();
    expect(policyText).to.match(/gateway_policy_decisions_total\{[^}]*operation="CREATE_MESSAGE"[^}]*outcome="allow"[^}]*\} [1-9]/);
    expect(policyText).to.match(/gateway_policy_decisions_total\{[^}]*outcome="deny",reason="auth"[^}]*\} [1-9]/);
  });
});

describe('behind trusted proxies', function () {
  let gw: TestGateway;
  before(async function () {
    gw = await new TestGateway({ env: { TRUSTED_PROXIES: '127.0.0.1/32,::1/128,10.0.0.0/8' } }).start();
  });
  after(async () => gw.stop());

  it('takes the right-most untrusted X-Forwarded-For entry, IPv4 and IPv6', async function () {
    const v4 = await createKey(gw, { ips: '203.0.113.0/24' });
    const v6 = await createKey(gw, { account: v4.account_id, ips: '2001:db8::/32' });
    const send = (k: CreatedKey, xff: string) => call(gw.url('/v1/messages'), json(k.key, hello, { 'x-forwarded-for': xff }));
    expect((await send(v4, '203.0.113.9')).status).to.equal(200);
    // a spoofed left-most entry does not help: the right-most untrusted hop is the client
    expect((await send(v4, '203.0.113.9, 198.51.100.1')).status).to.equal(403);
    expect((await send(v4, '198.51.100.1, 203.0.113.9, 10.1.1.1')).status).to.equal(200);
    expect((await send(v6, '2001:db8::42')).status).to.equal(200);
    expect((await send(v6, '2001:db9::42')).status).to.equal(403);
  });

  it('uses the socket address when no X-Forwarded-For is sent', async function () {
    const k = await createKey(gw, { ips: '127.0.0.1' });
    const r = await new Promise<number>((resolve, reject) => {
      const req = request(gw.url('/v1/messages'), { method: 'POST', headers: { 'x-api-key': k.key, 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(JSON.stringify(hello));
    });
    expect(r).to.equal(200);
  });
});
