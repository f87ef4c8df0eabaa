import { copyFileSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { quantisedScorer } from '@gateway/privacy/internals';
import { chosenSources, f1, loadSplits, locateCorpusFiles, readManifest, recall, scoreTagger, trainNames } from '../src/index.js';
import type { CorpusSource } from '../src/index.js';

// The pipeline end to end on the committed fixture (invented sentences, names-model/fixtures): what CI can run.
const FIXTURES = fileURLToPath(new URL('../../fixtures', import.meta.url));
const manifest = readManifest(join(FIXTURES, 'manifest.fixture.json'));
const corpora = [join(FIXTURES, 'corpora')];

describe('names-model: the training pipeline on the fixture', function () {
  this.timeout(60_000);

  it('trains a tagger that finds the held-out names, the same bytes on a second run', () => {
    const first = trainNames({ manifest, corporaDirs: corpora, profile: 'commercial' });
    expect(first.sources).to.deep.equal(['fixture', 'fixture-more']);
    const heldOut = first.splits.heldout.flatMap((h) => h.sentences);
    expect(heldOut.length).to.be.greaterThan(20);
    const score = scoreTagger(quantisedScorer(first.model), heldOut);
    expect(f1(score)).to.be.at.least(0.9);
    const second = trainNames({ manifest, corporaDirs: corpora, profile: 'commercial' });
    expect(second.sha256).to.equal(first.sha256);
    expect(second.bytes.equals(first.bytes)).to.equal(true);
  });

  it('averages members trained on other shuffles into one table of the same size, the same bytes run after run', () => {
    const one = trainNames({ manifest, corporaDirs: corpora, profile: 'commercial' });
    const three = trainNames({ manifest: { ...manifest, members: 3 }, corporaDirs: corpora, profile: 'commercial' });
    expect(three.model.weights.length).to.equal(one.model.weights.length);
    expect(three.sha256).not.to.equal(one.sha256);
    expect(trainNames({ manifest: { ...manifest, members: 3 }, corporaDirs: corpora, profile: 'commercial' }).sha256).to.equal(three.sha256);
    const heldOut = three.splits.heldout.flatMap((h) => h.sentences);
    expect(f1(scoreTagger(quantisedScorer(three.model), heldOut))).to.be.at.least(0.9);
  });

  it('trains with the extra templates and constrained training when the manifest asks: a PTAG7 model, the same bytes twice', () => {
    const base = trainNames({ manifest, corporaDirs: corpora, profile: 'commercial' });
    const asked = { ...manifest, templates: 3, constrainedTraining: true };
    const first = trainNames({ manifest: asked, corporaDirs: corpora, profile: 'commercial' });
    expect(first.bytes.subarray(0, 6).toString('latin1')).to.equal('PTAG7\n');
    expect(first.model.lexicon.templates).to.equal(3);
    expect(first.sha256).to.not.equal(base.sha256);
    expect(trainNames({ manifest: asked, corporaDirs: corpora, profile: 'commercial' }).sha256).to.equal(first.sha256);
    const heldOut = first.splits.heldout.flatMap((h) => h.sentences);
    expect(f1(scoreTagger(quantisedScorer(first.model), heldOut))).to.be.at.least(0.9);
  });

  it('shuffles by shuffleSeed when set, on the same split: another draw of the same held-out rows', () => {
    // docs/privacy.md (v): a change is judged over several shuffles; the split must not move with them.
    const base = trainNames({ manifest, corporaDirs: corpora, profile: 'commercial' });
    const same = trainNames({ manifest: { ...manifest, shuffleSeed: manifest.seed }, corporaDirs: corpora, profile: 'commercial' });
    const other = trainNames({ manifest: { ...manifest, shuffleSeed: manifest.seed + 1000 }, corporaDirs: corpora, profile: 'commercial' });
    expect(Buffer.from(same.model.weights.buffer).equals(Buffer.from(base.model.weights.buffer))).to.equal(true);
    expect(other.sha256).not.to.equal(base.sha256);
    expect(other.model.info.shuffleSeed).to.equal(manifest.seed + 1000);
    expect(base.model.info.shuffleSeed).to.equal(undefined);
    const rows = (r: typeof base): string[] => r.splits.heldout.flatMap((h) => h.sentences.map((x) => x.words.join(' ')));
    expect(rows(other)).to.deep.equal(rows(base));
  });

  it('retrains without a source when switched off, and refuses an unknown one', () => {
    expect(chosenSources(manifest, 'commercial', ['fixture-more']).map((s) => s.id)).to.deep.equal(['fixture']);
    const result = trainNames({ manifest, corporaDirs: corpora, profile: 'commercial', without: ['fixture-more'] });
    expect(result.sources).to.deep.equal(['fixture']);
    expect(recall(scoreTagger(quantisedScorer(result.model), result.splits.heldout.flatMap((h) => h.sentences)))).to.be.greaterThan(0.8);
    expect(() => chosenSources(manifest, 'commercial', ['no-such-source'])).to.throw(/unknown source/);
  });

  it('keeps a source marked for the report alone out of training: every sentence held out, the model unchanged', () => {
    const fixture = manifest.sources[0] as CorpusSource;
    const reportOnly: CorpusSource = { ...fixture, id: 'report-only', files: fixture.files.map((f) => ({ ...f, role: 'report' as const })) };
    const withReport = { ...manifest, sources: [...manifest.sources, reportOnly] };
    expect(chosenSources(withReport, 'commercial').map((s) => s.id)).to.deep.equal(['fixture', 'fixture-more']);
    const splits = loadSplits(manifest.seed, [reportOnly], corpora);
    const all = loadSplits(manifest.seed, [{ ...fixture, files: fixture.files.map((f) => ({ ...f, role: 'dev' as const })) }], corpora).dev;
    expect(splits.train).to.have.length(0);
    expect(splits.dev).to.have.length(0);
    expect(splits.heldout.flatMap((h) => h.sentences)).to.have.length(all.length);
    expect(trainNames({ manifest: withReport, corporaDirs: corpora, profile: 'commercial' }).sha256).to.equal(trainNames({ manifest, corporaDirs: corpora, profile: 'commercial' }).sha256);
  });

  it('refuses a corpus file whose bytes differ from the manifest, and names a missing one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'names-corpora-'));
    mkdirSync(join(dir, 'fixture'));
    const copy = join(dir, 'fixture/fixture-train.conllu');
    copyFileSync(join(corpora[0] as string, 'fixture/fixture-train.conllu'), copy);
    expect(locateCorpusFiles(manifest.sources.slice(0, 2), [dir]).size).to.equal(2);
    writeFileSync(copy, readFileSync(copy, 'utf8').replace('B-PER', 'B-LOC'));
    expect(() => locateCorpusFiles(manifest.sources.slice(0, 2), [dir])).to.throw(/SHA-256 .* but the manifest says/);
    expect(() => locateCorpusFiles(manifest.sources.slice(0, 2), [join(dir, 'nothing-here')])).to.throw(/not found/);
  });
});
