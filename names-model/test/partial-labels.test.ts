import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { useNameModel } from '@gateway/privacy';
import { decodeNameModel, quantisedScorer } from '@gateway/privacy/internals';
import { buildLexicon, iob2Tsv, labelNovel, loadSplits, parseCorpus, readManifest, sha256OfFile, teiParagraphs, trainNames } from '../src/index.js';
import { AveragedPerceptron, shuffledOrder, seededRandom } from '../src/perceptron.js';
import type { CorpusSource, LabelledSentence } from '../src/index.js';

// Partial labels (CorpusSource.partial): a silver sentence's '#' line names its trusted words, the trainer learns
// from those alone. On an invented silver file (names-model/fixtures/partial) and the pipeline's fixture corpora.
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const FIXTURES = join(ROOT, 'names-model/fixtures');
const SILVER = join(FIXTURES, 'partial/silver-partial.tsv');
const manifest = readManifest(join(FIXTURES, 'manifest.fixture.json'));
const corpora = [join(FIXTURES, 'corpora')];
const silverSource = (partial: boolean): CorpusSource => ({
  ...(manifest.sources[0] as CorpusSource),
  id: 'silver-fixture',
  format: 'iob2-tsv',
  silver: true,
  ...(partial ? { partial: { trustOwn: [] } } : {}),
  files: [{ local: 'silver-partial.tsv', repository: 'this repository', path: 'names-model/fixtures/partial/silver-partial.tsv', commit: '-', role: 'train', language: 'en', sha256: sha256OfFile(SILVER) }],
});
const silverText = readFileSync(SILVER, 'utf8');

/** The gold fixture's train sentences, and the lexicon a build makes of them. */
function goldTrain(): { sentences: LabelledSentence[]; perceptron: () => AveragedPerceptron } {
  const splits = loadSplits(manifest.seed, [manifest.sources[0] as CorpusSource], corpora);
  const { lexicon } = buildLexicon(manifest, splits.train);
  return { sentences: splits.train, perceptron: () => new AveragedPerceptron(manifest.buckets, lexicon) };
}

