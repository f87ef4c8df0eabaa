/*
 * Two AWS accounts serving one tier (CONTRACT.md "Routes and failover"): each route is verified against its own
 * account's control plane, with that account's credentials, in its own call region; a failing route 1 moves the
 * request to the other account; a route whose own evidence turns outside the tier is skipped while the other
 * account's route keeps serving, and no request reaches it.
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBedrockControlFake, startBedrockFake, type BedrockControlFake, type BedrockFake } from './fakes/index.js';
import { TestGateway, createKey, type CreatedKey } from './harness/gateway.js';
import { CATALOGUE_FILE, catalogueProfiles, waitReady } from './harness/residency.js';
import { sha256Hex } from './harness/attestation-verifier.js';
import { sleep } from './harness/clock.js';

const ACCOUNT_A = { accessKeyId: 'AKIDACCOUNTAAAAA01', secretAccessKey: 'account/a/secret/key/0123456789abcdefgh' };
const ACCOUNT_B = { accessKeyId: 'AKIDACCOUNTBBBBB02', secretAccessKey: 'account/b/secret/key/0123456789abcdefgh' };
const SONNET_PROFILE = 'eu.anthropic.alpha-sonnet-5-v1:0';

describe('two AWS accounts in one tier: each route verified and called with its own account', function () {
  this.timeout(60_000);
  let runtimeA: BedrockFake;
  let runtimeB: BedrockFake;
  let controlA: BedrockControlFake;
  let controlB: BedrockControlFake;
  let gw: TestGateway;
  let key: CreatedKey;
  let dir: string;
  const tierRegions = (JSON.parse(readFileSync(CATALOGUE_FILE, 'utf8')) as { tiers: Record<string, { regions: string[] }> }).tiers['eu']?.regions ?? [];

  before(async function () {
    runtimeA = await startBedrockFake({ credentials: ACCOUNT_A });
    runtimeB = await startBedrockFake({ credentials: ACCOUNT_B });
    controlA = await startBedrockControlFake({ credentials: ACCOUNT_A, profiles: catalogueProfiles() });
    controlB = await startBedrockControlFake({ credentials: ACCOUNT_B, profiles: catalogueProfiles() });
    dir = mkdtempSync(join(tmpdir(), 'gw-two-accounts-'));
    // Account A from the environment; account B a named profile in the shared credentials file.
    mkdirSync(join(dir, 'home/.aws'), { recursive: true });
    writeFileSync(join(dir, 'home/.aws/credentials'), `[second-account]\naws_access_key_id = ${ACCOUNT_B.accessKeyId}\naws_secret_access_key = ${ACCOUNT_B.secretAccessKey}\n`);
    const catalogue = JSON.parse(readFileSync(CATALOGUE_FILE, 'utf8')) as { models: Array<{ id: string; routes: Record<string, Array<Record<string, unknown>>> }> };
    const sonnet = catalogue.models.find((m) => m.id === 'alpha-sonnet-5');
    const [first, second] = sonnet?.routes['eu'] ?? [];
    if (sonnet !== undefined) sonnet.routes['eu'] = [{ ...first, upstream: 'aws-a' }, { ...second, upstream: 'aws-b' }];
    writeFileSync(join(dir, 'catalogue.json'), JSON.stringify(catalogue));
    writeFileSync(join(dir, 'upstreams.json'), JSON.stringify({
      'aws-a': { platform: 'bedrock', url: `${runtimeA.url}/{region}`, control_url: `${controlA.url}/{region}` },
      'aws-b': { platform: 'bedrock', aws_profile: 'second-account', url: `${runtimeB.url}/{region}`, control_url: `${controlB.url}/{region}` },
    }));
    gw = await new TestGateway({
      env: {
        CATALOGUE_FILE: join(dir, 'catalogue.json'),
        UPSTREAMS_FILE: join(dir, 'upstreams.json'),
        AWS_ACCESS_KEY_ID: ACCOUNT_A.accessKeyId,
        AWS_SECRET_ACCESS_KEY: ACCOUNT_A.secretAccessKey,
        AWS_EC2_METADATA_DISABLED: 'true',
        HOME: join(dir, 'home'),
        RESIDENCY_VERIFY_INTERVAL_MS: '1000',
      },
    }).start();
    key = await createKey(gw, { env: 'live' });
    await waitReady(gw);
  });
  after(async () => {
    await gw?.stop();
    for (const f of [runtimeA, runtimeB, controlA, controlB]) await f?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (stream = false) => fetch(gw.url('/v1/messages'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key.key },
    body: JSON.stringify({ model: 'alpha-sonnet-5', max_tokens: 20, stream, messages: [{ role: 'user', content: 'Which account?' }] }),
  });
  const eventsOf = (text: string): string[] => text.split('\n\n').filter((b) => b.trim() !== '').map((b) => /^event: (.+)$/m.exec(b)?.[1] ?? '');
  const claimsOf = (res: Response): Record<string, unknown> =>
    JSON.parse(Buffer.from((res.headers.get('x-gateway-attestation') ?? '').split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
  const sonnetChecks = (c: BedrockControlFake) => c.requests.filter((r) => r.resourceId === SONNET_PROFILE);

  it('verifies each route with its own account in its own call region, and serves on route 1', async function () {
    // Each account's control plane was asked about sonnet's route on it only, signed with that account's key.
    expect(sonnetChecks(controlA).length).to.be.greaterThan(0);
    expect(sonnetChecks(controlB).length).to.be.greaterThan(0);
    expect(sonnetChecks(controlA).every((r) => r.signatureValid && r.region === 'eu-central-1')).to.equal(true);
    expect(sonnetChecks(controlB).every((r) => r.signatureValid && r.region === 'eu-west-1')).to.equal(true);
    const res = await post();
    expect(res.status).to.equal(200);
    expect(runtimeA.requests.map((r) => [r.region, r.signatureValid])).to.deep.equal([['eu-central-1', true]]);
    expect(runtimeB.requests).to.have.length(0);
    expect(claimsOf(res)).to.include({ call_region: 'eu-central-1', regions_basis: 'verified', platform: 'bedrock' });
  });

  it('moves to the other account when route 1 fails, on that account\'s own evidence', async function () {
    runtimeA.setBehaviour({ errorBefore: { status: 503 } });
    const res = await post();
    expect(res.status).to.equal(200);
    expect(runtimeB.requests.map((r) => [r.region, r.signatureValid])).to.deep.equal([['eu-west-1', true]]);
    const claims = claimsOf(res);
    const answer = [...controlB.requests].reverse().find((r) => r.resourceId === SONNET_PROFILE && r.answer !== null);
    expect(claims).to.deep.include({
      call_region: 'eu-west-1', regions_basis: 'verified', evidence_sha256: sha256Hex(answer?.answer as string),
      attempts: [{ platform: 'bedrock', call_region: 'eu-central-1', outcome: 'unavailable' }, { platform: 'bedrock', call_region: 'eu-west-1', outcome: 'served' }],
    });
  });

  it('takes a throttlingException before message_start as throttling: route 1 skipped for a while, not failed; the other account streams', async function () {
    runtimeA.reset();
    runtimeB.reset();
    const throttled = { errorBeforeStart: { type: 'throttlingException', message: 'Too many requests, please wait before trying again.' } };
    runtimeA.setBehaviour(throttled);
    const res = await post(true);
    const events = eventsOf(await res.text());
    expect(res.status).to.equal(200);
    expect(events.filter((e) => e === 'message_start')).to.have.length(1);
    expect(events).to.not.include('error');
    expect(events.at(-1)).to.equal('message_stop');
    // Throttling, not a platform failure: attested and counted as such, so it never opens route 1's breaker.
    expect(claimsOf(res)['attempts']).to.deep.equal([
      { platform: 'bedrock', call_region: 'eu-central-1', outcome: 'throttled' },
      { platform: 'bedrock', call_region: 'eu-west-1', outcome: 'served' },
    ]);
    // Skipped for its second: the next request goes to account B without calling route 1.
    runtimeA.reset();
    runtimeB.reset();
    runtimeA.setBehaviour(throttled);
    const next = await post(true);
    await next.text();
    expect(runtimeA.requests).to.have.length(0);
    expect(runtimeB.requests.map((r) => r.region)).to.deep.equal(['eu-west-1']);
    await sleep(1_100);
    // As the previous case left it, for the next.
    runtimeA.setBehaviour({ errorBefore: { status: 503 } });
  });

  it('skips the other account\'s route once its own evidence leaves the tier: route 1\'s error, and no call to it', async function () {
    controlB.setProfile(SONNET_PROFILE, [...tierRegions, 'us-east-1']);
    const seen = sonnetChecks(controlB).length;
    await controlB.waitFor((rs) => rs.filter((r) => r.resourceId === SONNET_PROFILE).length >= seen + 2);
    await sleep(100);
    runtimeB.reset();
    const res = await post();
    expect(res.status).to.equal(529);
    expect(runtimeB.requests).to.have.length(0);
    expect(claimsOf(res)['attempts']).to.deep.equal([{ platform: 'bedrock', call_region: 'eu-central-1', outcome: 'unavailable' }]);
    // Account A's route, still verified, serves as soon as it recovers.
    runtimeA.setBehaviour(null);
    expect((await post()).status).to.equal(200);
  });
});
