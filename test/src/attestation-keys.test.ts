import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGatewayctl } from '@gateway/policy';
import { TestGateway, createKey, type CreatedKey } from './harness/gateway.js';
import { thumbprint, verifyIndependently, type Jwk } from './harness/attestation-verifier.js';
import { sleep } from './harness/clock.js';

/** gatewayctl in this process, its exit code and parsed --json output. */
async function ctl(env: Record<string, string>, ...args: string[]): Promise<{ code: number; json: Record<string, unknown> }> {
  let out = '';
  const code = await runGatewayctl([...args, '--json'], env, (s) => (out += s), () => undefined);
  return { code, json: JSON.parse(out) as Record<string, unknown> };
}

const pemOf = () => generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
const hello = { model: 'alpha-sonnet-5', max_tokens: 5, messages: [{ role: 'user', content: 'rotate me' }] };

describe('attestation keys: the data directory, rotation, ATTESTATION_KEY_FILE and gatewayctl verify', function () {
  this.timeout(30_000);
  let gw: TestGateway;
  let key: CreatedKey;
  let scratch: string;
  const env = () => ({ GATEWAY_DATA_DIR: gw.dataDir });
  const jwksNow = async (g: TestGateway = gw) => (await (await fetch(g.url('/v1/attestation/keys'))).json()) as { keys: Jwk[] };
  const attest = async (g: TestGateway, k: CreatedKey) => {
    const res = await fetch(g.url('/v1/messages'), { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': k.key }, body: JSON.stringify(hello) });
    expect(res.status).to.equal(200);
    return res.headers.get('x-gateway-attestation') as string;
  };

  before(async function () {
    gw = await new TestGateway().start();
    key = await createKey(gw, {});
    scratch = mkdtempSync(join(tmpdir(), 'gw-attest-'));
  });
  after(async () => {
    await gw.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('creates a signing key in the data directory on first start, readable by its owner only', function () {
    const file = join(gw.dataDir, 'attestation-keys.pem');
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    expect(readFileSync(file, 'utf8').match(/BEGIN PRIVATE KEY/g)).to.have.length(1);
  });

  it('verifies with gatewayctl: exit 0 and the payload when valid, exit 1 and a reason when a byte changed', async function () {
    const jws = await attest(gw, key);
    const ok = await ctl(env(), 'attestation', 'verify', jws);
    expect(ok.code).to.equal(0);
    expect(ok.json['valid']).to.equal(true);
    expect(ok.json['reason']).to.equal(null);
    expect((ok.json['payload'] as Record<string, unknown>)['key_id']).to.equal(key.id);

    const jwksFile = join(scratch, 'jwks.json');
    writeFileSync(jwksFile, JSON.stringify(await jwksNow()));
    expect((await ctl({ GATEWAY_DATA_DIR: scratch }, 'attestation', 'verify', jws, '--jwks', jwksFile)).code).to.equal(0);

    const [h, p, s] = jws.split('.') as [string, string, string];
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...payload, residency: 'uk' })).toString('base64url')}.${s}`;
    // The signature's last character with its lowest bit flipped: that bit is padding (64 bytes in 86 characters),
    // so the bytes are the same and only a strict decoder notices the change.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const lastChar = alphabet[alphabet.indexOf(s.at(-1) as string) ^ 1] as string;
    expect(Buffer.from(`${s.slice(0, -1)}${lastChar}`, 'base64url')).to.deep.equal(Buffer.from(s, 'base64url'));
    for (const bad of [forged, `${h}.${p}.${s.slice(0, -1)}${lastChar}`, `${h}.${p}`, 'garbage']) {
      const r = await ctl(env(), 'attestation', 'verify', bad);
      expect(r.code, bad.slice(-20)).to.equal(1);
      expect(r.json['valid']).to.equal(false);
      expect(r.json['reason']).to.be.a('string').and.not.equal('');
      expect(r.json['payload']).to.equal(null);
    }
  });

  it('rotates: the new key signs within a second, the old one stays published, old attestations still verify', async function () {
    const before = await attest(gw, key);
    const oldKid = (await jwksNow()).keys[0]?.kid as string;
    const rotated = await ctl(env(), 'attestation', 'rotate');
    expect(rotated.code).to.equal(0);
    const newKid = rotated.json['kid'] as string;
    expect(newKid).to.not.equal(oldKid);
    expect(rotated.json['published']).to.deep.equal([newKid, oldKid]);

    const started = Date.now();
    let jwks = await jwksNow();
    while (jwks.keys[0]?.kid !== newKid && Date.now() - started < 3_000) {
      await sleep(50);
      jwks = await jwksNow();
    }
    // The contract's second, with room for a loaded machine's scheduling.
    expect(Date.now() - started).to.be.lessThan(1_500);
    expect(jwks.keys.map((k) => k.kid)).to.deep.equal([newKid, oldKid]);
    for (const k of jwks.keys) expect(k.kid).to.equal(thumbprint(k));

    const after = await attest(gw, key);
    const v = verifyIndependently(after, jwks);
    expect(v.ok && v.header['kid']).to.equal(newKid);
    const old = verifyIndependently(before, jwks);
    expect(old.ok && old.header['kid']).to.equal(oldKid);
    expect((await ctl(env(), 'attestation', 'verify', before)).code).to.equal(0);
    // The retirement is written down, so the retention can be counted from it.
    expect(readFileSync(join(gw.dataDir, 'attestation-keys.pem'), 'utf8')).to.match(new RegExp(`${oldKid}, added \\S+, retired \\d{4}-`));
  });

  it('signs with the first key of ATTESTATION_KEY_FILE and publishes them all; refuses to start without the file', async function () {
    const file = join(scratch, 'secret.pem');
    writeFileSync(file, `${pemOf()}${pemOf()}`);
    const jwksOffline = await ctl({ GATEWAY_DATA_DIR: scratch, ATTESTATION_KEY_FILE: file }, 'attestation', 'jwks');
    const kids = (jwksOffline.json['keys'] as Jwk[]).map((k) => k.kid);
    expect(kids).to.have.length(2);

    const other = await new TestGateway({ env: { ATTESTATION_KEY_FILE: file } }).start();
    try {
      const k = await createKey(other, {});
      const jwks = await jwksNow(other);
      expect(jwks.keys.map((j) => j.kid)).to.deep.equal(kids);
      const v = verifyIndependently(await attest(other, k), jwks);
      expect(v.ok && v.header['kid']).to.equal(kids[0]);
      // No key was written to the data directory: the file is the only source.
      expect(() => statSync(join(other.dataDir, 'attestation-keys.pem'))).to.throw();
    } finally {
      await other.stop();
    }

    const missing = new TestGateway({ env: { ATTESTATION_KEY_FILE: join(scratch, 'absent.pem') } });
    try {
      await missing.startPolicy();
      let failure = '';
      await missing.startProxy().catch((err: unknown) => (failure = String(err)));
      expect(failure).to.match(/exited \(1\)[\s\S]*absent\.pem/);
    } finally {
      await missing.stop();
    }
  });
});
