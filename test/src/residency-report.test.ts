/**
 * Evidence on file (issue 23): every live request's ledger row keeps the route its attestation names (tier, call
 * region, processing regions, basis, the control plane's evidence), and the admin API reports it per day and
 * route for a record of processing, as JSON or CSV, scoped as every admin endpoint is.
 */
import { expect } from 'chai';
import { startBedrockControlFake, startBedrockFake, type BedrockControlFake, type BedrockFake, type MessagesFake } from './fakes/index.js';
import { adminToken } from './harness/admins.js';
import { sha256Hex, verifyIndependently, type Jwk } from './harness/attestation-verifier.js';
import { startBilledUpstream } from './harness/billed-upstream.js';
import { TestGateway, createKey, type CreatedKey } from './harness/gateway.js';
import { waitForLedger, type LedgerRow } from './harness/ledger.js';
import { bedrockGatewayEnv, catalogue, catalogueProfiles, waitReady } from './harness/residency.js';

const CREDENTIALS = { accessKeyId: 'AKIDEVIDENCETEST01', secretAccessKey: 'evidence/test/secret/key/0123456789abcd' };
const hello = (model: string) => ({ model, max_tokens: 20, messages: [{ role: 'user', content: 'Where do I run?' }] });
const today = () => new Date().toISOString().slice(0, 10);

interface ReportRow {
  date: string;
  tier: string | null;
  call_region: string | null;
  processing_regions: string[] | null;
  regions_basis: string | null;
  requests: number;
  billable_units: number;
  platform: string | null;
}

async function send(gw: TestGateway, k: CreatedKey, model: string): Promise<{ requestId: string; claims: Record<string, unknown> }> {
  const res = await fetch(gw.url('/v1/messages'), {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': k.key }, body: JSON.stringify(hello(model)),
  });
  expect(res.status, await res.clone().text()).to.equal(200);
  await res.text();
  const jwks = (await (await fetch(gw.url('/v1/attestation/keys'))).json()) as { keys: Jwk[] };
  const v = verifyIndependently(res.headers.get('x-gateway-attestation') as string, jwks);
  if (!v.ok) throw new Error(v.reason);
  return { requestId: res.headers.get('request-id') as string, claims: v.payload };
}

async function rowsOf(gw: TestGateway, ids: string[]): Promise<Map<string, LedgerRow>> {
  const rows = await waitForLedger(gw, (all) => ids.every((id) => all.some((r) => r.request_id === id)));
  return new Map(rows.filter((r) => ids.includes(r.request_id)).map((r) => [r.request_id, r]));
}

/** The ledger row says what the attestation said: the same route, basis and evidence (the time to its second). */
function expectRowMatchesAttestation(row: LedgerRow | undefined, claims: Record<string, unknown>): void {
  expect(row).to.not.equal(undefined);
  const r = row as LedgerRow;
  expect(r.residency).to.equal(claims['residency']);
  expect(r.call_region).to.equal(claims['call_region']);
  expect(JSON.parse(r.processing_regions as string)).to.deep.equal(claims['processing_regions']);
  expect(r.regions_basis).to.equal(claims['regions_basis']);
  expect(r.platform).to.equal(claims['platform']);
  expect(r.evidence_sha256).to.equal(claims['evidence_sha256']);
  const at = claims['evidence_at'] === null ? null : Date.parse(claims['evidence_at'] as string);
  expect(r.evidence_at_ms === null ? null : Math.floor(r.evidence_at_ms / 1000) * 1000).to.equal(at);
}

