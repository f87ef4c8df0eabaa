import { expect } from 'chai';
import { startBedrockControlFake, startBedrockFake, type BedrockControlFake, type BedrockFake } from './fakes/index.js';
import { TestGateway, createKey, type CreatedKey } from './harness/gateway.js';
import { bedrockGatewayEnv, catalogue, catalogueProfiles, waitReady } from './harness/residency.js';
import { sha256Hex, verifyIndependently, type Jwk } from './harness/attestation-verifier.js';
import { sleep } from './harness/clock.js';

const CREDENTIALS = { accessKeyId: 'AKIDRESIDENCYTEST1', secretAccessKey: 'residency/test/secret/key/0123456789abc' };
const SONNET_PROFILE = 'eu.anthropic.alpha-sonnet-5-v1:0';
const hello = (model: string) => ({ model, max_tokens: 20, messages: [{ role: 'user', content: 'Where do I run?' }] });

describe('route verification against the platform\'s control plane (UPSTREAM_KIND=bedrock)', function () {
  this.timeout(40_000);
  let runtime: BedrockFake;
  let control: BedrockControlFake;
  let gw: TestGateway;
  let eu: CreatedKey;
  let uk: CreatedKey;
  let policyMetricsPort = 0;
  const tier = catalogue().tiers;

  before(async function () {
    runtime = await startBedrockFake({ credentials: CREDENTIALS });
    control = await startBedrockControlFake({ credentials: CREDENTIALS, profiles: catalogueProfiles() });
    // Down at start: the proxies must not be ready before the first resolution.
    control.setMode('down');
    gw = await new TestGateway({
      env: {
        ...bedrockGatewayEnv(runtime.url, control.url, CREDENTIALS),
        RESIDENCY_VERIFY_INTERVAL_MS: '1000',
        RESIDENCY_VERIFY_MAX_AGE_MS: '4000',
      },
    }).start();
    policyMetricsPort = gw.policy.lines.find((l) => l.msg === 'policy service listening')?.['metrics_port'] as number;
    eu = await createKey(gw, { env: 'live', residency: 'eu' });
    uk = await createKey(gw, { env: 'live', residency: 'uk', account: eu.account_id });
  });
  after(async () => {
    await gw.stop();
    await runtime.close();
    await control.close();
  });

  const post = (k: CreatedKey, model: string) =>
    fetch(gw.url('/v1/messages'), { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': k.key }, body: JSON.stringify(hello(model)) });
  const metric = async (name: string, model: string, t: string): Promise<number | undefined> => {
    const text = await (await fetch(`http://127.0.0.1:${policyMetricsPort}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(`model="${model}"`) && l.includes(`tier="${t}"`));
    return line === undefined ? undefined : Number(line.split(' ').at(-1));
  };
  const until = async (what: string, test: () => Promise<boolean>, timeoutMs = 8_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!(await test())) {
      if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
      await sleep(100);
    }
  };

  it('is not ready until the control plane has answered for every route, then serves with verified evidence', async function () {
    expect((await fetch(gw.url('/readyz'))).status).to.equal(503);
    const refused = await post(eu, 'alpha-sonnet-5');
    expect(refused.status).to.equal(403);
    expect(((await refused.json()) as { error: { type: string } }).error.type).to.equal('residency_unavailable');
    control.setMode('up');
    await waitReady(gw);
    // Every call was SigV4-signed for the service and the call region it went to.
    expect(control.requests.length).to.be.greaterThan(0);
    expect(control.requests.every((r) => r.signatureValid)).to.equal(true);

    const res = await post(eu, 'alpha-sonnet-5');
    expect(res.status).to.equal(200);
    const jwks = (await (await fetch(gw.url('/v1/attestation/keys'))).json()) as { keys: Jwk[] };
    const v = verifyIndependently(res.headers.get('x-gateway-attestation') as string, jwks);
    if (!v.ok) throw new Error(v.reason);
    // Each route is verified in its own call region: the evidence is the answer for the route that served.
    const answer = [...control.requests].reverse().find((r) => r.resourceId === SONNET_PROFILE && r.region === v.payload['call_region'] && r.answer !== null);
    expect(v.payload).to.include({ regions_basis: 'verified', evidence_sha256: sha256Hex(answer?.answer as string) });
    const evidenceAt = Date.parse(v.payload['evidence_at'] as string);
    expect(Date.now() - evidenceAt).to.be.within(0, 5_000);
    expect(v.payload['processing_regions']).to.have.members(tier['eu']?.regions ?? []);

    const london = await post(uk, 'alpha-sonnet-4-6');
    expect(london.status).to.equal(200);
    const foundation = control.requests.find((r) => r.operation === 'GetFoundationModel');
    expect(foundation?.region).to.equal('eu-west-2');
    expect(await metric('gateway_residency_route_verified', 'alpha-sonnet-5', 'eu')).to.equal(1);
    expect(await metric('gateway_residency_evidence_age_seconds', 'alpha-sonnet-5', 'eu')).to.be.within(0, 5);
  });

  it('stops a route whose profile gained a region outside the tier at the next refresh, and serves the others', async function () {
    control.setProfile(SONNET_PROFILE, [...(tier['eu']?.regions ?? []), 'us-east-1']);
    await until('the widened route is refused', async () => (await post(eu, 'alpha-sonnet-5')).status === 403);
    const sent = runtime.requests.filter((r) => r.modelId === SONNET_PROFILE).length;
    const refused = await post(eu, 'alpha-sonnet-5');
    const body = (await refused.json()) as { error: { type: string; message: string } };
    expect(body.error.type).to.equal('residency_unavailable');
    expect(body.error.message).to.contain('us-east-1');
    expect((await post(eu, 'alpha-opus-5')).status).to.equal(200);
    expect(await metric('gateway_residency_route_verified', 'alpha-sonnet-5', 'eu')).to.equal(0);
    expect(await metric('gateway_residency_route_verified', 'alpha-opus-5', 'eu')).to.equal(1);
    // Still ready (the other routes are served), and /readyz says which route is not.
    const ready = await fetch(gw.url('/readyz'));
    expect(ready.status).to.equal(200);
    const detail = ((await ready.json()) as { residency: Array<{ model: string; tier: string; verified: boolean; evidence_age_seconds: number | null }> }).residency;
    expect(detail.find((r) => r.model === 'alpha-sonnet-5' && r.tier === 'eu')?.verified).to.equal(false);
    expect(detail.find((r) => r.model === 'alpha-opus-5' && r.tier === 'eu')).to.deep.include({ verified: true });
    expect(detail.every((r) => r.evidence_age_seconds !== null && r.evidence_age_seconds <= 5)).to.equal(true);
    expect(detail).to.have.length(catalogue().models.reduce((n, m) => n + Object.keys(m.routes).length, 0));
    const models = (await (await fetch(gw.url('/v1/models'), { headers: { 'x-api-key': eu.key } })).json()) as { data: Array<{ id: string; processing_regions: string[] }> };
    expect(models.data.find((m) => m.id === 'alpha-sonnet-5')?.processing_regions).to.deep.equal([]);
    expect(models.data.find((m) => m.id === 'alpha-opus-5')?.processing_regions).to.have.length(7);
    // The refused request never reached the runtime: no fallback, no other region.
    expect(runtime.requests.filter((r) => r.modelId === SONNET_PROFILE)).to.have.length(sent);
    control.setProfile(SONNET_PROFILE, tier['eu']?.regions ?? []);
    await until('the route is served again', async () => (await post(eu, 'alpha-sonnet-5')).status === 200);
  });

  it('keeps serving through a control-plane outage until the evidence is too old, then refuses', async function () {
    control.setMode('down');
    const downAt = Date.now();
    expect((await post(eu, 'alpha-opus-5')).status).to.equal(200);
    await until('the stale route is refused', async () => (await post(eu, 'alpha-opus-5')).status === 403, 10_000);
    expect(Date.now() - downAt).to.be.greaterThan(1_000);
    const body = (await (await post(eu, 'alpha-opus-5')).json()) as { error: { message: string } };
    expect(body.error.message).to.contain('last verified');
    expect(await metric('gateway_residency_evidence_age_seconds', 'alpha-opus-5', 'eu')).to.be.greaterThan(4);
    control.setMode('up');
    await until('served again once the control plane answers', async () => (await post(eu, 'alpha-opus-5')).status === 200);
  });

  it('counts an authorisation failure at once (the alert fires on it)', async function () {
    const before = (await metricText()).match(/gateway_residency_control_plane_errors_total\{[^}]*kind="unauthorised"[^}]*\} (\d+)/)?.[1] ?? '0';
    control.setMode('deny');
    await until('an unauthorised resolution is counted', async () => {
      const now = (await metricText()).match(/gateway_residency_control_plane_errors_total\{[^}]*kind="unauthorised"[^}]*\} (\d+)/)?.[1] ?? '0';
      return Number(now) > Number(before);
    });
    control.setMode('up');
  });

  const metricText = async () => (await fetch(`http://127.0.0.1:${policyMetricsPort}/metrics`)).text();
});
