import { expect } from 'chai';
import Anthropic from '@anthropic-ai/sdk';
import { startMessagesFake, type MessagesFake } from './fakes/index.js';
import { TestGateway, createKey, type CreatedKey } from './harness/gateway.js';
import { waitForLedger } from './harness/ledger.js';
import { awayFromMinuteEdge, sleep } from './harness/clock.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition. */
function parse(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m === null) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

const sum = (samples: Sample[], name: string, where: Record<string, string> = {}): number =>
  samples
    .filter((s) => s.name === name && Object.entries(where).every(([k, v]) => s.labels[k] === v))
    .reduce((a, s) => a + s.value, 0);

/** The values each label may take: fixed sets, or a catalogue alias. Anything else would be a leak or a blow-up. */
const ALLOWED: Record<string, (v: string) => boolean> = {
  route: (v) => ['messages', 'count_tokens', 'models', 'model', 'usage', 'health', 'root', 'other'].includes(v),
  status: (v) => /^[1-5]\d\d$/.test(v),
  environment: (v) => ['live', 'test', 'none'].includes(v),
  stream: (v) => ['true', 'false'].includes(v),
  error_type: (v) => v === '' || /^[a-z_]+$/.test(v),
  reason: (v) => ['auth', 'ip', 'model', 'residency', 'rate', 'concurrency', 'quota', 'invalid', 'unavailable', 'none', 'other'].includes(v),
  model: (v) => /^alpha-[a-z0-9-]+$/.test(v),
  gen_ai_request_model: (v) => /^alpha-[a-z0-9-]+$/.test(v),
  kind: (v) => ['input', 'output', 'cache_write', 'cache_read'].includes(v),
  gen_ai_token_type: (v) => ['input', 'output'].includes(v),
  gen_ai_operation_name: (v) => v === 'chat',
  type: (v) => /^[A-Z_]+$/.test(v),
  mode: (v) => ['flag', 'redact', 'tokenise'].includes(v),
  rpc: (v) => /^[A-Za-z]+$/.test(v),
  operation: (v) => ['CREATE_MESSAGE', 'COUNT_TOKENS'].includes(v),
  // decisions (policy service), and upstream attempts (proxy)
  outcome: (v) => ['allow', 'deny', 'served', 'throttled', 'unavailable', 'timeout', 'refused', 'auth', 'not_found', 'client_error'].includes(v),
  upstream: (v) => /^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(v),
  platform: (v) => ['bedrock', 'vertex', 'messages'].includes(v),
  call_region: (v) => /^[a-z0-9-]+$/.test(v),
  tier: (v) => ['uk', 'eu'].includes(v),
  result: (v) => ['recorded', 'replay'].includes(v),
  op: (v) => /^[a-z_]+$/.test(v),
  service: (v) => ['proxy', 'policy'].includes(v),
  le: () => true,
  quantile: () => true,
};