describe('evidence on file: the ledger\'s residency columns and the residency report', function () {
  this.timeout(60_000);

  describe('a Bedrock deployment (routes verified against the control plane)', function () {
    let runtime: BedrockFake;
    let control: BedrockControlFake;
    let gw: TestGateway;
    let eu: CreatedKey;
    let uk: CreatedKey;
    let other: CreatedKey;
    let platform: string;
    let accountAdmin: string;
    const admin = (token: string, path: string) =>
      fetch(`http://127.0.0.1:${gw.adminPort}${path}`, { headers: { authorization: `Bearer ${token}` } });

    before(async function () {
      runtime = await startBedrockFake({ credentials: CREDENTIALS });
      control = await startBedrockControlFake({ credentials: CREDENTIALS, profiles: catalogueProfiles() });
      gw = await new TestGateway({
        env: bedrockGatewayEnv(runtime.url, control.url, CREDENTIALS),
      }).start();
      await waitReady(gw);
      eu = await createKey(gw, { env: 'live', residency: 'eu' });
      uk = await createKey(gw, { env: 'live', residency: 'uk', account: eu.account_id });
      other = await createKey(gw, { env: 'live', residency: 'eu' });
      platform = await adminToken(gw, 'root@example.com');
      accountAdmin = await adminToken(gw, 'a@example.com', eu.account_id);
    });
    after(async () => {
      await gw?.stop();
      await runtime?.close();
      await control?.close();
    });

    it('keeps each row\'s route and evidence as attested, and reports them per day and route, as JSON and CSV, scoped', async function () {
      const a1 = await send(gw, eu, 'alpha-sonnet-5');
      const a2 = await send(gw, eu, 'alpha-sonnet-5');
      const london = await send(gw, uk, 'alpha-sonnet-4-6');
      const elsewhere = await send(gw, other, 'alpha-sonnet-5');
      const test = await createKey(gw, { env: 'test', residency: 'eu', account: eu.account_id });
      const stub = await send(gw, test, 'alpha-sonnet-5'); // test traffic: attested, never in the report
      const rows = await rowsOf(gw, [a1, a2, london, elsewhere, stub].map((x) => x.requestId));

      // The evidence on file is the control plane's answer the attestation names.
      const answer = [...control.requests].reverse().find((r) => r.resourceId === a1.claims['upstream_model'] && r.region === a1.claims['call_region'] && r.answer !== null);
      expect(a1.claims).to.include({ regions_basis: 'verified', evidence_sha256: sha256Hex(answer?.answer as string) });
      for (const x of [a1, a2, london, elsewhere]) expectRowMatchesAttestation(rows.get(x.requestId), x.claims);
      expect(rows.get(london.requestId)).to.include({ residency: 'uk', call_region: 'eu-west-2', processing_regions: '["eu-west-2"]', regions_basis: 'verified' });

      // The report: the account's rows (the platform asks for it by id; its administrator gets it as their own).
      const euRoute = {
        date: today(), tier: 'eu', call_region: a1.claims['call_region'], processing_regions: a1.claims['processing_regions'], regions_basis: 'verified',
        platform: 'bedrock',
      };
      const ukRoute = { date: today(), tier: 'uk', call_region: 'eu-west-2', processing_regions: ['eu-west-2'], regions_basis: 'verified', platform: 'bedrock' };
      const unitsOf = (...xs: Array<{ requestId: string }>) => xs.reduce((n, x) => n + (rows.get(x.requestId)?.billable_units ?? 0), 0);
      const expected = [ // by day, then tier
        { ...euRoute, requests: 2, billable_units: unitsOf(a1, a2) },
        { ...ukRoute, requests: 1, billable_units: unitsOf(london) },
      ];
      const range = `from=${today()}&to=${today()}`;
      const byPlatform = await admin(platform, `/admin/v1/residency-report?${range}&account=${eu.account_id}`);
      expect(byPlatform.status).to.equal(200);
      expect(await byPlatform.json()).to.deep.equal(expected);
      const own = await admin(accountAdmin, `/admin/v1/residency-report?${range}`);
      expect(await own.json()).to.deep.equal(expected);
      // Every account for the platform: the other account's request joins the EU row.
      const all = (await (await admin(platform, `/admin/v1/residency-report?${range}`)).json()) as ReportRow[];
      expect(all.find((r) => r.tier === 'eu')).to.include({ requests: 3, billable_units: unitsOf(a1, a2, elsewhere) });
      // An account administrator asking for another account: 404, as for an account that does not exist.
      const refused = await admin(accountAdmin, `/admin/v1/residency-report?${range}&account=${other.account_id}`);
      expect(refused.status).to.equal(404);
      expect(((await refused.json()) as { error: { type: string } }).error.type).to.equal('not_found_error');
      expect((await admin(platform, `/admin/v1/residency-report?from=2026-13-01`)).status).to.equal(400);
      expect((await admin(platform, `/admin/v1/residency-report?format=xml`)).status).to.equal(400);

      // gatewayctl: the same rows through the same service.
      expect(await gw.ctl('residency-report', '--account', eu.account_id, '--from', today(), '--to', today())).to.deep.equal(expected);

      // CSV: the same rows, a header line, the regions in one quoted field.
      const csv = await admin(accountAdmin, `/admin/v1/residency-report?${range}&format=csv`);
      expect(csv.status).to.equal(200);
      expect(csv.headers.get('content-type')).to.match(/^text\/csv; charset=utf-8/);
      expect(csv.headers.get('content-disposition')).to.match(/^attachment; filename="residency-report\.csv"$/);
      const lines = (await csv.text()).split('\r\n');
      expect(lines[0]).to.equal('date,tier,call_region,processing_regions,regions_basis,requests,billable_units,platform');
      expect(lines.slice(1)).to.deep.equal([
        `${today()},eu,${String(a1.claims['call_region'])},"${(a1.claims['processing_regions'] as string[]).join(',')}",verified,2,${unitsOf(a1, a2)},bedrock`,
        `${today()},uk,eu-west-2,eu-west-2,verified,1,${unitsOf(london)},bedrock`, // one region: nothing to quote
        '',
      ]);
    });
  });

  describe('a Messages-API deployment (regions declared by the catalogue)', function () {
    let upstream: MessagesFake;
    let gw: TestGateway;

    before(async function () {
      const billed = await startBilledUpstream();
      upstream = billed.fake;
      gw = await new TestGateway({ env: billed.env }).start();
    });
    after(async () => {
      await gw?.stop();
      await upstream?.close();
    });

    it('records the declared route without evidence, and reports it as declared', async function () {
      const k = await createKey(gw, { env: 'live', residency: 'eu' });
      const x = await send(gw, k, 'alpha-sonnet-5');
      expect(x.claims).to.include({ regions_basis: 'declared', evidence_sha256: null, evidence_at: null });
      const row = (await rowsOf(gw, [x.requestId])).get(x.requestId);
      expectRowMatchesAttestation(row, x.claims);
      const declared = catalogue().models.find((m) => m.id === 'alpha-sonnet-5')?.routes['eu']?.[0];
      const token = await adminToken(gw, 'root@example.com');
      const res = await fetch(`http://127.0.0.1:${gw.adminPort}/admin/v1/residency-report?account=${k.account_id}`, { headers: { authorization: `Bearer ${token}` } });
      expect(await res.json()).to.deep.equal([{
        date: today(), tier: 'eu', call_region: declared?.call_region, processing_regions: declared?.processing_regions, regions_basis: 'declared',
        requests: 1, billable_units: 150, platform: 'messages',
      }]);
    });
  });
});
