import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { loadConfig } from '../src/config.js';
import { AttestationKeyError, formatKeyFile, newKeyPem, parseKeyFile, publicJwks, rotatedKeyFile } from '../src/attestation-keys.js';

const DAY = 86_400_000;

describe('attestation key file', function () {
  it('reads every PEM key in order, ignoring the text between them, and names each by its thumbprint', async function () {
    const a = newKeyPem();
    const b = newKeyPem();
    const keys = await parseKeyFile(`notes an operator wrote\n${a}\nmore notes\n${b}\n`, 'f');
    expect(keys).to.have.length(2);
    expect(keys[0]?.kid).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(keys[0]?.kid).to.not.equal(keys[1]?.kid);
    // the same key, the same kid: every pod sharing a Secret publishes the same set
    expect((await parseKeyFile(a, 'g'))[0]?.kid).to.equal(keys[0]?.kid);
    expect(keys[0]?.jwk).to.include({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig', kid: keys[0]?.kid });
    expect(keys[0]?.jwk).to.not.have.property('d');
  });

  it('refuses a file without keys, an unreadable key and a key of another type, naming no key material', async function () {
    await parseKeyFile('nothing here', 'f').then(() => expect.fail('no key'), (e: unknown) => expect(e).to.be.instanceOf(AttestationKeyError));
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    const err = await parseKeyFile(rsa, 'f').catch((e: unknown) => e as Error);
    expect(String(err)).to.match(/key 1 is rsa, not Ed25519/);
    const broken = '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----';
    expect(String(await parseKeyFile(broken, 'f').catch((e: unknown) => e))).to.match(/not a readable PKCS#8/).and.not.contain('AAAA');
  });

  it('rotates: a new first key, the old one retired now and published until the retention has passed', async function () {
    const t0 = new Date('2026-01-01T00:00:00Z');
    const first = await parseKeyFile(formatKeyFile(await parseKeyFile(newKeyPem(), 'x')), 'f');
    const once = await rotatedKeyFile(first, t0, 30);
    const afterOne = await parseKeyFile(once.text, 'f');
    expect(afterOne.map((k) => k.kid)).to.deep.equal([once.added.kid, first[0]?.kid]);
    expect(afterOne[0]?.addedAt?.toISOString()).to.equal(t0.toISOString());
    expect(afterOne[0]?.retiredAt).to.equal(null);
    expect(afterOne[1]?.retiredAt?.toISOString()).to.equal(t0.toISOString());

    expect(publicJwks(afterOne, new Date(t0.getTime() + 29 * DAY), 30).keys).to.have.length(2);
    expect(publicJwks(afterOne, new Date(t0.getTime() + 30 * DAY), 30).keys.map((k) => k.kid)).to.deep.equal([once.added.kid]);

    const t1 = new Date(t0.getTime() + 31 * DAY);
    const twice = await rotatedKeyFile(afterOne, t1, 30);
    expect(twice.dropped).to.deep.equal([first[0]?.kid]);
    const afterTwo = await parseKeyFile(twice.text, 'f');
    expect(afterTwo.map((k) => k.kid)).to.deep.equal([twice.added.kid, once.added.kid]);
    expect(afterTwo[1]?.retiredAt?.toISOString()).to.equal(t1.toISOString());
  });

  it('reads its settings once: ATTESTATION_KEY_FILE or the data directory, and the retention', function () {
    expect(loadConfig({}, '/srv').attestation).to.deep.equal({ keyFile: '/srv/data/attestation-keys.pem', inDataDir: true, retainDays: 30 });
    expect(loadConfig({ ATTESTATION_KEY_FILE: 'secret/keys.pem', ATTESTATION_KEY_RETAIN_DAYS: '7' }, '/srv').attestation)
      .to.deep.equal({ keyFile: '/srv/secret/keys.pem', inDataDir: false, retainDays: 7 });
    expect(() => loadConfig({ ATTESTATION_KEY_RETAIN_DAYS: '0' })).to.throw(/ATTESTATION_KEY_RETAIN_DAYS/);
  });
});
