import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { detect, useNameModel } from '@gateway/privacy';
import { decodeNameModel, quantisedScorer, tagNames } from '@gateway/privacy/internals';
import { capLanguage, iob2Tsv, labelNovel, parseCorpus, readClusterManifest, readManifest, sampleNovel, sha256OfFile, teiParagraphs } from '../src/index.js';
import type { CorpusSource, SilverSampling, SilverSentence } from '../src/index.js';

// The self-trained silver source (self-training.ts, build-self-main.ts) on two invented miniature novels
// (names-model/fixtures/self-training), labelled by the shipped model: the labels are its own reading of each
// sentence plus the later mentions the detector's second pass finds in the novel read whole, nothing else.
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const FIXTURES = join(ROOT, 'names-model/fixtures/self-training');
const BUILD_SELF = join(ROOT, 'names-model/dist/src/build-self-main.js');
const SHIPPED = join(ROOT, 'proxy/models/person-tagger.bin');
const model = decodeNameModel(readFileSync(SHIPPED));
const scorer = quantisedScorer(model);
const novel = (file: string): string[] => teiParagraphs(readFileSync(join(FIXTURES, file), 'utf8'));
const sampling: SilverSampling = { seed: 5, perNovel: 2, othersRatio: 1, perLanguage: 100, minTokens: 5, maxTokens: 60 };
const people = (s: SilverSentence): string[] => s.words.filter((_, k) => /-PER$/.test(s.tags[k] as string));

