import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startBedrockControlFake, startBedrockFake, startMetadataFake, startVertexFake,
  type BedrockControlFake, type BedrockFake, type MetadataFake, type VertexFake,
} from './fakes/index.js';
import { TestGateway, createKey, type CreatedKey, type ServiceProcess } from './harness/gateway.js';
import { OtlpReceiver, SPAN_KIND, type ReceivedSpan } from './harness/otlp-receiver.js';
import { bedrockThenVertexEu, catalogueProfiles, waitReady } from './harness/residency.js';

/**
 * The attempt spans' GenAI attributes on the other two platforms (traces.test.ts covers the vendor's own API):
 * gen_ai.provider.name `aws.bedrock` and `gcp.vertex_ai` (CONTRACT.md "Traces"), one span per attempt across a
 * failover from Bedrock to Vertex, each platform sent its own attempt's traceparent.
 */
describe('traces: attempt spans on Bedrock and Vertex AI', function () {
  this.timeout(60_000);
  const CREDENTIALS = { accessKeyId: 'AKIDTRACESPLATFORM1', secretAccessKey: 'traces/platform/secret/0123456789abcdef' };
  let receiver: OtlpReceiver;
  let runtime: BedrockFake;
  let control: BedrockControlFake;
  let vertex: VertexFake;
  let metadata: MetadataFake;
  let gw: TestGateway;
  let key: CreatedKey;
  let dir: string;
  let bedrockModel: string;

  before(async function () {
    receiver = await new OtlpReceiver().start();
    metadata = await startMetadataFake({ expiresInSeconds: 3600 });
    vertex = await startVertexFake({ tokenValid: (t) => metadata.valid(t), endpoint: 'eu' });
    runtime = await startBedrockFake({ credentials: CREDENTIALS });
    control = await startBedrockControlFake({ credentials: CREDENTIALS, profiles: catalogueProfiles() });
    dir = mkdtempSync(join(tmpdir(), 'gw-traces-platforms-'));
    // alpha-sonnet-5's eu tier: its first shipped Bedrock route, then Vertex's EU multi-region.
    const setup = bedrockThenVertexEu(dir, { runtimeUrl: runtime.url, controlUrl: control.url, credentials: CREDENTIALS }, { upstreams: { gcp: vertex.url }, vertexUpstream: 'gcp', project: 'proj-eu-1' });
    bedrockModel = setup.bedrockRoute.upstream_model;
    gw = await new TestGateway({
      env: {
        ...setup.env,
        GCE_METADATA_HOST: metadata.host,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '50',
      },
    }).start();
    await waitReady(gw);
    key = await createKey(gw, { env: 'live', privacy: 'off' });
  });
  after(async () => {
    await gw?.stop();
    for (const f of [vertex, metadata, runtime, control, receiver]) await f?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names each attempt\'s provider (aws.bedrock, then gcp.vertex_ai after a failover) and sends each platform its own attempt\'s traceparent', async function () {
    runtime.setBehaviour({ errorBefore: { status: 503 } });
    const res = await fetch(gw.url('/v1/messages'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': key.key },
      body: JSON.stringify({ model: 'alpha-sonnet-5', max_tokens: 20, messages: [{ role: 'user', content: 'Bedrock, then Vertex' }] }),
    });
    expect(res.status).to.equal(200);
    await res.text();
    const requestId = res.headers.get('request-id');
    const line = await (gw.proxiesRunning[0] as ServiceProcess).waitFor((l) => l.msg === 'request' && l['request_id'] === requestId);
    const traceId = line['trace_id'] as string;
    await receiver.waitFor((spans) => spans.filter((s) => s.traceId === traceId && s.name.startsWith('chat ')).length === 2 && spans.some((s) => s.spanId === line['span_id']));
    const attempts = receiver.trace(traceId).filter((s) => s.name.startsWith('chat '));
    const bedrock = attempts.find((s) => s.attributes['gen_ai.provider.name'] === 'aws.bedrock') as ReceivedSpan;
    const google = attempts.find((s) => s.attributes['gen_ai.provider.name'] === 'gcp.vertex_ai') as ReceivedSpan;
    expect(bedrock, 'a span with provider aws.bedrock').to.not.equal(undefined);
    expect(google, 'a span with provider gcp.vertex_ai').to.not.equal(undefined);

    expect(bedrock.name).to.equal(`chat ${bedrockModel}`);
    expect(bedrock.kind).to.equal(SPAN_KIND.CLIENT);
    expect(bedrock.attributes).to.include({ 'gen_ai.request.model': bedrockModel, 'gateway.route_index': 0, 'http.response.status_code': 503 });
    expect(bedrock.attributes['error.type']).to.be.a('string');
    expect(google.name).to.equal('chat alpha-sonnet-5@20260930');
    expect(google.attributes).to.include({ 'gen_ai.request.model': 'alpha-sonnet-5@20260930', 'gateway.route_index': 1, 'gateway.call_region': 'eu', 'gateway.model': 'alpha-sonnet-5' });
    expect(google.attributes).to.not.have.property('error.type');
    for (const a of attempts) expect(a.parentSpanId).to.equal(line['span_id']);

    expect(runtime.requests[0]?.headers['traceparent']).to.equal(`00-${traceId}-${bedrock.spanId}-01`);
    expect(vertex.requests[0]?.headers['traceparent']).to.equal(`00-${traceId}-${google.spanId}-01`);
  });
});
