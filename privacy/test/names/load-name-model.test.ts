import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { gunzipSync, gzipSync } from 'node:zlib';
import { loadNameModel, NameModelError, openNameModel } from '../../src/index.js';
import { fnv1a } from '../../src/names/name-features.js';
import { decodeNameModel, encodeNameModel, sha256Hex } from '../../src/names/name-model.js';
import { fineClusterOf } from '../../src/names/word-clusters.js';
import { copyOfModel, corrupt } from '../support/model-files.js';

describe('privacy: loading the person-name model', () => {
  it('loads the shipped model, checksum checked', () => {
    const model = loadNameModel();
    expect(model.buckets).to.be.greaterThan(1000);
    expect(model.weights.length).to.equal(model.buckets * 9);
  });

  it('carries word clusters: frequent words have one, an invented word none; encoding round-trips them', () => {
    const model = loadNameModel();
    const { clusters } = model.lexicon;
    expect(clusters.keys.length).to.be.greaterThan(10_000);
    for (const w of ['said', 'sagte', 'John', 'Paris']) expect(fineClusterOf(clusters, fnv1a(w)), w).to.be.within(1, clusters.fineCount);
    expect(fineClusterOf(clusters, fnv1a('Qxzwvotl'))).to.equal(0);
    const again = decodeNameModel(encodeNameModel(model)).lexicon.clusters;
    const bytes = (a: Uint32Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    expect(bytes(again.keys).equals(bytes(clusters.keys))).to.equal(true);
    expect([...again.fine]).to.deep.equal([...clusters.fine]);
    expect([...again.coarseOf]).to.deep.equal([...clusters.coarseOf]);
  });

  it('refuses a model whose cluster part is cut short', () => {
    const bytes = encodeNameModel(loadNameModel());
    const eol = bytes.indexOf(0x0a, 6);
    const payload = gunzipSync(bytes.subarray(eol + 1));
    const cut = Buffer.concat([bytes.subarray(0, eol + 1), gzipSync(payload.subarray(0, payload.length - 8))]);
    expect(() => decodeNameModel(cut)).to.throw(/wrong size/);
  });

  it('refuses a missing file, a changed file and a missing checksum note, saying which file and what to do', () => {
    const file = copyOfModel();
    expect(loadNameModel(file).buckets).to.equal(loadNameModel().buckets);
    expect(() => loadNameModel(join(tmpdir(), 'no-such-dir', 'person-tagger.bin'))).to.throw(NameModelError, /cannot be read \(ENOENT\).*npm run train:names/);
    corrupt(file);
    expect(() => loadNameModel(file)).to.throw(NameModelError, /is corrupt: SHA-256 [0-9a-f]{64}, expected [0-9a-f]{64}/);
    const noNote = copyOfModel();
    writeFileSync(noNote.replace(/\.bin$/, '.json'), '{');
    expect(() => loadNameModel(noNote)).to.throw(NameModelError, /checksum note .* is missing or unreadable/);
  });

  it('states the profile and terms the header carries, else those of the checksum note, else says they are unstated', () => {
    // The shipped model is the commercial profile's, trained with profiles: its header carries them.
    const shipped = openNameModel();
    expect(shipped.model.info['profile']).to.equal('commercial');
    expect(shipped.profile).to.equal('commercial');
    expect(shipped.terms).to.match(/^commercial profile: commercial use allowed by every source/);
    expect(shipped.notice).to.match(/NOTICE$/);

    // The header rewritten in place (re-encoding would gzip the model again): without a profile (a model trained
    // before profiles), with another (as training writes one).
    const file = copyOfModel();
    const note = file.replace(/\.bin$/, '.json');
    const stamp = (info: (old: Record<string, unknown>) => Record<string, unknown>, noteFields: Record<string, unknown>): void => {
      const bytes = readFileSync(file);
      const eol = bytes.indexOf(0x0a, 6);
      const header = JSON.parse(bytes.subarray(6, eol).toString('utf8')) as { info: Record<string, unknown> };
      header.info = info(header.info);
      const stamped = Buffer.concat([bytes.subarray(0, 6), Buffer.from(JSON.stringify(header)), bytes.subarray(eol)]);
      writeFileSync(file, stamped);
      writeFileSync(note, JSON.stringify({ sha256: sha256Hex(stamped), ...noteFields }));
    };
    const withoutTerms = (info: Record<string, unknown>): Record<string, unknown> => {
      const { profile: _p, terms: _t, ...rest } = info;
      return rest;
    };
    stamp(withoutTerms, { profile: 'research', terms: 'research profile: NOT for commercial use (from the note)' });
    expect(openNameModel(file)).to.include({ profile: 'research', terms: 'research profile: NOT for commercial use (from the note)' });
    stamp(withoutTerms, {});
    expect(openNameModel(file)).to.include({ profile: 'unstated', notice: null });
    expect(openNameModel(file).terms).to.match(/not stated in the model file/);
    stamp((info) => ({ ...info, profile: 'research', terms: 'research profile: NOT for commercial use' }), { profile: 'commercial', terms: 'ignored: the header says' });
    expect(openNameModel(file)).to.include({ profile: 'research', terms: 'research profile: NOT for commercial use' });
  });
});