describe('names-model: self-training labels from the shipped model (fixture novels)', function () {
  this.timeout(120_000);
  before(() => useNameModel(model));

  it('labels every later mention of a full name the detector is sure of, and flags the sentences where only the whole novel finds it', () => {
    const de = labelNovel(novel('roman.xml'), scorer);
    const sentence = (opening: string): SilverSentence => de.find((s) => s.words.join(' ').startsWith(opening)) as SilverSentence;
    expect(people(sentence('Der Kaufmann'))).to.deep.equal(['Werner', 'Ostermeier']);
    expect(sentence('Der Kaufmann').tags.slice(2, 4)).to.deep.equal(['B-PER', 'I-PER']);
    // The tagger's own places stay: Lübeck, a place it is sure of, is LOC.
    expect(sentence('Der Kaufmann').tags[sentence('Der Kaufmann').words.indexOf('Lübeck')]).to.equal('B-LOC');
    for (const opening of ['Am Morgen', 'Dann lachte']) {
      const s = sentence(opening);
      expect(people(s), opening).to.deep.equal(['Ostermeier']);
      // Propagated: the detector reading that sentence alone does not find the lone surname.
      const alone = detect(s.words.join(' ')).filter((f) => f.type === 'PERSON');
      expect(s.propagated, opening).to.equal(alone.length === 0);
    }
    expect(de.filter((s) => s.propagated).length).to.be.greaterThan(0);
    // Nothing a sentence without a name: no person, no place spread from elsewhere.
    expect(sentence('Auf der Brücke').tags.every((t) => t === 'O')).to.equal(true);
    expect(sentence('Die Schiffe').propagated).to.equal(false);
  });

  it('adds no label beyond the model reading each sentence alone but the propagated mentions of its sure names', () => {
    for (const file of ['novel.xml', 'roman.xml']) {
      const paragraphs = novel(file);
      const whole = paragraphs.join('\n');
      const surnames = new Set(detect(whole).flatMap((f) => (f.type === 'PERSON' && /\s/.test(f.value) ? [f.value.split(/\s+/).pop() as string] : [])));
      for (const s of labelNovel(paragraphs, scorer)) {
        const text = s.words.join(' ');
        const alone = detect(text).filter((f) => f.type === 'PERSON').map((f) => f.value);
        const own = new Set([...alone.flatMap((v) => v.split(/\s+/)), ...tagNames(scorer, text).filter((t) => t.kind !== 'PER').flatMap((t) => text.slice(t.start, t.end).split(/\s+/))]);
        s.words.forEach((w, k) => {
          if (s.tags[k] === 'O') return;
          expect(own.has(w) || surnames.has(w), `${file}: ${w} in "${text}"`).to.equal(true);
        });
      }
      // An editor's note is no text of the novel: its mentions are never read.
      expect(paragraphs.join(' ')).not.to.include('editor');
    }
  });

  it('samples propagated sentences and as many others, by hash rank, the same each run; iob2-tsv reads back as labelled', () => {
    const picks = ['novel.xml', 'roman.xml'].map((file) => ({ novel: file, sentences: sampleNovel(file, labelNovel(novel(file), scorer), sampling) }));
    for (const p of picks) {
      const prop = p.sentences.filter((s) => s.propagated).length;
      expect(prop, p.novel).to.be.at.most(sampling.perNovel);
      expect(p.sentences.length - prop, p.novel).to.equal(prop * sampling.othersRatio);
      expect(p.sentences.every((s) => s.words.length >= sampling.minTokens)).to.equal(true);
    }
    expect(picks.flatMap((p) => p.sentences).some((s) => s.propagated)).to.equal(true);
    const tsv = iob2Tsv(capLanguage(picks, sampling));
    const again = iob2Tsv(capLanguage(['novel.xml', 'roman.xml'].map((file) => ({ novel: file, sentences: sampleNovel(file, labelNovel(novel(file), scorer), sampling) })), sampling));
    expect(again).to.equal(tsv);
    const source = { format: 'iob2-tsv' } as CorpusSource;
    const read = parseCorpus(source, tsv);
    const written = picks.flatMap((p) => p.sentences);
    expect(read.map((s) => s.words)).to.deep.equal(written.map((s) => s.words));
    expect(read.flatMap((s) => [...s.tags]).filter((t) => t !== 0).length).to.equal(written.flatMap((s) => s.tags).filter((t) => t !== 'O').length);
    // A cap per language keeps the first sentences by hash rank, in text order.
    const capped = capLanguage(picks, { ...sampling, perLanguage: 2 });
    expect(capped.reduce((n, p) => n + p.sentences.length, 0)).to.equal(2);
  });

  it('npm run build:self: materialises the source from the novels its cluster manifest lists, the same bytes each run, refusing another labeller', () => {
    // A manifest of its own: the fixture novels as an unlabelled source, a silver source labelled by the shipped model.
    const dir = mkdtempSync(join(tmpdir(), 'names-self-'));
    const repository = 'github.com/gateway-fixture/novels';
    const novels = join(dir, 'novels');
    mkdirSync(join(novels, 'gateway-fixture/novels/level1'), { recursive: true });
    const real = readManifest(join(ROOT, 'names-model/manifest.json'));
    const clusters = readClusterManifest(join(ROOT, 'names-model/clusters/sources.json'));
    const eltec = clusters.sources.find((s) => s.id === 'eltec-deu');
    const files = ['novel.xml', 'roman.xml'].map((f) => {
      copyFileSync(join(FIXTURES, f), join(novels, 'gateway-fixture/novels/level1', f));
      return { path: `level1/${f}`, sha256: sha256OfFile(join(FIXTURES, f)) };
    });
    const unlabelled = { ...eltec, id: 'fixture-novels', language: 'de', repository, commit: '0'.repeat(40), excluded: [], files };
    writeFileSync(join(dir, 'clusters.json'), JSON.stringify({ ...clusters, languages: ['de'], sources: [unlabelled], clusters: {} }));
    const self = real.sources.find((s) => s.id === 'eltec-self') as CorpusSource;
    // Labelled by the model shipped now (the manifest's record), whichever one labelled the real eltec-self files.
    const shipped = { model: real.model.file, sha256: real.model.sha256, sources: real.model.sources, clusterSources: real.model.clusterSources ?? [] };
    const labelledBy = { ...self.labelledBy, ...shipped, novels: { de: 'fixture-novels' }, sampling };
    const file = { ...(self.files[1] as CorpusSource['files'][number]), local: 'self/fixture-de.tsv', repository, commit: '0'.repeat(40), language: 'de' };
    const manifestFile = join(dir, 'manifest.json');
    writeFileSync(manifestFile, JSON.stringify({ ...real, unlabelledClusters: 'clusters.json', sources: [{ ...self, labelledBy, files: [file] }] }));
    const run = (...args: string[]): ReturnType<typeof spawnSync> =>
      spawnSync(process.execPath, [BUILD_SELF, '--manifest', manifestFile, '--novels', novels, '--out', join(dir, 'out'), ...args], { encoding: 'utf8' });
    const first = run('--write-manifest');
    expect(first.status, String(first.stderr)).to.equal(0);
    const recorded = readManifest(manifestFile).sources[0]?.files[0];
    expect(sha256OfFile(join(dir, 'out/self/fixture-de.tsv'))).to.equal(recorded?.sha256);
    expect(readFileSync(join(dir, 'out/self/fixture-de.tsv'), 'utf8')).to.match(/\tOstermeier\tB-PER\n/);
    // Again, checking against the recorded sums: the same bytes.
    const second = run();
    expect(second.status, String(second.stderr)).to.equal(0);
    // Another model than the one the manifest names is refused.
    const other = join(dir, 'other.bin');
    writeFileSync(other, Buffer.concat([readFileSync(SHIPPED), Buffer.from([0])]));
    const refused = run('--labeller', other);
    expect(refused.status).to.equal(2);
    expect(String(refused.stderr)).to.match(/is labelled by [0-9a-f]{64}/);
  });
});
