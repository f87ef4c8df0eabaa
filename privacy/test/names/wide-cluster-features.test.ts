import { expect } from 'chai';
import { fnv1a, LEXICON_BITS, MAX_FEATURES, NameFeatureContext, wordInfo } from '../../src/names/name-features.js';
import { NO_CLUSTER, NO_CLUSTERS, type WordClusters } from '../../src/names/word-clusters.js';

// The wide clusters' features fire only for a model that has wide clusters: a model built before them (PTAG3)
// must score exactly as it was trained to.
const common = new Uint32Array(LEXICON_BITS / 32);
const words = ['Anna', 'Kowalska', 'said'];
const keys = Uint32Array.from(words.map(fnv1a)).sort();
const at = (w: string): number => keys.indexOf(fnv1a(w));
const wide: WordClusters = {
  ...NO_CLUSTERS,
  keys,
  fine: new Uint16Array(keys.length).fill(NO_CLUSTER),
  wideFine: Uint16Array.from(keys, (k) => (k === fnv1a('said') ? 1 : 0)),
  wideCoarseOf: Uint8Array.from([0, 1]),
  wideCount: 2,
  wordClass: Uint8Array.from(keys, (k) => (k === fnv1a('said') ? 0 : 6)),
  clusterClass: Uint8Array.from([15, 0]),
};

describe('privacy: name features of wide word clusters', () => {
  it('adds the wide cluster and grade features only when the model has wide clusters', () => {
    const before = wordInfo('Kowalska', { common, clusters: NO_CLUSTERS });
    const after = wordInfo('Kowalska', { common, clusters: wide });
    expect(before.wide).to.equal(0);
    expect(after.wide).to.equal(1);
    expect(after.capGrade).to.equal(6);
    expect(after.nameGrade).to.equal(16);
    expect(after.lexical.length).to.equal(before.lexical.length + 4);
    // The shared features are the same ids: a model without wide clusters reads what it was trained on.
    expect([...after.lexical.slice(0, before.lexical.length)]).to.deep.equal([...before.lexical]);
    expect(wordInfo('said', { common, clusters: wide }).nameGrade).to.equal(1);
    expect(at('Anna')).to.be.greaterThan(-1);
  });

  it('writes the neighbours wide features within the feature buffer', () => {
    const out = new Uint32Array(MAX_FEATURES);
    const start = Uint8Array.from([1, 0, 0]);
    const without = new NameFeatureContext(words, start, { common, clusters: NO_CLUSTERS }).contextFeatures(1, 1, 0, out);
    const withWide = new NameFeatureContext(words, start, { common, clusters: wide }).contextFeatures(1, 1, 0, out);
    expect(withWide).to.equal(without + 5);
    expect(withWide).to.be.at.most(MAX_FEATURES);
  });
});