describe('names-model: partial labels (a silver source whose trusted words alone are learnt from)', function () {
  this.timeout(120_000);

  it('reads the trusted words from the "#" line of a partial source only; other sources read as before', () => {
    const partial = parseCorpus(silverSource(true), silverText);
    expect(partial.map((s) => [...(s.trusted as Uint8Array)])).to.deep.equal([
      [0, 0, 0, 1, 0, 0, 0],
      [0, 0, 0, 0, 0, 0],
      [1, 0, 0, 0, 0, 1, 0, 0],
      [0, 0, 0, 0, 0],
    ]);
    // The labeller's own places and organisations trusted too: Harwick and the Lantern, besides the listed words.
    const own = parseCorpus({ ...silverSource(true), partial: { trustOwn: ['LOC', 'ORG'] } }, silverText);
    expect(own.map((s) => [...(s.trusted as Uint8Array)])).to.deep.equal([
      [0, 0, 0, 1, 0, 1, 0],
      [0, 0, 0, 0, 1, 0],
      [1, 0, 0, 0, 0, 1, 0, 0],
      [0, 0, 0, 0, 0],
    ]);
    const whole = parseCorpus(silverSource(false), silverText);
    expect(whole.every((s) => !('trusted' in s))).to.equal(true);
    expect(whole.map((s) => [...s.tags])).to.deep.equal(partial.map((s) => [...s.tags]));
    expect(() => parseCorpus({ ...silverSource(true), format: 'conll-indexed' }, silverText)).to.throw(/iob2-tsv only/);
  });

  it('learns nothing from a word whose label is unknown, and from a trusted word as from gold', () => {
    const { sentences, perceptron } = goldTrain();
    const order = shuffledOrder(sentences.length, seededRandom(3));
    const plain = perceptron();
    const plainErrors = plain.trainEpoch(sentences, order);
    // Every word trusted: the same weights, the same error count, as gold.
    const allTrusted = perceptron();
    expect(allTrusted.trainEpoch(sentences.map((s) => ({ ...s, trusted: new Uint8Array(s.words.length).fill(1) })), order)).to.equal(plainErrors);
    expect(Buffer.from(allTrusted.averagedWeights().buffer).equals(Buffer.from(plain.averagedWeights().buffer))).to.equal(true);
    // No word trusted, labels wrong throughout (every name O, every other word B-PER): no update at all.
    const wrong = sentences.map((s) => ({ ...s, tags: s.tags.map((t) => (t === 0 ? 1 : 0)), trusted: new Uint8Array(s.words.length) }));
    const none = perceptron();
    expect(none.trainEpoch(wrong, order)).to.equal(0);
    expect(none.averagedWeights().every((w) => w === 0)).to.equal(true);
    // The silver file's sentences: errors counted and learnt at the trusted words only.
    const silver = parseCorpus(silverSource(true), silverText);
    const fresh = perceptron();
    expect(fresh.trainEpoch(silver, shuffledOrder(silver.length, seededRandom(3)))).to.be.at.most(3);
    expect(perceptron().trainEpoch(parseCorpus(silverSource(false), silverText), shuffledOrder(silver.length, seededRandom(3)))).to.be.greaterThan(3);
  });

  it('trains on the partial sentences that hold a trusted word, tunes on none, and reports every held-out one', () => {
    const source = silverSource(true);
    const dir = [join(FIXTURES, 'partial')];
    const splits = loadSplits(manifest.seed, [source], dir);
    const all = parseCorpus(source, silverText);
    // The four sentences fall in the train part; the two with a trusted word are kept.
    expect(splits.train.map((s) => s.words[0])).to.deep.equal(['Then', 'Ostermeier']);
    expect(splits.dev).to.have.length(0);
    const asDev = loadSplits(manifest.seed, [{ ...source, files: source.files.map((f) => ({ ...f, role: 'dev' as const })) }], dir);
    expect(asDev.dev).to.have.length(0);
    const asReport = loadSplits(manifest.seed, [{ ...source, files: source.files.map((f) => ({ ...f, role: 'report' as const })) }], dir);
    expect(asReport.heldout.flatMap((h) => h.sentences)).to.have.length(all.length);
    const whole = loadSplits(manifest.seed, [silverSource(false)], dir);
    expect(whole.train.length + whole.dev.length).to.be.greaterThan(splits.train.length);
  });

  it('trains a model without partial sources byte for byte as before partial labels existed', () => {
    // The fixture build's SHA-256 at d8c1a7d (before this change): the gold path is untouched.
    expect(trainNames({ manifest, corporaDirs: corpora, profile: 'commercial' }).sha256).to.equal(FIXTURE_MODEL_SHA256);
  });

  it('build:self marks the propagated mention as trusted, and only it', () => {
    const model = decodeNameModel(readFileSync(join(ROOT, 'proxy/models/person-tagger.bin')));
    useNameModel(model);
    const sentences = labelNovel(teiParagraphs(readFileSync(join(FIXTURES, 'self-training/roman.xml'), 'utf8')), quantisedScorer(model));
    const propagated = sentences.filter((s) => s.propagated);
    expect(propagated.length).to.be.greaterThan(0);
    for (const s of propagated) {
      expect(s.trusted.length, s.words.join(' ')).to.be.greaterThan(0);
      for (const k of s.trusted) expect(s.tags[k], `${s.words[k] as string} in ${s.words.join(' ')}`).to.equal('B-PER');
    }
    expect(propagated.flatMap((s) => s.trusted.map((k) => s.words[k]))).to.include('Ostermeier');
    expect(sentences.filter((s) => !s.propagated).every((s) => s.trusted.length === 0)).to.equal(true);
    const read = parseCorpus(silverSource(true), iob2Tsv([{ novel: 'roman.xml', sentences: propagated }]));
    expect(read.map((s) => [...(s.trusted as Uint8Array)].flatMap((t, k) => (t === 1 ? [k] : [])))).to.deep.equal(propagated.map((s) => [...s.trusted]));
  });
});

const FIXTURE_MODEL_SHA256 = '45eff16c13ca6338d6e35ddae9cea2b50cb05bf597ff39a62aa01255aea1271e';
