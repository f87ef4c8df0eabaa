import { expect } from 'chai';
import type { NameModel } from '../../src/index.js';
import { MAX_FEATURES, NameFeatureContext, TAG_COUNT, TAG_O, type NameLexicon } from '../../src/names/name-features.js';
import { decodeNameModel, encodeNameModel } from '../../src/names/name-model.js';
import { NO_CLUSTERS } from '../../src/names/word-clusters.js';

// The extra context templates (issue 32): the neighbours' list hits and word pairs across a word, added only for a
// model trained with them; a model without them (the shipped one) gets exactly the features it was trained on.
const plainLexicon: NameLexicon = { common: new Uint32Array(1 << 16), clusters: NO_CLUSTERS };

function features(words: string[], i: number, lexicon: NameLexicon): number[] {
  const out = new Uint32Array(MAX_FEATURES);
  const start = new Uint8Array(words.length);
  start[0] = 1;
  const n = new NameFeatureContext(words, start, lexicon).contextFeatures(i, TAG_O, TAG_O, out);
  return [...out.subarray(0, n)];
}

function model(templates: number): NameModel {
  const weights = new Int16Array(16 * TAG_COUNT);
  weights[3] = -9;
  return { buckets: 16, scale: 0.25, weights, lexicon: { ...plainLexicon, ...(templates !== 0 ? { templates } : {}) }, info: { note: 'y' } };
}

describe('privacy: the extra context templates of the name tagger', () => {
  const words = ['Gestern', 'hat', 'Anna', 'Schmidt', 'angerufen', '.'];

  it('adds four features per template bit after the ones a model without them reads, which stay the same', () => {
    const plain = features(words, 2, plainLexicon);
    const one = features(words, 2, { ...plainLexicon, templates: 1 });
    const both = features(words, 2, { ...plainLexicon, templates: 3 });
    expect(one.length).to.equal(plain.length + 4);
    expect(both.length).to.equal(plain.length + 8);
    expect(both.slice(0, plain.length)).to.deep.equal(plain);
    expect(both.slice(0, one.length)).to.deep.equal(one);
    expect(features(words, 2, { ...plainLexicon, templates: 2 }).slice(plain.length)).to.deep.equal(both.slice(one.length));
  });

  it("reads the next word's name-list hit: a known surname after the word is another feature than a verb", () => {
    const surname = features(words, 2, { ...plainLexicon, templates: 1 });
    const verb = features(['Gestern', 'hat', 'Anna', 'angerufen', '.'], 2, { ...plainLexicon, templates: 1 });
    const base = features(words, 2, plainLexicon).length;
    // Template 75: the next word's list hit with the word's own.
    expect(surname[base + 1]).to.not.equal(verb[base + 1]);
  });

  it('pairs the words either side: the same word between other neighbours gets another pair feature', () => {
    const a = features(['Laut', 'Anna', 'sagte', 'er'], 1, { ...plainLexicon, templates: 2 });
    const b = features(['Mit', 'Anna', 'sagte', 'er'], 1, { ...plainLexicon, templates: 2 });
    const base = features(['Laut', 'Anna', 'sagte', 'er'], 1, plainLexicon).length;
    expect(a[base]).to.not.equal(b[base]);
    // The word's ending with the next word is the same for both.
    expect(a[base + 1]).to.equal(b[base + 1]);
  });

  it('writes a model with them as PTAG7, which reads back with them; a model without keeps its format byte for byte', () => {
    const withThem = encodeNameModel(model(3));
    expect(withThem.subarray(0, 6).toString('latin1')).to.equal('PTAG7\n');
    const back = decodeNameModel(withThem);
    expect(back.lexicon.templates).to.equal(3);
    expect(back.weights[3]).to.equal(-9);
    expect(encodeNameModel(back).equals(withThem)).to.equal(true);
    const without = encodeNameModel(model(0));
    expect(without.subarray(0, 6).toString('latin1')).to.equal('PTAG4\n');
    expect(decodeNameModel(without).lexicon.templates).to.equal(undefined);
  });

  it('refuses a model naming template bits this code does not know', () => {
    const bytes = encodeNameModel(model(3));
    const text = bytes.toString('latin1').replace('"templates":3', '"templates":9');
    expect(() => decodeNameModel(Buffer.from(text, 'latin1'))).to.throw('model templates are invalid');
  });
});