describe('metrics and access log after real traffic', function () {
  this.timeout(60_000);
  let fake: MessagesFake;
  let gw: TestGateway;
  const keys: Record<string, CreatedKey> = {};
  let proxyText = '';
  let policyText = '';
  let streamRequestId = '';

  const raw = (key: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(gw.url('/v1/messages'), { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key, ...headers }, body: JSON.stringify(body) });
  const hello = { model: 'alpha-sonnet-5', max_tokens: 32, messages: [{ role: 'user' as const, content: 'hello' }] };

  before(async function () {
    await awayFromMinuteEdge();
    fake = await startMessagesFake({ apiKey: 'up' });
    fake.setBehaviour({ usage: { input_tokens: 21, output_tokens: 9 } });
    gw = await new TestGateway({ env: { UPSTREAM_URL: `${fake.url}/{region}/v1`, UPSTREAM_API_KEY: 'up' } }).start();
    keys['test'] = await createKey(gw);
    keys['live'] = await createKey(gw, { account: keys['test'].account_id, env: 'live' });
    keys['ip'] = await createKey(gw, { account: keys['test'].account_id, ips: '203.0.113.0/24' });
    keys['model'] = await createKey(gw, { account: keys['test'].account_id, models: 'alpha-haiku-4-5' });
    keys['uk'] = await createKey(gw, { account: keys['test'].account_id, residency: 'uk' });
    keys['rate'] = await createKey(gw, { plan: { name: 'm-rpm1', rpm: 1 } });
    keys['conc'] = await createKey(gw, { plan: { name: 'm-conc1', concurrency: 1 } });
    keys['quota'] = await createKey(gw, { plan: { name: 'm-quota', allowance: 1, overage: false }, env: 'live' });

    const client = new Anthropic({ apiKey: keys['live'].key, baseURL: gw.baseURL, maxRetries: 0 });
    await client.messages.create(hello);
    const stream = client.messages.stream(hello);
    const { response } = await stream.withResponse();
    streamRequestId = response.headers.get('request-id') ?? '';
    await stream.finalMessage();
    const testClient = new Anthropic({ apiKey: keys['test'].key, baseURL: gw.baseURL, maxRetries: 0 });
    await testClient.messages.stream(hello).finalMessage();

    // One refusal of each reason.
    const statuses: Record<string, number> = {};
    statuses['auth'] = (await raw(`gw_test_${'Q'.repeat(32)}`, hello)).status;
    statuses['ip'] = (await raw(keys['ip'].key, hello)).status;
    statuses['model'] = (await raw(keys['model'].key, hello)).status;
    statuses['residency'] = (await raw(keys['uk'].key, { ...hello, model: 'alpha-opus-5' })).status;
    await (await raw(keys['rate'].key, hello)).text();
    statuses['rate'] = (await raw(keys['rate'].key, hello)).status;
    const slow = raw(keys['conc'].key, { ...hello, stream: true }, { 'x-gateway-test-scenario': 'slow_stream' });
    await sleep(300);
    statuses['concurrency'] = (await raw(keys['conc'].key, hello)).status;
    await (await slow).text();
    await (await raw(keys['quota'].key, hello)).text();
    await waitForLedger(gw, (rows) => rows.some((r) => r.key_id === keys['quota']!.id));
    statuses['quota'] = (await raw(keys['quota'].key, hello)).status;
    statuses['invalid'] = (await raw(keys['test'].key, { model: 'alpha-sonnet-5', messages: [] })).status;
    expect(statuses).to.deep.equal({ auth: 401, ip: 403, model: 403, residency: 403, rate: 429, concurrency: 429, quota: 402, invalid: 400 });

    await waitForLedger(gw, (rows) => rows.filter((r) => r.key_id === keys['live']!.id).length === 2);
    await sleep(200);
    const proxyPort = gw.proxiesRunning[0]!.lines.find((l) => l.msg === 'proxy listening')?.['metrics_port'];
    const policyPort = gw.policy.lines.find((l) => l.msg === 'policy service listening')?.['metrics_port'];
    proxyText = await (await fetch(`http://127.0.0.1:${proxyPort}/metrics`)).text();
    policyText = await (await fetch(`http://127.0.0.1:${policyPort}/metrics`)).text();
  });
  after(async () => {
    await gw?.stop();
    await fake?.close();
  });

  it('the proxy counts requests, refusals by reason, overhead, time to first token and tokens', function () {
    const s = parse(proxyText);
    // Live: two from the live key, one from the quota key (before its allowance was used up).
    expect(sum(s, 'gateway_requests_total', { route: 'messages', status: '200', environment: 'live' })).to.equal(3);
    expect(sum(s, 'gateway_requests_total', { route: 'messages', status: '200', environment: 'test' })).to.be.at.least(3);
    for (const [reason, type] of [['auth', 'authentication_error'], ['ip', 'permission_error'], ['model', 'permission_error'],
      ['residency', 'residency_unavailable'], ['rate', 'rate_limit_error'], ['concurrency', 'rate_limit_error'],
      ['quota', 'quota_exceeded'], ['invalid', 'invalid_request_error']] as const) {
      expect(sum(s, 'gateway_refusals_total', { reason, error_type: type }), reason).to.equal(1);
    }
    expect(sum(s, 'gateway_overhead_seconds_count', { route: 'messages' })).to.be.at.least(5);
    // Sub-millisecond buckets exist, and the overhead of these requests is far below the request duration.
    expect(s.some((x) => x.name === 'gateway_overhead_seconds_bucket' && x.labels['le'] === '0.0005')).to.equal(true);
    expect(sum(s, 'gen_ai_server_time_to_first_token_seconds_count', { gen_ai_request_model: 'alpha-sonnet-5' })).to.be.at.least(2);
    expect(sum(s, 'gen_ai_server_request_duration_seconds_count', { gen_ai_request_model: 'alpha-sonnet-5', gen_ai_operation_name: 'chat', error_type: '' })).to.be.at.least(4);
    // Live usage exactly as the upstream reported it: 3 requests × (21 in, 9 out).
    expect(sum(s, 'gateway_tokens_total', { model: 'alpha-sonnet-5', environment: 'live', kind: 'input' })).to.equal(63);
    expect(sum(s, 'gateway_tokens_total', { model: 'alpha-sonnet-5', environment: 'live', kind: 'output' })).to.equal(27);
    expect(sum(s, 'gen_ai_client_token_usage_count', { gen_ai_request_model: 'alpha-sonnet-5', gen_ai_token_type: 'output' })).to.be.at.least(2);
    expect(sum(s, 'gateway_inflight_requests')).to.equal(0);
    expect(sum(s, 'gateway_usage_spool_reports')).to.equal(0);
    expect(s.some((x) => x.name === 'gateway_revocation_cuts_total')).to.equal(true);
  });

  it('the policy service counts decisions by reason, billable units and cost, counter-store and ledger timings', function () {
    const s = parse(policyText);
    expect(sum(s, 'gateway_policy_decisions_total', { outcome: 'allow', reason: 'none' })).to.be.at.least(5);
    for (const reason of ['auth', 'model', 'residency', 'rate', 'concurrency', 'quota']) {
      expect(sum(s, 'gateway_policy_decisions_total', { outcome: 'deny', reason }), reason).to.be.at.least(1);
    }
    expect(sum(s, 'gateway_billable_units_total', { model: 'alpha-sonnet-5', environment: 'live' })).to.equal(90);
    // 63 input × £3.30 + 27 output × £16.50 per million tokens
    expect(sum(s, 'gateway_cost_gbp_total', { model: 'alpha-sonnet-5' })).to.be.closeTo((63 * 3.3 + 27 * 16.5) / 1e6, 1e-9);
    expect(sum(s, 'gateway_policy_counter_store_duration_seconds_count', { op: 'admit' })).to.be.at.least(5);
    expect(sum(s, 'gateway_policy_ledger_write_duration_seconds_count')).to.be.at.least(1);
    expect(sum(s, 'gateway_policy_leases_held')).to.equal(0);
    expect(sum(s, 'gateway_policy_key_cache_keys')).to.be.at.least(5);
  });

  it('labels hold only their allowed values: no key, account, address or request text', function () {
    for (const [who, text] of [['proxy', proxyText], ['policy', policyText]] as const) {
      for (const sample of parse(text).filter((x) => x.name.startsWith('gateway_') || x.name.startsWith('gen_ai_'))) {
        for (const [label, value] of Object.entries(sample.labels)) {
          const allowed = ALLOWED[label];
          expect(allowed, `${who}: label ${label} of ${sample.name}`).to.not.equal(undefined);
          expect(allowed!(value), `${who}: ${sample.name}{${label}="${value}"}`).to.equal(true);
        }
      }
      for (const k of Object.values(keys)) {
        expect(text).to.not.contain(k.key).and.not.contain(k.id).and.not.contain(k.account_id);
      }
      expect(text).to.not.match(/203\.0\.113\.|127\.0\.0\.1|::1/);
    }
  });

  it('writes one JSON access-log line per request, with its ids and figures and no secret', async function () {
    // The proxy writes its log in batches (at most 100 ms late): the line is waited for, then counted.
    await gw.proxiesRunning[0]!.waitFor((l) => l.msg === 'request' && l['request_id'] === streamRequestId, 5_000);
    const lines = gw.proxiesRunning[0]!.lines.filter((l) => l.msg === 'request');
    const line = lines.find((l) => l['request_id'] === streamRequestId);
    expect(line, 'the access-log line of the streamed request').to.not.equal(undefined);
    expect(lines.filter((l) => l['request_id'] === streamRequestId)).to.have.length(1);
    expect(line).to.include({ route: 'messages', status: 200, stream: true, model: 'alpha-sonnet-5', key_id: keys['live']!.id,
      account_id: keys['live']!.account_id, environment: 'live', outcome: 'ok' });
    expect(line!['decision_id']).to.be.a('string').and.not.equal('');
    expect(line!['duration_ms']).to.be.a('number');
    expect(line!['overhead_ms']).to.be.a('number').and.be.at.most(line!['duration_ms'] as number);
    expect(line!['ttft_ms']).to.be.a('number');
    expect(line!['tokens']).to.deep.include({ input_tokens: 21, output_tokens: 9 });
    // The non-streamed request too: its answer closes the response before the route has noted its figures.
    const json = lines.filter((l) => l['key_id'] === keys['live']!.id && l['stream'] === false && l['status'] === 200);
    expect(json, 'the access-log line of the non-streamed live request').to.have.length(1);
    expect(json[0]!['overhead_ms']).to.be.a('number').and.be.at.most(json[0]!['duration_ms'] as number);
    expect(json[0]!['tokens']).to.deep.include({ input_tokens: 21, output_tokens: 9 });
    // Refusals have their line too, with the error code and no key.
    const refused = lines.filter((l) => l['status'] === 403);
    expect(refused.length).to.be.at.least(3);
    for (const l of refused) expect(l['outcome']).to.equal('refused');
    const all = gw.proxiesRunning[0]!.output.join('\n');
    for (const k of Object.values(keys)) expect(all).to.not.contain(k.key);
    expect(all).to.not.contain('"hello"');
  });

  it("an admitted request's own log lines carry its request id and decision id", async function () {
    const res = await raw(keys['test']!.key, hello, { 'x-gateway-test-scenario': 'api_error' });
    expect(res.status).to.equal(500);
    const requestId = res.headers.get('request-id');
    await res.text();
    const running = gw.proxiesRunning[0]!;
    // The access-log line is written when the response closes, a moment after the client has read it.
    const access = await running.waitFor((l) => l['request_id'] === requestId && l.msg === 'request');
    const error = running.lines.find((l) => l['request_id'] === requestId && l['level'] === 50);
    expect(error, 'the error line of the failed request').to.not.equal(undefined);
    expect(error!['decision_id']).to.be.a('string').and.equal(access['decision_id']);
  });
});
