import { expect } from 'chai';
import Anthropic from '@anthropic-ai/sdk';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startBedrockControlFake, startBedrockFake, startMessagesFake, startMetadataFake, startVertexFake, VERTEX_ANTHROPIC_VERSION,
  type BedrockControlFake, type BedrockFake, type MessagesFake, type MetadataFake, type VertexFake,
} from './fakes/index.js';
import { adminToken } from './harness/admins.js';
import { TestGateway, createKey, type CreatedKey } from './harness/gateway.js';
import { waitForLedger } from './harness/ledger.js';
import { CATALOGUE_FILE, bedrockThenVertexEu, catalogueProfiles, waitReady } from './harness/residency.js';
import { sleep } from './harness/clock.js';

/**
 * Tokens live 302 s: Google's auth library refreshes a token once it is within 5 minutes of its expiry, so after
 * 2 s the cached token is due for refresh (and still valid: the fake refuses only expired or unknown tokens).
 */
const TOKEN_SECONDS = 302;

describe('Vertex AI as a platform (a vertex upstream, credentials from the metadata server)', function () {
  this.timeout(60_000);
  let vertex: VertexFake;
  let metadata: MetadataFake;
  let gw: TestGateway;
  let key: CreatedKey;
  let dir: string;

  before(async function () {
    metadata = await startMetadataFake({ expiresInSeconds: TOKEN_SECONDS });
    vertex = await startVertexFake({ tokenValid: (t) => metadata.valid(t) });
    dir = mkdtempSync(join(tmpdir(), 'gw-vertex-'));
    // An operator's own catalogue: the eu tier widened to Vertex's Netherlands location, alpha-sonnet-5 served there.
    const catalogue = JSON.parse(readFileSync(CATALOGUE_FILE, 'utf8')) as { tiers: Record<string, { regions: string[] }>; models: Array<{ id: string; routes: Record<string, unknown> }> };
    catalogue.tiers['eu']?.regions.push('europe-west4');
    const sonnet = catalogue.models.find((m) => m.id === 'alpha-sonnet-5');
    if (sonnet !== undefined) sonnet.routes['eu'] = [{ upstream: 'gcp', upstream_model: 'alpha-sonnet-5@20260930', call_region: 'europe-west4', processing_regions: ['europe-west4'] }];
    writeFileSync(join(dir, 'catalogue.json'), JSON.stringify(catalogue));
    writeFileSync(join(dir, 'upstreams.json'), JSON.stringify({ gcp: { platform: 'vertex', project: 'proj-eu-1', url: vertex.url } }));
    gw = await new TestGateway({
      env: { CATALOGUE_FILE: join(dir, 'catalogue.json'), UPSTREAMS_FILE: join(dir, 'upstreams.json'), GCE_METADATA_HOST: metadata.host, UPSTREAM_TIMEOUT_MS: '3000' },
    }).start();
    key = await createKey(gw, { env: 'live' });
  });
  after(async () => {
    await gw?.stop();
    await vertex?.close();
    await metadata?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const sdk = () => new Anthropic({ apiKey: key.key, baseURL: gw.baseURL, maxRetries: 0 });

  it('serves JSON and streams through the official SDK on the regional endpoint, with a cached, refreshed token', async function () {
    const { data, response } = await sdk().beta.messages.create({
      model: 'alpha-sonnet-5', max_tokens: 30, messages: [{ role: 'user', content: 'Hallo Vertex' }], betas: ['beta-x'],
    }).withResponse();
    expect(data.model).to.equal('alpha-sonnet-5');
    expect(data.content[0]).to.deep.include({ type: 'text' });
    expect(response.headers.get('x-gateway-model')).to.equal('alpha-sonnet-5@20260930');
    expect(response.headers.get('x-gateway-regions')).to.equal('europe-west4');
    const first = vertex.requests[0];
    expect(first?.path).to.equal('/v1/projects/proj-eu-1/locations/europe-west4/publishers/anthropic/models/alpha-sonnet-5@20260930:rawPredict');
    const sent = first?.json as Record<string, unknown>;
    expect(sent['anthropic_version']).to.equal(VERTEX_ANTHROPIC_VERSION);
    expect(sent).to.not.have.property('model');
    expect(first?.headers['anthropic-beta']).to.equal('beta-x');
    expect(first?.headers['authorization']).to.equal('Bearer ya29.fake-1');
    expect(JSON.stringify(first?.headers)).to.not.contain(key.key);
    const claims = JSON.parse(Buffer.from((response.headers.get('x-gateway-attestation') ?? '').split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
    expect(claims).to.deep.include({ platform: 'vertex', call_region: 'europe-west4', processing_regions: ['europe-west4'], upstream_model: 'alpha-sonnet-5@20260930' });

    const stream = sdk().messages.stream({ model: 'alpha-sonnet-5', max_tokens: 30, messages: [{ role: 'user', content: 'Stream bitte' }] });
    const final = await stream.finalMessage();
    expect(final.model).to.equal('alpha-sonnet-5');
    expect(vertex.requests[1]?.path).to.match(/:streamRawPredict$/);
    // Cached: one token for both calls.
    expect(vertex.requests[1]?.headers['authorization']).to.equal('Bearer ya29.fake-1');
    expect(metadata.issued).to.have.length(1);

    const rows = await waitForLedger(gw, (r) => r.some((x) => x.request_id === response.headers.get('request-id')));
    expect(rows.find((x) => x.request_id === response.headers.get('request-id'))).to.include({ call_region: 'europe-west4', residency: 'eu' });

    // Within 5 minutes of its expiry the token is replaced before it is used again.
    await sleep(2_500);
    await sdk().messages.create({ model: 'alpha-sonnet-5', max_tokens: 10, messages: [{ role: 'user', content: 'again' }] });
    expect(vertex.requests[2]?.headers['authorization']).to.equal('Bearer ya29.fake-2');
    expect(metadata.issued).to.have.length(2);
  });

  it('counts tokens on the location\'s count-tokens model with the model in the body', async function () {
    vertex.reset();
    const counted = await sdk().messages.countTokens({ model: 'alpha-sonnet-5', messages: [{ role: 'user', content: 'count these words please' }] });
    expect(counted.input_tokens).to.be.greaterThan(0);
    expect(vertex.requests[0]?.path).to.equal('/v1/projects/proj-eu-1/locations/europe-west4/publishers/anthropic/models/count-tokens:rawPredict');
    expect((vertex.requests[0]?.json as Record<string, unknown>)['model']).to.equal('alpha-sonnet-5@20260930');
  });

  it('maps Vertex\'s errors (Google\'s shape) to the vendor\'s family, without Google\'s words for the platform\'s own failures', async function () {
    const cases: Array<[number, number, string]> = [[429, 529, 'overloaded_error'], [503, 529, 'overloaded_error'], [500, 502, 'api_error'], [401, 502, 'api_error'], [403, 502, 'api_error']];
    for (const [status, answered, type] of cases) {
      vertex.reset();
      vertex.enqueue({ errorBefore: { status, message: 'Quota exceeded for aiplatform.googleapis.com' } });
      const res = await fetch(gw.url('/v1/messages'), {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key.key },
        body: JSON.stringify({ model: 'alpha-sonnet-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(res.status, String(status)).to.equal(answered);
      const body = (await res.json()) as { type: string; error: { type: string; message: string } };
      expect(body.type).to.equal('error');
      expect(body.error.type, String(status)).to.equal(type);
      expect(body.error.message).to.not.contain('aiplatform');
    }
    // A model Vertex does not have in the location: 404 in the vendor's family (a misconfigured route).
    vertex.reset();
    vertex.enqueue({ errorBefore: { status: 404, message: 'Publisher Model `alpha-sonnet-5@20260930` not found.' } });
    const missing = await fetch(gw.url('/v1/messages'), {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key.key },
      body: JSON.stringify({ model: 'alpha-sonnet-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(missing.status).to.equal(404);
    expect(((await missing.json()) as { error: { type: string } }).error.type).to.equal('not_found_error');
  });
});

describe('Vertex beside verified Bedrock routes: the EU multi-region endpoint, declared, and failover across platforms', function () {
  this.timeout(60_000);
  const CREDENTIALS = { accessKeyId: 'AKIDVERTEXMIXED01', secretAccessKey: 'vertex/mixed/secret/key/0123456789abcdef' };
  let runtime: BedrockFake;
  let control: BedrockControlFake;
  let regional: VertexFake;
  let multiRegion: VertexFake;
  let metadata: MetadataFake;
  let gw: TestGateway;
  let key: CreatedKey;
  let dir: string;
  let bedrockRoute: { upstream_model: string; call_region: string; processing_regions: string[] };

  before(async function () {
    metadata = await startMetadataFake({ expiresInSeconds: 3600 });
    regional = await startVertexFake({ tokenValid: (t) => metadata.valid(t) });
    multiRegion = await startVertexFake({ tokenValid: (t) => metadata.valid(t), endpoint: 'eu' });
    runtime = await startBedrockFake({ credentials: CREDENTIALS });
    control = await startBedrockControlFake({ credentials: CREDENTIALS, profiles: catalogueProfiles() });
    // Down at start: no Bedrock route is verified yet.
    control.setMode('down');
    dir = mkdtempSync(join(tmpdir(), 'gw-vertex-eu-'));
    // alpha-sonnet-5's eu tier: its first shipped Bedrock route, then Vertex's EU multi-region (declared, pre-GA).
    const setup = bedrockThenVertexEu(
      dir,
      { runtimeUrl: runtime.url, controlUrl: control.url, credentials: CREDENTIALS },
      { upstreams: { gcp: regional.url, 'gcp-eu': multiRegion.url }, vertexUpstream: 'gcp-eu', project: 'proj-eu-1' },
    );
    bedrockRoute = setup.bedrockRoute;
    gw = await new TestGateway({
      env: {
        ...setup.env,
        GCE_METADATA_HOST: metadata.host,
        RESIDENCY_VERIFY_INTERVAL_MS: '1000',
      },
    }).start();
    key = await createKey(gw, { env: 'live' });
  });
  after(async () => {
    await gw?.stop();
    for (const f of [regional, multiRegion, metadata, runtime, control]) await f?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const sdk = () => new Anthropic({ apiKey: key.key, baseURL: gw.baseURL, maxRetries: 0 });
  const claimsOf = (h: Headers): Record<string, unknown> =>
    JSON.parse(Buffer.from((h.get('x-gateway-attestation') ?? '').split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
  /** GET /v1/models/alpha-sonnet-5's processing_regions for the key: the union over the routes it may use now. */
  const listedRegions = async (): Promise<string[]> =>
    ((await (await fetch(gw.url('/v1/models/alpha-sonnet-5'), { headers: { 'x-api-key': key.key } })).json()) as { processing_regions: string[] }).processing_regions;

  it('with the Bedrock route not yet verified (skipped), serves on the EU multi-region endpoint, declared, JSON and streamed', async function () {
    const { data, response } = await sdk().messages.create({ model: 'alpha-sonnet-5', max_tokens: 20, messages: [{ role: 'user', content: 'Hallo EU' }] }).withResponse();
    expect(data.model).to.equal('alpha-sonnet-5');
    expect(runtime.requests).to.have.length(0);
    expect(regional.requests).to.have.length(0);
    expect(multiRegion.requests[0]?.path).to.equal('/v1/projects/proj-eu-1/locations/eu/publishers/anthropic/models/alpha-sonnet-5@20260930:rawPredict');
    expect(multiRegion.requests[0]?.status).to.equal(200);
    expect(response.headers.get('x-gateway-regions')).to.equal('eu');
    expect(claimsOf(response.headers)).to.deep.include({
      platform: 'vertex', call_region: 'eu', regions_basis: 'declared', attempts: [{ platform: 'vertex', call_region: 'eu', outcome: 'served' }],
    });
    const final = await sdk().messages.stream({ model: 'alpha-sonnet-5', max_tokens: 20, messages: [{ role: 'user', content: 'Stream EU' }] }).finalMessage();
    expect(final.model).to.equal('alpha-sonnet-5');
    expect(multiRegion.requests[1]?.path).to.match(/\/locations\/eu\/publishers\/anthropic\/models\/alpha-sonnet-5@20260930:streamRawPredict$/);
    // Only the Vertex route may serve: the model lists its regions alone.
    expect(await listedRegions()).to.deep.equal(['eu']);
  });

  it('once verified, Bedrock serves first; when it fails, the request moves on to Vertex inside the tier', async function () {
    control.setMode('up');
    await waitReady(gw);
    multiRegion.reset();
    const { response } = await sdk().messages.create({ model: 'alpha-sonnet-5', max_tokens: 20, messages: [{ role: 'user', content: 'Bedrock first' }] }).withResponse();
    expect(claimsOf(response.headers)).to.deep.include({ platform: 'bedrock', call_region: bedrockRoute.call_region, regions_basis: 'verified' });
    expect(runtime.requests).to.have.length(1);
    expect(multiRegion.requests).to.have.length(0);

    runtime.setBehaviour({ errorBefore: { status: 503 } });
    const moved = await sdk().messages.create({ model: 'alpha-sonnet-5', max_tokens: 20, messages: [{ role: 'user', content: 'then Google' }] }).withResponse();
    expect(moved.response.headers.get('x-gateway-model')).to.equal('alpha-sonnet-5@20260930');
    expect(claimsOf(moved.response.headers)).to.deep.include({
      platform: 'vertex', call_region: 'eu', regions_basis: 'declared',
      attempts: [{ platform: 'bedrock', call_region: bedrockRoute.call_region, outcome: 'unavailable' }, { platform: 'vertex', call_region: 'eu', outcome: 'served' }],
    });
    expect(runtime.requests).to.have.length(2);
    expect(multiRegion.requests).to.have.length(1);
    const id = moved.response.headers.get('request-id') as string;
    const rows = await waitForLedger(gw, (r) => r.some((x) => x.request_id === id));
    expect(rows.find((x) => x.request_id === id)).to.include({ platform: 'vertex', call_region: 'eu', residency: 'eu' });

    // Both routes may serve now: GET /v1/models lists the union of their regions (the tier's order), not route 1's.
    expect(await listedRegions()).to.deep.equal([...bedrockRoute.processing_regions, 'eu']);
    // The residency report breaks the key's account down by platform and call region: one row per route that served.
    const token = await adminToken(gw, 'root@example.com');
    const report = (await (await fetch(`http://127.0.0.1:${gw.adminPort}/admin/v1/residency-report?account=${key.account_id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as Array<Record<string, unknown>>;
    const byRoute = report.map((r) => [r['platform'], r['call_region'], r['regions_basis'], r['requests']]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(byRoute).to.deep.equal([['bedrock', bedrockRoute.call_region, 'verified', 1], ['vertex', 'eu', 'declared', 3]]);
  });
});

describe('a Vertex route whose token does not come in time (a metadata server that hangs)', function () {
  this.timeout(60_000);
  const CONNECT_TIMEOUT_MS = 500;
  let metadata: MetadataFake;
  let vertex: VertexFake;
  let messages: MessagesFake;
  let gw: TestGateway;
  let key: CreatedKey;
  let dir: string;

  before(async function () {
    metadata = await startMetadataFake({ expiresInSeconds: 3600 });
    vertex = await startVertexFake({ tokenValid: (t) => metadata.valid(t) });
    messages = await startMessagesFake();
    dir = mkdtempSync(join(tmpdir(), 'gw-vertex-token-'));
    // alpha-sonnet-5's eu tier: Vertex in the Netherlands first, then the shipped route called from eu-west-1.
    const catalogue = JSON.parse(readFileSync(CATALOGUE_FILE, 'utf8')) as { tiers: Record<string, { regions: string[] }>; models: Array<{ id: string; routes: Record<string, Array<Record<string, unknown>>> }> };
    catalogue.tiers['eu']?.regions.push('europe-west4');
    const sonnet = catalogue.models.find((m) => m.id === 'alpha-sonnet-5');
    const shipped = sonnet?.routes['eu']?.[1] as Record<string, unknown>;
    if (sonnet !== undefined) sonnet.routes['eu'] = [{ upstream: 'gcp', upstream_model: 'alpha-sonnet-5@20260930', call_region: 'europe-west4', processing_regions: ['europe-west4'] }, shipped];
    writeFileSync(join(dir, 'catalogue.json'), JSON.stringify(catalogue));
    writeFileSync(join(dir, 'upstreams.json'), JSON.stringify({
      gcp: { platform: 'vertex', project: 'proj-eu-1', url: vertex.url },
      default: { platform: 'messages', url: `${messages.url}/{region}/v1`, api_key: 'up' },
    }));
    gw = await new TestGateway({
      env: {
        CATALOGUE_FILE: join(dir, 'catalogue.json'), UPSTREAMS_FILE: join(dir, 'upstreams.json'), GCE_METADATA_HOST: metadata.host,
        UPSTREAM_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
      },
    }).start();
    key = await createKey(gw, { env: 'live' });
  });
  after(async () => {
    await gw?.stop();
    for (const f of [vertex, messages, metadata]) await f?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds the token fetch to UPSTREAM_CONNECT_TIMEOUT_MS and moves on to the next route (attempt outcome timeout)', async function () {
    metadata.hangTokens(true);
    const started = Date.now();
    const res = await fetch(gw.url('/v1/messages'), {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key.key },
      body: JSON.stringify({ model: 'alpha-sonnet-5', max_tokens: 10, messages: [{ role: 'user', content: 'no token yet' }] }),
    });
    const took = Date.now() - started;
    expect(res.status).to.equal(200);
    await res.arrayBuffer();
    // The library's own limit off Google Cloud is 3 s (none on it): the gateway's connect limit came first.
    expect(took).to.be.lessThan(CONNECT_TIMEOUT_MS + 1_500);
    expect(vertex.requests).to.have.length(0);
    expect(messages.requests.map((r) => r.region)).to.deep.equal(['eu-west-1']);
    const claims = JSON.parse(Buffer.from((res.headers.get('x-gateway-attestation') ?? '').split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
    expect(claims['attempts']).to.deep.equal([
      { platform: 'vertex', call_region: 'europe-west4', outcome: 'timeout' },
      { platform: 'messages', call_region: 'eu-west-1', outcome: 'served' },
    ]);
  });
});
