import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestRedis, type TestRedis } from '@gateway/policy/test-support/redis';
import { startMessagesFake, type MessagesFake } from './fakes/index.js';
import { REPO_ROOT, TestGateway, createKey, startService, type CreatedKey, type ServiceProcess } from './harness/gateway.js';
import { OtlpReceiver, SPAN_KIND, type ReceivedSpan } from './harness/otlp-receiver.js';

const UPSTREAM_KEY = 'upstream-secret-key';
const EMAIL = 'jane.doe@example.co.uk';
/** Text that must never reach a span: the prompt, and what an upstream error echoes of it. */
const SECRET_PROMPT = `Quarterly plan for ${EMAIL}: zebra-orchid-4471`;
const INVALID_JSON = '{"model": "alpha-sonnet-5", "messages": [ broken-json-lynx-9081';
const ECHOED = 'echo-of-prompt-marmot-5523';

const body = (extra: Record<string, unknown> = {}, text = SECRET_PROMPT) => ({
  model: 'alpha-sonnet-5',
  max_tokens: 100,
  messages: [{ role: 'user', content: text }],
  ...extra,
});

/** A proxy process beside the gateway's own, against the same policy service, with settings of its own. */
async function extraProxy(gw: TestGateway, env: Record<string, string>): Promise<{ proxy: ServiceProcess; port: number }> {
  const proxy = startService('proxy', 'proxy/dist/src/main.js', { ...gw.env, POLICY_ADDR: `127.0.0.1:${gw.policyPort}`, ...env });
  const ready = await proxy.waitFor((l) => l.msg === 'proxy listening');
  return { proxy, port: ready['port'] as number };
}

const one = (spans: ReceivedSpan[], name: string): ReceivedSpan => {
  const found = spans.filter((s) => s.name === name);
  expect(found, `spans named ${name} in ${spans.map((s) => s.name).join(', ')}`).to.have.length(1);
  return found[0] as ReceivedSpan;
};

