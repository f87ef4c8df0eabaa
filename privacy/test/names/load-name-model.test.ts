import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { gunzipSync, gzipSync } from 'node:zlib';
import { loadNameModel, NameModelError, openNameModel } from '../../src/index.js';
import { fnv1a, LEXICON_BITS } from '../../src/names/name-features.js';
import { decodeNameModel, encodeNameModel, sha256Hex } from '../../src/names/name-model.js';
import { clusterIndexOf, fineAt, fineClusterOf, NO_CLUSTER, wideAt } from '../../src/names/word-clusters.js';
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

  it('carries wide clusters and their grades (PTAG4): round-trips them, and one lookup reads both sets of a word', () => {
    const words = ['Kowalski', 'said', 'Porto'].map(fnv1a);
    const order = [...words.keys()].sort((a, b) => (words[a] as number) - (words[b] as number));
    const keys = Uint32Array.from(order, (i) => words[i] as number);
    // Kowalski: training-text cluster 1 and wide cluster 2; "said" only a training-text one; Porto only a wide one.
    const own = [1, 0, NO_CLUSTER];
    const wide = [2, NO_CLUSTER, 0];
    const caps = [6, 0, 5];
    const clusters = {
      keys,
      fine: Uint16Array.from(order, (i) => own[i] as number),
      coarseOf: Uint8Array.from([0, 1]),
      fineCount: 2,
      wideFine: Uint16Array.from(order, (i) => wide[i] as number),
      wideCoarseOf: Uint8Array.from([0, 0, 1]),
      wideCount: 3,
      wordClass: Uint8Array.from(order, (i) => caps[i] as number),
      clusterClass: Uint8Array.from([0, 3, 15]),
    };
    const model = { buckets: 16, scale: 1, weights: new Int16Array(16 * 9), lexicon: { common: new Uint32Array(LEXICON_BITS / 32), clusters }, info: {} };
    const bytes = encodeNameModel(model);
    expect(bytes.subarray(0, 6).toString('latin1')).to.equal('PTAG4\n');
    const again = decodeNameModel(bytes).lexicon.clusters;
    expect(again.wideCount).to.equal(3);
    for (const [w, ownFine, wideFine] of [['Kowalski', 2, 3], ['said', 1, 0], ['Porto', 0, 1]] as const) {
      const at = clusterIndexOf(again, fnv1a(w));
      expect(fineAt(again, at), w).to.equal(ownFine);
      expect(wideAt(again, at), w).to.equal(wideFine);
    }
    expect([...again.clusterClass]).to.deep.equal([0, 3, 15]);
    expect(again.wordClass[clusterIndexOf(again, fnv1a('Kowalski'))]).to.equal(6);
    // A grade out of range is refused, not read as some other grade.
    const bad = encodeNameModel({ ...model, lexicon: { ...model.lexicon, clusters: { ...clusters, clusterClass: Uint8Array.from([0, 3, 16]) } } });
    expect(() => decodeNameModel(bad)).to.throw(/name grade out of range/);
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
