import { expect } from 'chai';
import { TestGateway, createKey, secretInLines, type CreatedKey } from '../harness/gateway.js';
import { rawExchange } from './raw-http.js';
import { expectReply, post } from './vendor-reply.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const hello = { model: 'alpha-sonnet-5', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] };

async function modelsWith(gw: TestGateway, key: string, xff?: string): Promise<number> {
  const res = await fetch(gw.url('/v1/models'), { headers: { 'x-api-key': key, ...(xff === undefined ? {} : { 'x-forwarded-for': xff }) } });
  await res.text();
  return res.status;
}

describe('security checks', function () {
  this.timeout(60_000);

  describe('X-Forwarded-For', function () {
    let trusted: TestGateway;
    let plain: TestGateway;
    before(async function () {
      trusted = await new TestGateway({ env: { TRUSTED_PROXIES: '127.0.0.1/32,::1/128' } }).start();
      plain = await new TestGateway().start();
    });
    after(async () => Promise.all([trusted.stop(), plain.stop()]));

    it('is believed only from a trusted peer, right-most untrusted entry first', async function () {
      const doc = await createKey(trusted, { ips: '203.0.113.0/24' });
      expect(await modelsWith(trusted, doc.key, '203.0.113.5')).to.equal(200);
      expect(await modelsWith(trusted, doc.key)).to.equal(403);
      expect(await modelsWith(trusted, doc.key, '203.0.113.5, 198.51.100.1')).to.equal(403);
      expect(await modelsWith(trusted, doc.key, '198.51.100.1, 203.0.113.5, 127.0.0.1')).to.equal(200);
      const other = await createKey(plain, { ips: '203.0.113.0/24' });
      expect(await modelsWith(plain, other.key, '203.0.113.5')).to.equal(403);
      expect(await modelsWith(plain, other.key, '203.0.113.5, 203.0.113.6')).to.equal(403);
    });

    it('never reads an unusual IPv4 spelling as another address', async function () {
      const loop = await createKey(trusted, { ips: '10.0.0.0/8,15.0.0.0/8' });
      for (const spelled of ['10.1', '0xa.1', '012.0.0.1', '167772161', '10.0.0.01', '017.0.0.1', '0x0f.0.0.1']) {
        expect(await modelsWith(trusted, loop.key, spelled), spelled).to.equal(403);
      }
      expect(await modelsWith(trusted, loop.key, '10.0.0.1')).to.equal(200);
    });

    it('reads IPv4-mapped IPv6 as the IPv4 address it is, and nothing else', async function () {
      const k = await createKey(trusted, { ips: '198.51.100.0/24' });
      expect(await modelsWith(trusted, k.key, '::ffff:198.51.100.7')).to.equal(200);
      expect(await modelsWith(trusted, k.key, '::ffff:c633:6407')).to.equal(200); // the same address in hex
      expect(await modelsWith(trusted, k.key, '::ffff:203.0.113.7')).to.equal(403);
      expect(await modelsWith(trusted, k.key, '::ffff:0xc6.51.100.7')).to.equal(403);
    });
  });

  describe('revoked and expired keys', function () {
    let gw: TestGateway;
    before(async function () {
      gw = await new TestGateway().start();
    });
    after(async () => gw.stop());

    /** Every route, every way of sending the key, small and large and chunked bodies. */
    async function everyRoute(key: string): Promise<Array<[string, number, string | undefined]>> {
      const out: Array<[string, number, string | undefined]> = [];
      const big = JSON.stringify({ ...hello, messages: [{ role: 'user', content: 'x'.repeat(2 * 1024 * 1024) }] });
      const auths: Array<Record<string, string>> = [{ 'x-api-key': key }, { authorization: `Bearer ${key}` }];
      for (const auth of auths) {
        const name = Object.keys(auth)[0] as string;
        for (const path of ['/v1/models', '/v1/models/alpha-sonnet-5', '/v1/usage']) {
          const res = await fetch(gw.url(path), { headers: auth });
          const body = (await res.json()) as { error?: { type: string } };
          out.push([`${name} GET ${path}`, res.status, body.error?.type]);
        }
        for (const [path, body] of [
          ['/v1/messages', JSON.stringify(hello)],
          ['/v1/messages', JSON.stringify({ ...hello, stream: true })],
          ['/v1/messages?beta=true', JSON.stringify(hello)],
          ['/v1/messages/count_tokens', JSON.stringify({ model: hello.model, messages: hello.messages })],
          ['/v1/messages', big],
        ] as const) {
          const r = await post(gw.url(path), '', body, auth);
          out.push([`${name} POST ${path} (${body.length} bytes)`, r.status, r.body.error?.type]);
        }
        const chunked = await rawExchange(gw.ports[0] as number, [
          `POST /v1/messages HTTP/1.1\r\nHost: x\r\n${name}: ${Object.values(auth)[0]}\r\ncontent-type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
          `${JSON.stringify(hello).length.toString(16)}\r\n${JSON.stringify(hello)}\r\n0\r\n\r\n`,
        ]);
        out.push([`${name} POST chunked`, chunked.status, (JSON.parse(chunked.body || '{}') as { error?: { type: string } }).error?.type]);
      }
      return out;
    }

    it('refuses a revoked key on every route with 401 authentication_error', async function () {
      const k = await createKey(gw);
      expect(await modelsWith(gw, k.key)).to.equal(200);
      await gw.ctl('keys', 'revoke', k.id);
      await sleep(1_200);
      for (const [what, status, type] of await everyRoute(k.key)) {
        expect(status, what).to.equal(401);
        expect(type, what).to.equal('authentication_error');
      }
    });

    it('refuses an expired key on every route with 401 authentication_error', async function () {
      const k = await createKey(gw, { expires: new Date(Date.now() + 2_000).toISOString() });
      expect(await modelsWith(gw, k.key)).to.equal(200);
      await sleep(2_300);
      for (const [what, status, type] of await everyRoute(k.key)) {
        expect(status, what).to.equal(401);
        expect(type, what).to.equal('authentication_error');
      }
    });
  });

  describe('admin surfaces', function () {
    let gw: TestGateway;
    before(async function () {
      gw = await new TestGateway().start();
    });
    after(async () => gw.stop());

    const routes: Array<[string, string]> = [
      ['GET', '/admin/v1/accounts'],
      ['POST', '/admin/v1/accounts'],
      ['GET', '/admin/v1/accounts/acct_x/keys'],
      ['POST', '/admin/v1/accounts/acct_x/keys'],
      ['POST', '/admin/v1/keys/key_x/revoke'],
      ['POST', '/admin/v1/keys/key_x/rotate'],
      ['GET', '/admin/v1/accounts/acct_x/usage?from=2026-01-01&to=2026-01-31'],
      ['GET', '/admin/v1/audit'],
    ];

    it('refuses every admin API route without a valid, unrevoked admin token, in the vendor shape', async function () {
      const live = await createKey(gw, { env: 'live' });
      const { runGatewayctl } = await import('@gateway/policy');
      const code = await runGatewayctl(['admins', 'create', '--email', 'sec@example.com', '--password-stdin', '--json'], gw.ctlEnv, () => undefined, () => undefined, async () => 'a long admin password\n');
      expect(code).to.equal(0);
      const issued = await gw.ctl<{ id: string; token: string }>('admins', 'tokens', 'create', '--email', 'sec@example.com', '--name', 'sec');
      await gw.ctl('admins', 'tokens', 'revoke', issued.id);
      const credentials: Array<Record<string, string>> = [
        {},
        { authorization: `Bearer gw_admin_${'x'.repeat(32)}` },
        { authorization: `Bearer ${issued.token}` }, // revoked
        { authorization: `Bearer ${live.key}` }, // an API key is not an admin token
        { 'x-api-key': live.key },
        { authorization: `Basic ${Buffer.from('sec@example.com:a long admin password').toString('base64')}` },
      ];
      for (const [method, path] of routes) {
        for (const headers of credentials) {
          const res = await fetch(`http://127.0.0.1:${gw.adminPort}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, ...(method === 'POST' ? { body: '{}' } : {}) });
          const body = (await res.json()) as { type?: string; error?: { type: string }; request_id?: string };
          const what = `${method} ${path} with ${Object.keys(headers).join(',') || 'nothing'}`;
          expect(res.status, what).to.equal(401);
          expect(body.error?.type, what).to.equal('authentication_error');
          expect(body.request_id, what).to.match(/^req_/);
        }
      }
    });

    it('serves no admin route on the public proxy port', async function () {
      for (const [method, path] of [...routes, ['GET', '/accounts'], ['GET', '/signin'], ['GET', '/audit']] as Array<[string, string]>) {
        const res = await fetch(gw.url(path), { method, headers: { 'content-type': 'application/json' }, ...(method === 'POST' ? { body: '{}' } : {}) });
        await res.text();
        expect(res.status, `${method} ${path}`).to.be.oneOf([404, 405]);
      }
    });

    it('shows the dashboard only after sign-in', async function () {
      for (const path of ['/', '/accounts', '/accounts/acct_x', '/accounts/acct_x/keys', '/keys/key_x', '/audit', '/accounts/acct_x/usage.csv']) {
        const res = await fetch(`http://127.0.0.1:${gw.adminPort}${path}`, { redirect: 'manual' });
        await res.text();
        expect(res.status, path).to.be.oneOf([302, 303, 401]);
        if (res.status !== 401) expect(res.headers.get('location'), path).to.match(/\/signin/);
      }
    });
  });

  describe('secrets and personal data stay out of logs and metrics', function () {
    let gw: TestGateway;
    const pii = {
      email: 'jane.doe.secret@example.com',
      phone: '+44 20 7946 0958',
      iban: 'GB82WEST12345698765432',
      card: '4111 1111 1111 1111',
      nino: 'QQ 12 34 56 C',
      postcode: 'SW1A 1AA',
    };
    const text = `Contact ${pii.email} or ${pii.phone}; IBAN ${pii.iban}; card ${pii.card}; NI ${pii.nino}; at ${pii.postcode}.`;
    before(async function () {
      gw = await new TestGateway({ env: { LOG_LEVEL: 'debug' } }).start();
    });
    after(async () => gw.stop());

    it('logs no key, key hash or detected value, and puts none in a metric label', async function () {
      const keys: CreatedKey[] = [];
      for (const privacy of ['flag', 'redact', 'tokenise', 'off']) keys.push(await createKey(gw, { privacy, plan: { name: `sec-${privacy}` } }));
      for (const k of keys) {
        const body = { ...hello, messages: [{ role: 'user', content: text }] };
        const r = await post(gw.url('/v1/messages'), k.key, JSON.stringify(body));
        expect(r.status, r.text).to.equal(200);
        if (k.privacy_mode !== 'off') expect(r.headers.get('x-gateway-pii')).to.contain('EMAIL=1');
        await post(gw.url('/v1/messages'), k.key, JSON.stringify({ ...body, stream: true })).then((x) => expect(x.status).to.equal(200));
        await post(gw.url('/v1/messages/count_tokens'), k.key, JSON.stringify({ model: body.model, messages: body.messages }));
        // refusals that carry the values: bad JSON, a bad field, an unknown model named by them, a bad header
        expectReply(await post(gw.url('/v1/messages'), k.key, `{"model": "${pii.email}", "messages": [${text}`), 400, 'invalid_request_error');
        expectReply(await post(gw.url('/v1/messages'), k.key, JSON.stringify({ ...body, max_tokens: text })), 400, 'invalid_request_error');
        expectReply(await post(gw.url('/v1/messages'), k.key, JSON.stringify({ ...body, model: pii.email })), 404, 'not_found_error');
        expectReply(await post(gw.url('/v1/messages'), k.key, JSON.stringify(body), { 'anthropic-version': pii.email }), 400, 'invalid_request_error');
        // a key that is wrong by one character, and a malformed authorization header holding a key
        await post(gw.url('/v1/messages'), `${k.key.slice(0, -1)}x`, JSON.stringify(body));
        await post(gw.url('/v1/messages'), '', JSON.stringify(body), { authorization: `Basic ${k.key}` });
      }
      // a refused malformed request that carries a key
      await rawExchange(gw.ports[0] as number, [`POST /v1/messages HTTP/1.1\r\nHost: x\r\nx-api-key: ${keys[0]?.key}\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n`]);

      const proxy = gw.proxiesRunning[0];
      const metricsPort = (await proxy?.waitFor((l) => l.msg === 'proxy listening'))?.['metrics_port'] as number;
      const policyMetricsPort = (await gw.policy.waitFor((l) => l.msg === 'policy service listening'))['metrics_port'] as number;
      const metrics = [
        await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text(),
        await (await fetch(`http://127.0.0.1:${policyMetricsPort}/metrics`)).text(),
      ];
      expect(metrics[0]).to.contain('gateway_pii_detections_total');
      await sleep(300); // let the last log lines arrive
      const logs = [...(proxy?.output ?? []), ...gw.policy.output];
      expect(logs.length).to.be.above(20);
      for (const [where, lines] of [['logs', logs], ['metrics', metrics.join('\n').split('\n')]] as const) {
        expect(secretInLines(lines), where).to.equal(undefined);
        for (const [type, value] of Object.entries(pii)) {
          const hit = lines.find((l) => l.includes(value) || l.includes(value.replaceAll(' ', '')));
          expect(hit, `${type} in ${where}`).to.equal(undefined);
        }
        for (const k of keys) {
          if (where === 'metrics') {
            expect(lines.find((l) => l.includes(k.id) || l.includes(k.account_id)), `key or account id in metrics`).to.equal(undefined);
          }
        }
      }
    });
  });
});