describe('traces (OpenTelemetry, OTLP/HTTP protobuf to a real receiver)', function () {
  this.timeout(60_000);
  let receiver: OtlpReceiver;
  let fake: MessagesFake;
  let redis: TestRedis;
  let gw: TestGateway;
  let key: CreatedKey;
  const extras: ServiceProcess[] = [];

  const post = (port: number, payload: unknown, headers: Record<string, string> = {}, k: CreatedKey = key) =>
    fetch(`http://127.0.0.1:${port}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': k.key, ...headers },
      body: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  /** The proxy's SERVER span of the response with this request-id (found through its access-log line). */
  const serverSpanOf = async (res: Response, proxy: ServiceProcess = gw.proxiesRunning[0] as ServiceProcess): Promise<ReceivedSpan> => {
    const requestId = res.headers.get('request-id');
    const line = await proxy.waitFor((l) => l.msg === 'request' && l['request_id'] === requestId);
    expect(line['trace_id']).to.match(/^[0-9a-f]{32}$/);
    await receiver.waitFor((spans) => spans.some((s) => s.spanId === line['span_id']));
    const span = receiver.spans.find((s) => s.spanId === line['span_id']) as ReceivedSpan;
    expect(span.traceId).to.equal(line['trace_id']);
    return span;
  };

  before(async function () {
    receiver = await new OtlpReceiver().start();
    fake = await startMessagesFake({ apiKey: UPSTREAM_KEY });
    redis = await startTestRedis();
    gw = await new TestGateway({
      redis,
      env: {
        UPSTREAM_URL: `${fake.url}/{region}/v1`,
        UPSTREAM_API_KEY: UPSTREAM_KEY,
        UPSTREAM_TIMEOUT_MS: '3000',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '50',
      },
    }).start();
    key = await createKey(gw, { env: 'live', privacy: 'redact', plan: { name: 'traced', concurrency: 50, rpm: 100_000 } });
  });
  after(async () => {
    await Promise.all(extras.map((p) => p.stop()));
    await gw.stop();
    await redis.dispose();
    await fake.close();
    await receiver.close();
  });
  beforeEach(() => fake.reset());

  it('gives one request one trace: the proxy, the decision in both processes, key lookup, Redis script, privacy, the upstream attempt, report and ledger write', async function () {
    fake.enqueue({ usage: { input_tokens: 11, output_tokens: 7, cache_read_input_tokens: 5, cache_creation_input_tokens: 3 } });
    const res = await post(gw.ports[0] as number, body());
    expect(res.status).to.equal(200);
    await res.text();
    const server = await serverSpanOf(res);
    const expected = ['policy.decide', 'policy.key_lookup', 'policy.counters.admit', 'gateway.privacy', 'chat eu.anthropic.alpha-sonnet-5-v1:0', 'policy.report_usage', 'policy.counters.settle', 'policy.ledger.write'];
    // Each process exports its spans in its own batches: wait for all of them (both decide spans among them).
    await receiver.waitFor(() => {
      const names = receiver.trace(server.traceId).map((s) => s.name);
      return expected.every((n) => names.includes(n)) && names.filter((n) => n === 'policy.decide').length === 2;
    });
    const spans = receiver.trace(server.traceId);

    expect(server.service).to.equal('gateway-proxy');
    expect(server.name).to.equal('POST /v1/messages');
    expect(server.kind).to.equal(SPAN_KIND.SERVER);
    expect(server.parentSpanId).to.equal('');
    expect(server.attributes).to.include({ 'http.request.method': 'POST', 'http.route': '/v1/messages', 'http.response.status_code': 200, 'gateway.key_id': key.id, 'gateway.model': 'alpha-sonnet-5' });

    const decideClient = spans.find((s) => s.name === 'policy.decide' && s.kind === SPAN_KIND.CLIENT) as ReceivedSpan;
    expect(decideClient.parentSpanId).to.equal(server.spanId);
    expect(decideClient.attributes).to.include({ 'rpc.system': 'grpc', 'rpc.method': 'Session' });
    const decideServer = spans.find((s) => s.name === 'policy.decide' && s.kind === SPAN_KIND.SERVER) as ReceivedSpan;
    expect(decideServer.service).to.equal('gateway-policy');
    expect(decideServer.parentSpanId).to.equal(decideClient.spanId);
    expect(one(spans, 'policy.key_lookup').parentSpanId).to.equal(decideServer.spanId);
    const admit = one(spans, 'policy.counters.admit');
    expect(admit.parentSpanId).to.equal(decideServer.spanId);
    expect(admit.kind).to.equal(SPAN_KIND.CLIENT);
    expect(admit.attributes['db.system.name']).to.equal('redis');

    const privacy = one(spans, 'gateway.privacy');
    expect(privacy.parentSpanId).to.equal(server.spanId);
    expect(privacy.attributes['gateway.privacy_mode']).to.equal('redact');
    expect(Object.entries(privacy.attributes).some(([k, v]) => k.startsWith('gateway.pii.') && v === 1)).to.equal(true);

    const attempt = one(spans, 'chat eu.anthropic.alpha-sonnet-5-v1:0');
    expect(attempt.kind).to.equal(SPAN_KIND.CLIENT);
    expect(attempt.parentSpanId).to.equal(server.spanId);
    expect(attempt.attributes).to.include({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'eu.anthropic.alpha-sonnet-5-v1:0',
      'gen_ai.usage.input_tokens': 19,
      'gen_ai.usage.output_tokens': 7,
      'gen_ai.usage.cache_read.input_tokens': 5,
      'gen_ai.usage.cache_creation.input_tokens': 3,
      'gateway.model': 'alpha-sonnet-5',
      'gateway.residency': 'eu',
      'gateway.call_region': 'eu-central-1',
      'gateway.route_index': 0,
      'gateway.privacy_mode': 'redact',
      'gateway.key_id': key.id,
      'gateway.account_id': key.account_id,
    });
    expect(attempt.attributes['gateway.processing_regions']).to.be.an('array').that.is.not.empty;
    expect(attempt.attributes).to.not.have.property('error.type');
    // The upstream got the gateway's own attempt span as its parent.
    expect(fake.requests[0]?.headers['traceparent']).to.equal(`00-${server.traceId}-${attempt.spanId}-01`);

    const report = spans.find((s) => s.name === 'policy.report_usage') as ReceivedSpan;
    expect(report.kind).to.equal(SPAN_KIND.SERVER);
    expect(report.parentSpanId).to.equal(server.spanId);
    expect(one(spans, 'policy.counters.settle').parentSpanId).to.equal(report.spanId);
    expect(one(spans, 'policy.ledger.write').parentSpanId).to.equal(report.spanId);
    expect(spans).to.have.length(expected.length + 2);

    // Every span of both processes names the pinned conventions, the version docs/operations.md and README name.
    const pinned = /GenAI\s+semantic\s+conventions\s+\*\*v(\d+\.\d+\.\d+)\*\*\s+\(pinned/.exec(readFileSync(join(REPO_ROOT, 'docs/operations.md'), 'utf8'))?.[1];
    expect(pinned, 'the pinned version in docs/operations.md').to.be.a('string');
    expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).to.contain(`GenAI conventions v${pinned}`);
    expect([...new Set(spans.map((s) => s.schemaUrl))]).to.deep.equal([`https://opentelemetry.io/schemas/${pinned}`]);
  });

  it('notes the first token of a stream as an event on the attempt span', async function () {
    fake.enqueue({});
    const res = await post(gw.ports[0] as number, body({ stream: true }, 'Hello there'));
    expect(res.status).to.equal(200);
    await res.text();
    const server = await serverSpanOf(res);
    await receiver.waitFor((spans) => spans.some((s) => s.traceId === server.traceId && s.name.startsWith('chat ')));
    const attempt = receiver.trace(server.traceId).find((s) => s.name.startsWith('chat ')) as ReceivedSpan;
    expect(attempt.events.map((e) => e.name)).to.deep.equal(['gateway.first_token']);
  });

  it('marks each failed upstream attempt with error.type, never with the error text: one span per attempt, in route order', async function () {
    // An eu key has three routes in the shipped catalogue: each answers 500, so each is tried and each fails.
    for (let i = 0; i < 3; i += 1) fake.enqueue({ errorBefore: { status: 500, message: `internal failure ${ECHOED}` } });
    const res = await post(gw.ports[0] as number, body());
    expect(res.status).to.equal(502);
    const server = await serverSpanOf(res);
    await receiver.waitFor((spans) => spans.filter((s) => s.traceId === server.traceId && s.name.startsWith('chat ')).length === 3);
    const attempts = receiver.trace(server.traceId).filter((s) => s.name.startsWith('chat '));
    expect(attempts.map((a) => a.attributes['gateway.route_index']).sort()).to.deep.equal([0, 1, 2]);
    expect(new Set(attempts.map((a) => a.attributes['gateway.call_region'])).size).to.equal(3);
    for (const attempt of attempts) {
      expect(attempt.parentSpanId).to.equal(server.spanId);
      expect(attempt.attributes['error.type']).to.equal('upstream_failed');
      expect(attempt.attributes['http.response.status_code']).to.equal(500);
      expect(attempt.status.code).to.equal(2);
      expect(attempt.status.message).to.equal('');
    }
    expect(server.attributes['error.type']).to.equal('upstream_failed');
  });

  it('gives a refused request (401, 429, 402) a short trace with gateway.refusal_reason and no upstream span', async function () {
    const slow = await createKey(gw, { env: 'live', plan: { name: 'one-rpm', rpm: 1 } });
    const broke = await createKey(gw, { env: 'live', plan: { name: 'no-allowance', allowance: 0 } });
    const unknown = { ...key, key: `${key.key.slice(0, -6)}zzzzzz` };
    const refusals: Array<[CreatedKey, number, string]> = [[unknown, 401, 'auth'], [slow, 429, 'rate'], [broke, 402, 'quota']];
    await (await post(gw.ports[0] as number, body({}, 'hi'), {}, slow)).text(); // the minute's one request
    for (const [k, status, reason] of refusals) {
      const res = await post(gw.ports[0] as number, body({}, 'hi'), {}, k);
      expect(res.status, reason).to.equal(status);
      const server = await serverSpanOf(res);
      expect(server.attributes['gateway.refusal_reason'], reason).to.equal(reason);
      await receiver.waitFor((spans) => spans.some((s) => s.traceId === server.traceId && s.name === 'policy.decide' && s.kind === SPAN_KIND.SERVER));
      const spans = receiver.trace(server.traceId);
      const decided = spans.find((s) => s.name === 'policy.decide' && s.kind === SPAN_KIND.SERVER) as ReceivedSpan;
      expect(decided.attributes['gateway.refusal_reason']).to.equal(reason);
      expect(spans.filter((s) => s.name.startsWith('chat ') || s.name === 'gateway.privacy')).to.deep.equal([]);
    }
  });

  it('traces the unary calls a request makes (authentication before a large body or of an invalid one, models, usage): a CLIENT span in the proxy, the policy service\'s SERVER span under it, its key lookup under that', async function () {
    const port = gw.ports[0] as number;
    const get = (path: string) => fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'anthropic-version': '2023-06-01', 'x-api-key': key.key } });
    const unknown = `${key.key.slice(0, -6)}zzzzzz`;
    // Over the 1 MiB the proxy reads before it knows the caller: the key is authenticated first, and refused.
    const large = await post(port, JSON.stringify(body({}, 'x'.repeat(1_100_000))), {}, { ...key, key: unknown });
    expect(large.status).to.equal(401);
    const invalid = await post(port, INVALID_JSON);
    expect(invalid.status).to.equal(400);
    const models = await get('/v1/models');
    expect(models.status).to.equal(200);
    const usage = await get('/v1/usage');
    expect(usage.status).to.equal(200);
    const calls: Array<[Response, string, string, string | undefined]> = [
      [large, 'policy.authenticate', 'Authenticate', 'auth'],
      [invalid, 'policy.authenticate', 'Authenticate', undefined],
      [models, 'policy.list_models', 'ListModels', undefined],
      [usage, 'policy.get_usage', 'GetUsage', undefined],
    ];
    for (const [res, name, method, refusal] of calls) {
      await res.arrayBuffer();
      const server = await serverSpanOf(res);
      await receiver.waitFor((spans) => spans.some((s) => s.traceId === server.traceId && s.name === name && s.kind === SPAN_KIND.SERVER));
      await receiver.waitFor((spans) => spans.some((s) => s.traceId === server.traceId && s.name === 'policy.key_lookup'));
      const spans = receiver.trace(server.traceId);
      const client = spans.find((s) => s.name === name && s.kind === SPAN_KIND.CLIENT) as ReceivedSpan;
      expect(client, name).to.not.equal(undefined);
      expect(client.service).to.equal('gateway-proxy');
      expect(client.parentSpanId).to.equal(server.spanId);
      expect(client.attributes).to.include({ 'rpc.system': 'grpc', 'rpc.method': method });
      const served = spans.find((s) => s.name === name && s.kind === SPAN_KIND.SERVER) as ReceivedSpan;
      expect(served.service).to.equal('gateway-policy');
      expect(served.parentSpanId).to.equal(client.spanId);
      expect(served.attributes).to.include({ 'rpc.method': method });
      expect(one(spans, 'policy.key_lookup').parentSpanId).to.equal(served.spanId);
      expect(client.attributes['gateway.refusal_reason'], name).to.equal(refusal);
      expect(served.attributes['gateway.refusal_reason'], name).to.equal(refusal);
      if (method === 'Authenticate' && refusal === undefined) expect(served.attributes['gateway.key_id']).to.equal(key.id);
    }
  });

  it('takes an incoming traceparent as the parent, sends its own attempt span upstream, and with OTEL_GATEWAY_TRUST_INCOMING=false only links it', async function () {
    const incoming = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };
    const traceparent = `00-${incoming.traceId}-${incoming.spanId}-01`;
    fake.enqueue({});
    const res = await post(gw.ports[0] as number, body({}, 'hi'), { traceparent });
    await res.text();
    const server = await serverSpanOf(res);
    expect(server.traceId).to.equal(incoming.traceId);
    expect(server.parentSpanId).to.equal(incoming.spanId);
    const sent = fake.requests[0]?.headers['traceparent'];
    expect(sent).to.match(new RegExp(`^00-${incoming.traceId}-[0-9a-f]{16}-01$`));
    expect(sent).to.not.equal(traceparent);

    const { proxy, port } = await extraProxy(gw, { OTEL_GATEWAY_TRUST_INCOMING: 'false', OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=traces-test,team=a%2Cb' });
    extras.push(proxy);
    fake.enqueue({});
    const untrusted = await post(port, body({}, 'hi'), { traceparent });
    await untrusted.text();
    const root = await serverSpanOf(untrusted, proxy);
    expect(root.traceId).to.not.equal(incoming.traceId);
    expect(root.parentSpanId).to.equal('');
    expect(root.links).to.deep.equal([incoming]);
    // OTEL_RESOURCE_ATTRIBUTES on the process's resource, beside its default service name.
    expect(root.resource).to.include({ 'deployment.environment.name': 'traces-test', team: 'a,b', 'service.name': 'gateway-proxy' });
    expect(fake.requests[1]?.headers['traceparent']).to.match(new RegExp(`^00-${root.traceId}-`));
  });

  it('exports nothing with the sampler off', async function () {
    const { proxy, port } = await extraProxy(gw, { OTEL_TRACES_SAMPLER: 'always_off', OTEL_SERVICE_NAME: 'proxy-sampled-off' });
    extras.push(proxy);
    fake.enqueue({}, {});
    for (let i = 0; i < 2; i += 1) expect((await (await post(port, body({}, 'hi'))).text()).length).to.be.greaterThan(0);
    const line = await proxy.waitFor((l) => l.msg === 'request');
    // Not sampled, so neither this proxy nor the policy service (parent-based) exported any span of its traces.
    const upstreamTrace = /^00-([0-9a-f]{32})-[0-9a-f]{16}-00$/.exec(fake.requests[0]?.headers['traceparent'] as string)?.[1];
    expect(upstreamTrace).to.be.a('string');
    await new Promise((r) => setTimeout(r, 600));
    expect(receiver.spans.filter((s) => s.service === 'proxy-sampled-off' || s.traceId === upstreamTrace || s.traceId === line['trace_id'])).to.deep.equal([]);
  });

  it('leaves no trace of a key, PII, invalid JSON or an upstream error echoing the prompt in any export', async function () {
    const invalid = await post(gw.ports[0] as number, INVALID_JSON);
    expect(invalid.status).to.equal(400);
    await serverSpanOf(invalid);
    fake.enqueue({ errorBefore: { status: 400, message: `messages.0.content: ${SECRET_PROMPT} ${ECHOED}` } });
    const echoed = await post(gw.ports[0] as number, body());
    expect(echoed.status).to.equal(400);
    await serverSpanOf(echoed);
    await new Promise((r) => setTimeout(r, 300)); // the policy service's spans of these requests
    const everything = [...receiver.decoded, ...receiver.raw.map((b) => b.toString('latin1'))].join('\n');
    expect(receiver.raw.length).to.be.greaterThan(0);
    for (const secret of [key.key, UPSTREAM_KEY, EMAIL, 'zebra-orchid-4471', 'broken-json-lynx-9081', ECHOED, 'Unexpected token']) {
      expect(everything.includes(secret), secret).to.equal(false);
    }
  });

  it('costs serving nothing when the collector refuses, black-holes or is down, and flushes on SIGTERM within DRAIN_TIMEOUT_MS', async function () {
    // Counts kept small for the suite's wall time on a shared machine; bench/tracing-memory.mjs runs 10,000.
    this.timeout(180_000);
    const faulty = await new OtlpReceiver().start();
    const closed = await new OtlpReceiver().start();
    const downEndpoint = closed.endpoint;
    await closed.close();
    const a = await extraProxy(gw, { OTEL_EXPORTER_OTLP_ENDPOINT: faulty.endpoint, DRAIN_TIMEOUT_MS: '2000', OTEL_BSP_MAX_QUEUE_SIZE: '256' });
    const b = await extraProxy(gw, { OTEL_EXPORTER_OTLP_ENDPOINT: downEndpoint, OTEL_BSP_MAX_QUEUE_SIZE: '256' });
    extras.push(a.proxy, b.proxy);
    fake.enqueue(() => ({}));
    const burst = async (port: number, n: number): Promise<number[]> => {
      const statuses: number[] = [];
      const worker = async (): Promise<void> => {
        while (statuses.length < n) {
          const r = await post(port, body({}, 'hi'));
          await r.arrayBuffer();
          statuses.push(r.status);
        }
      };
      await Promise.all(Array.from({ length: 10 }, worker));
      return statuses;
    };
    const heap = async (port: number): Promise<number> => {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      return Number(/^nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\S+)/m.exec(text)?.[1]);
    };
    const metricsPort = async (p: ServiceProcess): Promise<number> => (await p.waitFor((l) => l.msg === 'proxy listening'))['metrics_port'] as number;

    faulty.mode = 'refuse';
    expect(new Set(await burst(a.port, 40))).to.deep.equal(new Set([200]));
    faulty.mode = 'blackhole';
    expect(new Set(await burst(a.port, 40))).to.deep.equal(new Set([200]));
    expect(faulty.exports).to.be.greaterThan(0);

    // Down: the queue stays bounded, so memory is flat however many requests pass (bench: 10,000).
    const bMetrics = await metricsPort(b.proxy);
    expect(new Set(await burst(b.port, 100))).to.deep.equal(new Set([200]));
    const before = await heap(bMetrics);
    expect(new Set(await burst(b.port, 200))).to.deep.equal(new Set([200]));
    const after = await heap(bMetrics);
    expect(after - before, `heap ${before} -> ${after}`).to.be.below(32 * 1024 * 1024);

    // SIGTERM with a collector that never answers: the flush gives up at the drain timeout.
    const started = Date.now();
    a.proxy.child.kill('SIGTERM');
    expect(await a.proxy.exited).to.equal(0);
    expect(Date.now() - started).to.be.below(2000 + 1000);
    await faulty.close();
  });

  it('serves 10,000 traced requests while the collector black-holes every export: all 200, and neither process\'s heap grows (the queue is bounded)', async function () {
    this.timeout(300_000);
    const REQUESTS = 10_000;
    const blackhole = await new OtlpReceiver().start();
    blackhole.mode = 'blackhole';
    const other = await new TestGateway({
      redis,
      env: {
        UPSTREAM_URL: `${fake.url}/{region}/v1`,
        UPSTREAM_API_KEY: UPSTREAM_KEY,
        OTEL_EXPORTER_OTLP_ENDPOINT: blackhole.endpoint,
        OTEL_TRACES_SAMPLER: 'always_on',
        // The old space capped: a queue that kept every span would end a process (out of memory) within the run.
        NODE_OPTIONS: '--max-old-space-size=128',
      },
    }).start();
    try {
      const k = await createKey(other, { env: 'live', privacy: 'redact', plan: { name: 'ten-thousand', concurrency: 100, rpm: 1_000_000, allowance: 1_000_000_000_000 } });
      fake.enqueue(() => ({}));
      const port = other.ports[0] as number;
      const metricsPorts = [
        (await (other.proxiesRunning[0] as ServiceProcess).waitFor((l) => l.msg === 'proxy listening'))['metrics_port'] as number,
        (await other.policy.waitFor((l) => l.msg === 'policy service listening'))['metrics_port'] as number,
      ];
      const heapNow = async (p: number): Promise<number> =>
        Number(/^nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\S+)/m.exec(await (await fetch(`http://127.0.0.1:${p}/metrics`)).text())?.[1]);
      // The least of five readings over a second: what is still live, not garbage the collector has yet to reach.
      const heaps = async (): Promise<number[]> => {
        const least = [Infinity, Infinity];
        for (let i = 0; i < 5; i += 1) {
          (await Promise.all(metricsPorts.map(heapNow))).forEach((h, j) => (least[j] = Math.min(least[j] as number, h)));
          await new Promise((r) => setTimeout(r, 200));
        }
        return least;
      };
      const statuses = new Map<number, number>();
      let sent = 0;
      const run = async (until: number): Promise<void> => {
        const worker = async (): Promise<void> => {
          while (sent < until) {
            sent += 1;
            const r = await post(port, body({}, 'hi'), {}, k);
            await r.arrayBuffer();
            statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          }
        };
        await Promise.all(Array.from({ length: 16 }, worker));
      };
      await run(1_000);
      const before = await heaps();
      await run(REQUESTS);
      const after = await heaps();
      expect(Object.fromEntries(statuses)).to.deep.equal({ 200: REQUESTS });
      expect(blackhole.exports, 'exports sent and held unanswered').to.be.greaterThan(0);
      // Measured: +0.3 MB proxy, -9 MB policy; with the queue unbounded (OTEL_BSP_MAX_QUEUE_SIZE=10000000) +41 and +52 MB.
      for (const [i, name] of ['proxy', 'policy'].entries()) {
        expect((after[i] as number) - (before[i] as number), `${name} heap ${before[i]} -> ${after[i]}`).to.be.below(24 * 1024 * 1024);
      }
      expect(other.policy.child.exitCode).to.equal(null);
      expect((other.proxiesRunning[0] as ServiceProcess).child.exitCode).to.equal(null);
    } finally {
      await other.stop();
      await blackhole.close();
    }
  });

  it('flushes the policy service\'s spans on SIGTERM within DRAIN_TIMEOUT_MS while the collector never answers', async function () {
    this.timeout(120_000);
    const blackhole = await new OtlpReceiver().start();
    blackhole.mode = 'blackhole';
    const other = await new TestGateway({
      redis,
      env: {
        UPSTREAM_URL: `${fake.url}/{region}/v1`,
        UPSTREAM_API_KEY: UPSTREAM_KEY,
        OTEL_EXPORTER_OTLP_ENDPOINT: blackhole.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '50',
        DRAIN_TIMEOUT_MS: '2000',
      },
    }).start();
    try {
      const k = await createKey(other, { env: 'live', privacy: 'off' });
      fake.enqueue(() => ({}));
      for (let i = 0; i < 5; i += 1) expect((await post(other.ports[0] as number, body({}, 'hi'), {}, k)).status).to.equal(200);
      // Both processes' first batches are held unanswered; the policy service's later spans wait in its queue.
      const deadline = Date.now() + 10_000;
      while (blackhole.exports < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(blackhole.exports).to.be.at.least(2);
      expect((await post(other.ports[0] as number, body({}, 'hi'), {}, k)).status).to.equal(200);
      const started = Date.now();
      other.policy.child.kill('SIGTERM');
      expect(await other.policy.exited).to.equal(0);
      expect(Date.now() - started).to.be.below(2000 + 1000);
    } finally {
      await other.stop();
      await blackhole.close();
    }
  });
});
