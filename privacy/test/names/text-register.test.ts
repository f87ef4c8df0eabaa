import { expect } from 'chai';
import type { NameModel } from '../../src/index.js';
import { MAX_FEATURES, NameFeatureContext, TAG_COUNT, TAG_O } from '../../src/names/name-features.js';
import { decodeNameModel, encodeNameModel } from '../../src/names/name-model.js';
import { tokeniseForNames } from '../../src/names/name-tokens.js';
import { isSoftwareToken, registersOfText, registersOfWords } from '../../src/names/text-register.js';
import { NO_CLUSTERS } from '../../src/names/word-clusters.js';

// The register feature (issue 32): a sentence's share of software-shaped tokens, crossed with a few word features
// in a model trained with it, and nothing at all in a model without it (the shipped one).
const wide = {
  keys: Uint32Array.from([1, 2]),
  fine: Uint16Array.from([0, 0]),
  coarseOf: Uint8Array.from([0]),
  fineCount: 1,
  wideFine: Uint16Array.from([0, 0]),
  wideCoarseOf: Uint8Array.from([0]),
  wideCount: 1,
  wordClass: Uint8Array.from([0, 0]),
  clusterClass: Uint8Array.from([0]),
};

function model(register: boolean): NameModel {
  const weights = new Int16Array(16 * TAG_COUNT);
  weights[5] = 7;
  return { buckets: 16, scale: 0.5, weights, lexicon: { common: new Uint32Array(1 << 16), clusters: wide, ...(register ? { register: true } : {}) }, info: { note: 'x' } };
}

/** Each token's register for `text`, by the detector's path and by the trainer's (every word present). */
function both(text: string): { fromText: number[]; fromWords: number[] } {
  const t = tokeniseForNames(text);
  const words = t.starts.map((s, i) => text.slice(s, t.ends[i]));
  return { fromText: [...registersOfText(text, t.starts, t.ends, t.sentenceStart)], fromWords: [...registersOfWords(words, t.sentenceStart)] };
}

describe('privacy: the register of a sentence (software or prose)', () => {
  it('reads code punctuation, camelCase and letters run into digits as software, names and prose words not', () => {
    const token = (w: string): boolean => isSoftwareToken(w, 0, w.length);
    expect(['{', ';', '=', '/', '_', '`', 'useState', 'utf8', 'v2'].map(token)).to.deep.equal([true, true, true, true, true, true, true, true, true]);
    expect(['Scholz', 'McDonald', 'DiCaprio', '.', ',', '(', 'telefoniert', '2026'].map(token)).to.deep.equal([false, false, false, false, false, false, false, false]);
  });

  it('gives a prose sentence 0 and a line of code or a diff line a software register, the same by either path', () => {
    const text = 'Gestern hat Scholz mit Wiśniewski telefoniert.\nconst logger = new Logger(logLevel);\n+ import { Brotli } from "zlib/brotli";';
    const { fromText, fromWords } = both(text);
    expect(fromText).to.deep.equal(fromWords);
    const t = tokeniseForNames(text);
    const at = (word: string): number => fromText[t.starts.findIndex((s, i) => text.slice(s, t.ends[i]) === word)] as number;
    expect(at('Scholz')).to.equal(0);
    expect(at('Logger')).to.be.at.least(2);
    expect(at('Brotli')).to.be.at.least(2);
    // One software token in a sentence is register 1, not more.
    expect(both('Ask Anna about the /tmp file').fromText).to.deep.equal(new Array(7).fill(1));
  });

  it('adds its crossed features only for a model trained with it: a model without scores exactly as before', () => {
    const words = ['const', 'x', '=', 'Logger', '(', ')'];
    const start = Uint8Array.from([1, 0, 0, 0, 0, 0]);
    const plain = new Uint32Array(MAX_FEATURES);
    const crossed = new Uint32Array(MAX_FEATURES);
    const n = new NameFeatureContext(words, start, { common: new Uint32Array(1 << 16), clusters: NO_CLUSTERS }).contextFeatures(3, TAG_O, TAG_O, plain);
    const m = new NameFeatureContext(words, start, { common: new Uint32Array(1 << 16), clusters: NO_CLUSTERS, register: true }).contextFeatures(3, TAG_O, TAG_O, crossed);
    expect(m).to.equal(n + 8);
    expect([...crossed.subarray(0, n)]).to.deep.equal([...plain.subarray(0, n)]);
    // The same word in a prose sentence gets other crossed features than in the line of code.
    const prose = new Uint32Array(MAX_FEATURES);
    new NameFeatureContext(['Ask', 'x', 'and', 'Logger', 'now', '.'], start, { common: new Uint32Array(1 << 16), clusters: NO_CLUSTERS, register: true }).contextFeatures(3, TAG_O, TAG_O, prose);
    expect(prose[n + 1]).to.not.equal(crossed[n + 1]);
  });

  it('writes a model with it as PTAG6, which reads back with it; a model without keeps its older format byte for byte', () => {
    const withIt = encodeNameModel(model(true));
    expect(withIt.subarray(0, 6).toString('latin1')).to.equal('PTAG6\n');
    expect(decodeNameModel(withIt).lexicon.register).to.equal(true);
    const without = encodeNameModel(model(false));
    expect(without.subarray(0, 6).toString('latin1')).to.equal('PTAG4\n');
    const back = decodeNameModel(without);
    expect(back.lexicon.register).to.equal(undefined);
    expect(encodeNameModel(back).equals(without)).to.equal(true);
    expect(decodeNameModel(withIt).weights[5]).to.equal(7);
  });
});
