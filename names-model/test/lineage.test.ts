import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { openNameModel } from '@gateway/privacy';
import { decodeNameModel, SHIPPED_MARGINS } from '@gateway/privacy/internals';
import { buildLexicon, chosenSources, readLexiconManifest, termsLine, loadSplits, modelDestination, readClusterManifest, readManifest, sha256OfFile, termProblems, trainNames } from '../src/index.js';
import type { CorpusSource, DataManifest } from '../src/index.js';
import { realCorporaDirs, realCorporaMaterialised } from './support/real-corpora.js';

// The profiles' licence and lineage check. A commercial model must not learn or be tuned from anything a source
// refusing commercial use wrote: not its labels, not word clusters or a lexicon built from its text, not the dev
// part that picks the epoch count. All of these are computed from the files loadSplits reads, so the check is on
// which files a build reads: by the manifest, by the training code's selection, and by a real fixture training.
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const FIXTURES = join(ROOT, 'names-model/fixtures');
const TUNE_MAIN = join(ROOT, 'names-model/dist/src/tune-main.js');
const TRAIN_MAIN = join(ROOT, 'names-model/dist/src/train-main.js');
const manifest = readManifest(join(ROOT, 'names-model/manifest.json'));
const fixture = readManifest(join(FIXTURES, 'manifest.fixture.json'));
const fixtureCorpora = [join(FIXTURES, 'corpora')];

// SPDX ids whose terms allow a commercially used model to be trained on the data. A source may claim commercial
// use only with these; adding one is a decision about a licence, made here on purpose, not by a manifest edit.
const COMMERCIAL_IDS = new Set([
  'CC0-1.0',
  'PDDL-1.0',
  'CC-BY-2.5',
  'CC-BY-3.0',
  'CC-BY-4.0',
  // the German port of CC BY 3.0 (Berlin's first-name statistics, names-model/lexicons/names.json)
  'CC-BY-3.0-DE',
  'CC-BY-SA-3.0',
  'CC-BY-SA-4.0',
  'ODC-By-1.0',
  'ODbL-1.0',
  'MIT',
  // the Unicode License v3 (CLDR's territory names, names-model/lexicons/places.json)
  'Unicode-3.0',
  'Apache-2.0',
  'BSD-2-Clause',
  'BSD-3-Clause',
  // the repository's own invented fixture sentences
  'LicenseRef-gateway-fixture',
  // text out of copyright whose publisher claims no right in it (ELTeC-fra, ELTeC-pol; names-model/clusters/)
  'LicenseRef-public-domain',
  // names of software as facts, not text: only the "Package:" field of Debian's archive index (names-model/lexicons/)
  'LicenseRef-facts',
]);

// Evaluation text that no word cluster may be learnt from (issue 32): novels annotated in public French literary
// NER sets, LitBank's novels (its held-out rows are scored here) and KIND's fiction books (its test split is).
const EVALUATION_NOVELS: Record<string, string> = {
  'COST-ELTeC/ELTeC-fra': 'FRA01302_Flaubert FRA02701_Maupassant',
  'COST-ELTeC/ELTeC-eng':
    'ENG18471_Bronte ENG18480_Thackeray ENG18530_Dickens ENG18610_Eliot ENG18652_Carroll ENG18661_Oliphant ENG18721_Eliot ENG19080_Chesterton ENG19100_Forster ENG19192_Woolf',
  'COST-ELTeC/ELTeC-ita': 'IT19230_Svevo_La-coscienza-di-Zeno IT19130_Deledda_Canne-Al-Vento',
};
const clusterManifest = readClusterManifest(join(ROOT, 'names-model', manifest.unlabelledClusters ?? 'clusters/sources.json'));

const idsOf = (spdx: string): string[] => spdx.split(/ (?:AND|OR) /);
/** Every file of a source, by where it lies and by its bytes: a copy under another name is the same data. */
const filesOf = (sources: readonly CorpusSource[]): Set<string> => new Set(sources.flatMap((s) => s.files.flatMap((f) => [f.local, f.sha256])));
const refusing = (m: DataManifest): CorpusSource[] => m.sources.filter((s) => !s.commercialUse);

describe('names-model: licence terms and the profiles lineage', function () {
  this.timeout(120_000);

  it('states every source licence as an SPDX id, whether it allows commercial use, and its obligations, consistently', () => {
    for (const m of [manifest, fixture]) {
      for (const source of m.sources) {
        expect(termProblems(source), source.id).to.deep.equal([]);
        const ids = idsOf(source.spdx);
        if (source.commercialUse) {
          // OR: one permitted alternative suffices; AND (or a single id): every one must permit it.
          const allowed = source.spdx.includes(' OR ') ? ids.some((id) => COMMERCIAL_IDS.has(id)) : ids.every((id) => COMMERCIAL_IDS.has(id));
          expect(allowed, `${source.id} claims commercial use under ${source.spdx}`).to.equal(true);
        }
        if (ids.some((id) => /-NC-/.test(id))) expect(source.commercialUse, `${source.id}: ${source.spdx} is non-commercial`).to.equal(false);
        if (ids.some((id) => /-SA-/.test(id))) expect(source.obligations.shareAlike, `${source.id}: ${source.spdx} is share-alike`).to.equal(true);
        if (ids.some((id) => /^CC-BY/.test(id))) expect(source.obligations.attribution, `${source.id}: ${source.spdx} asks attribution`).to.be.a('string');
        if (!source.commercialUse) expect(source.licenceCheck.length, `${source.id}: why commercial use is refused`).to.be.greaterThan(40);
      }
    }
    // The model the repository ships is the commercial profile's: every source it names allows commercial use.
    expect(manifest.model.profile).to.equal('commercial');
    expect(manifest.model.sources).to.deep.equal(chosenSources(manifest, 'commercial').map((s) => s.id));
    for (const id of manifest.model.sources) expect(manifest.sources.find((s) => s.id === id)?.commercialUse, id).to.equal(true);
  });

  it('records the detector margins it runs with as tuned on the commercial profile alone, on dev parts', () => {
    const margins = manifest.margins;
    expect(margins?.profile).to.equal('commercial');
    expect(margins?.values).to.deep.equal({ ...SHIPPED_MARGINS });
    expect(margins?.command).to.match(/tune-main\.js --profile=commercial .*--tune-margins/);
    // Every source it names is a commercial one; no research source and no held-out part.
    const commercial = chosenSources(manifest, 'commercial').map((s) => s.id);
    const named = manifest.sources.map((s) => s.id).filter((id) => new RegExp(`(?:^|[\\s:,(])${id}(?=[\\s,;)]|$)`).test(margins?.tunedOn ?? ''));
    expect(named).to.not.be.empty;
    expect(named.filter((id) => !commercial.includes(id))).to.deep.equal([]);
  });

  it('refuses a manifest that would ship a research model', () => {
    const dir = mkdtempSync(join(tmpdir(), 'names-manifest-'));
    const file = join(dir, 'manifest.json');
    writeFileSync(file, JSON.stringify({ ...manifest, model: { ...manifest.model, profile: 'research' } }));
    expect(() => readManifest(file)).to.throw(/model\.profile must be commercial, not research: the repository ships only a model every customer may run/);
  });

  it('writes a default commercial build over the shipped model, and a research or trimmed one only to names-model/out/', () => {
    const root = '/repo';
    expect(modelDestination(root, manifest, 'commercial', [])).to.deep.equal({ file: '/repo/proxy/models/person-tagger.bin', shipped: true });
    expect(modelDestination(root, manifest, 'research', [])).to.deep.equal({ file: '/repo/names-model/out/research/person-tagger.bin', shipped: false });
    expect(modelDestination(root, manifest, 'commercial', ['kpwr-pl', 'europeana'])).to.deep.equal({
      file: '/repo/names-model/out/commercial-without-kpwr-pl-europeana/person-tagger.bin',
      shipped: false,
    });
    expect(modelDestination(root, manifest, 'research', [], '/elsewhere/m.bin')).to.deep.equal({ file: '/elsewhere/m.bin', shipped: false });
    expect(modelDestination(root, manifest, 'commercial', [], '/elsewhere/m.bin')).to.deep.equal({ file: '/elsewhere/m.bin', shipped: false });
  });

  it('selects for a commercial build only sources allowing commercial use, sharing no file (by path or bytes) with the others', () => {
    const commercial = chosenSources(manifest, 'commercial');
    expect(commercial.map((s) => s.id)).to.deep.equal(['germeval2014', 'europeana', 'uner-en-ewt-train', 'uner-pt-bosque-train', 'kpwr-pl', 'litbank-en', 'btc-en', 'wnut17-en']);
    const forbidden = filesOf(refusing(manifest));
    for (const source of commercial) {
      expect(source.commercialUse, source.id).to.equal(true);
      for (const file of source.files) {
        expect(forbidden.has(file.local), file.local).to.equal(false);
        expect(forbidden.has(file.sha256), file.local).to.equal(false);
      }
    }
    // research: every source with something to train on; a report-only source is read by neither.
    const research = chosenSources(manifest, 'research').map((s) => s.id);
    expect(research).to.include.members(refusing(manifest).map((s) => s.id));
    expect(research).to.include.members(commercial.map((s) => s.id));
    expect(research).not.to.include('uner-en-ewt');
  });

  it('reads, in a commercial build, only files of commercial sources in every role, though the others lie beside them (fixture corpora)', () => {
    // The research fixture's files are in the same directory: only the selection keeps them out.
    const forbidden = filesOf(refusing(fixture));
    expect(forbidden.size).to.be.greaterThan(0);
    for (const source of refusing(fixture)) for (const file of source.files) expect(sha256OfFile(join(fixtureCorpora[0] as string, file.local)), file.local).to.equal(file.sha256);
    const splits = loadSplits(fixture.seed, chosenSources(fixture, 'commercial'), fixtureCorpora);
    expect(splits.read.length).to.be.greaterThan(0);
    for (const { source, file } of splits.read) {
      expect(fixture.sources.find((s) => s.id === source)?.commercialUse, source).to.equal(true);
      expect(forbidden.has(file.local) || forbidden.has(file.sha256), file.local).to.equal(false);
    }
    expect(splits.train.length).to.be.greaterThan(0);
    expect(splits.dev.length).to.be.greaterThan(0);
  });

  it('reads, in a commercial build from the real corpora, only files of commercial sources, in every role (real data: runs where names-model/corpora or NAMES_CORPORA_DIR holds them)', function () {
    const dirs = realCorporaDirs(ROOT);
    if (!realCorporaMaterialised(chosenSources(manifest, 'commercial'), dirs)) this.skip();
    const splits = loadSplits(manifest.seed, chosenSources(manifest, 'commercial'), dirs);
    const forbidden = filesOf(refusing(manifest));
    expect(splits.read.length).to.be.greaterThan(3);
    for (const { source, file } of splits.read) {
      expect(manifest.sources.find((s) => s.id === source)?.commercialUse, source).to.equal(true);
      expect(forbidden.has(file.local) || forbidden.has(file.sha256), file.local).to.equal(false);
    }
    expect(splits.train.length).to.be.greaterThan(1000);
    expect(splits.dev.length).to.be.greaterThan(50);
  });

  it('labels a silver source only with a commercial model trained on commercial sources, from the unlabelled text the cluster manifest lists, read only when a build names it', () => {
    // Self-training (names-model/src/self-training.ts): labels a model made are data derived from that model, so
    // its lineage is the model's: a research model's labels must never enter the commercial profile.
    const labelled = manifest.sources.filter((s) => s.labelledBy !== undefined);
    expect(labelled.map((s) => s.id)).to.deep.equal(['eltec-self']);
    const forbidden = filesOf(refusing(manifest));
    for (const source of labelled) {
      const by = source.labelledBy;
      if (by === undefined) continue;
      expect(source.commercialUse, source.id).to.equal(true);
      expect(source.silver, source.id).to.equal(true);
      expect(by.profile, source.id).to.equal('commercial');
      expect(by.sha256, source.id).to.match(/^[0-9a-f]{64}$/);
      expect(by.sources, source.id).to.not.include(source.id);
      for (const id of by.sources) {
        const s = manifest.sources.find((x) => x.id === id);
        expect(s?.commercialUse, `${source.id} labelled by a model trained on ${id}`).to.equal(true);
        expect(s?.labelledBy, `${id}: no chain of model labels`).to.equal(undefined);
      }
      for (const id of by.clusterSources) expect(clusterManifest.sources.find((s) => s.id === id)?.commercialUse, id).to.equal(true);
      // The labeller, while it is the shipped model, is the model the manifest records, trained on those sources.
      if (by.sha256 === manifest.model.sha256) {
        expect(by.model).to.equal(manifest.model.file);
        expect(by.sources).to.deep.equal(manifest.model.sources);
        expect(by.clusterSources).to.deep.equal(manifest.model.clusterSources);
      }
      // Its text is the unlabelled sources' (whose evaluation novels are left out: checked below), at their commits.
      for (const file of source.files) {
        const novels = clusterManifest.sources.find((s) => s.id === by.novels[file.language]);
        expect(novels?.language, file.local).to.equal(file.language);
        expect(novels?.repository, file.local).to.equal(file.repository);
        expect(novels?.commit, file.local).to.equal(file.commit);
        expect(file.role, file.local).to.equal('train');
        expect(forbidden.has(file.local) || forbidden.has(file.sha256), file.local).to.equal(false);
      }
    }
    // Left out (used: false): out of the default builds (and so of the shipped model's sources) until named with --with.
    expect(chosenSources(manifest, 'commercial').map((s) => s.id)).not.to.include('eltec-self');
    expect(chosenSources(manifest, 'research').map((s) => s.id)).not.to.include('eltec-self');
    expect(chosenSources(manifest, 'commercial', [], ['eltec-self']).map((s) => s.id)).to.include('eltec-self');
    expect(() => chosenSources(manifest, 'commercial', [], ['kpwr-pl'])).to.throw(/not a source the manifest leaves out \(used: false\): kpwr-pl/);
    expect(chosenSources(manifest, 'commercial', [], ['zefys2025-de']).map((s) => s.id)).to.include('zefys2025-de');
  });

  it('drops a source switched off with --without, every file of it', () => {
    for (const id of ['wikineural', 'europeana']) {
      const kept = chosenSources(manifest, 'research', [id]);
      expect(kept.map((s) => s.id)).not.to.include(id);
      const dropped = manifest.sources.find((s) => s.id === id) as CorpusSource;
      const keptFiles = new Set(kept.flatMap((s) => s.files.map((f) => f.local)));
      for (const file of dropped.files) expect(keptFiles.has(file.local), file.local).to.equal(false);
    }
    const splits = loadSplits(fixture.seed, chosenSources(fixture, 'research', ['fixture-research']), fixtureCorpora);
    expect(splits.read.map((r) => r.source)).not.to.include('fixture-research');
  });

  it('never reads a source the manifest marks used: false, in either profile, and trains as if it were not listed', () => {
    const marked: DataManifest = { ...fixture, sources: fixture.sources.map((s) => (s.id === 'fixture-more' ? { ...s, used: false, usedDecision: 'measured: no gain' } : s)) };
    for (const profile of ['commercial', 'research'] as const) {
      expect(chosenSources(marked, profile).map((s) => s.id), profile).not.to.include('fixture-more');
    }
    const dir = mkdtempSync(join(tmpdir(), 'names-unused-'));
    mkdirSync(join(dir, 'fixture'));
    // Only the used commercial source's file is present: the unused one's is not needed.
    copyFileSync(join(FIXTURES, 'corpora/fixture/fixture-train.conllu'), join(dir, 'fixture/fixture-train.conllu'));
    const withMark = trainNames({ manifest: marked, corporaDirs: [dir], profile: 'commercial' });
    const unlisted = trainNames({ manifest: { ...fixture, sources: fixture.sources.filter((s) => s.id !== 'fixture-more') }, corporaDirs: [dir], profile: 'commercial' });
    expect(withMark.splits.read.map((r) => r.source)).to.deep.equal(['fixture']);
    expect(withMark.bytes.equals(unlisted.bytes)).to.equal(true);
    for (const source of manifest.sources.filter((s) => s.used === false)) {
      expect(manifest.model.sources, source.id).not.to.include(source.id);
      expect(source.usedDecision ?? '', `${source.id}: what was measured`).to.have.length.greaterThan(40);
    }
  });

  it('trains the same commercial model whether or not the manifest lists research sources, and needs none of their files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'names-commercial-only-'));
    mkdirSync(join(dir, 'fixture'));
    copyFileSync(join(FIXTURES, 'corpora/fixture/fixture-train.conllu'), join(dir, 'fixture/fixture-train.conllu'));
    // Only the commercial fixture's file is present: the research source's train and dev files are not.
    const commercial = trainNames({ manifest: fixture, corporaDirs: [dir], profile: 'commercial' });
    const withoutResearch = trainNames({ manifest: { ...fixture, sources: fixture.sources.filter((s) => s.commercialUse) }, corporaDirs: [dir], profile: 'commercial' });
    expect(commercial.bytes.equals(withoutResearch.bytes)).to.equal(true);
    expect(commercial.splits.read.map((r) => r.source)).to.deep.equal(['fixture', 'fixture-more']);
    const info = decodeNameModel(commercial.bytes).info;
    expect(info).to.include({ profile: 'commercial' });
    expect(info['sources']).to.deep.equal(['fixture', 'fixture-more']);
    expect(info['terms']).to.match(/^commercial profile: commercial use allowed by every source/);
    expect(() => trainNames({ manifest: fixture, corporaDirs: [dir], profile: 'research' })).to.throw(/fixture-research-train\.conllu: not found/);
  });

  it('reads the research sources train and dev files in a research build, and the model they make differs', () => {
    const research = trainNames({ manifest: fixture, corporaDirs: fixtureCorpora, profile: 'research' });
    const read = research.splits.read.filter((r) => r.source === 'fixture-research').map((r) => r.file.role);
    expect(read).to.deep.equal(['train', 'dev']);
    expect(decodeNameModel(research.bytes).info).to.include({ profile: 'research' });
    expect(research.terms).to.match(/NOT for commercial use \(sources that refuse it: fixture-research LicenseRef-gateway-fixture-research-only\)/);
    const commercial = trainNames({ manifest: fixture, corporaDirs: fixtureCorpora, profile: 'commercial' });
    const weights = (w: Int16Array): Buffer => Buffer.from(w.buffer, w.byteOffset, w.byteLength);
    expect(weights(research.model.weights).equals(weights(commercial.model.weights))).to.equal(false);
  });

  it('npm run train:names -- --profile commercial: trains the fixture end to end, the model, its note and NOTICE naming the profile', () => {
    const before = readFileSync(join(FIXTURES, 'manifest.fixture.json'), 'utf8');
    const out = join(mkdtempSync(join(tmpdir(), 'names-train-main-')), 'person-tagger.bin');
    const run = spawnSync(process.execPath, [TRAIN_MAIN, '--manifest', join(FIXTURES, 'manifest.fixture.json'), '--profile', 'commercial', '--out', out], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, NAMES_CORPORA_DIR: join(FIXTURES, 'corpora') },
    });
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/profile commercial, sources: fixture, fixture-more\n/);
    const checked = openNameModel(out);
    expect(checked.profile).to.equal('commercial');
    expect(checked.terms).to.match(/^commercial profile: commercial use allowed/);
    expect(checked.model.info['sources']).to.deep.equal(['fixture', 'fixture-more']);
    const note = JSON.parse(readFileSync(out.replace(/\.bin$/, '.json'), 'utf8')) as { profile: string; sources: string[]; files: { source: string }[] };
    expect(note.profile).to.equal('commercial');
    expect(note.files.map((f) => f.source)).to.deep.equal(['fixture', 'fixture-more']);
    const notice = readFileSync(checked.notice as string, 'utf8');
    expect(notice).to.match(/^Profile: commercial$/m);
    expect(notice).to.match(/^== fixture: /m);
    expect(notice).not.to.match(/fixture-research/);
    // A build written elsewhere leaves the manifest's record of the shipped model alone.
    expect(readFileSync(join(FIXTURES, 'manifest.fixture.json'), 'utf8')).to.equal(before);
  });

  it('tune-main --tune-margins: searches the margins on the commercial dev parts alone, the same way each run', () => {
    const run = (profile: string): { stdout: string; margins: Record<string, number> } => {
      const out = join(mkdtempSync(join(tmpdir(), 'names-tune-')), 'margins.json');
      const args = [TUNE_MAIN, `--manifest=${join(FIXTURES, 'manifest.fixture.json')}`, `--profile=${profile}`, '--tune-margins', `--margins-out=${out}`];
      const r = spawnSync(process.execPath, args, { encoding: 'utf8', env: { PATH: process.env.PATH, NAMES_CORPORA_DIR: join(FIXTURES, 'corpora') } });
      expect(r.status, r.stderr).to.equal(0);
      return { stdout: r.stdout, margins: JSON.parse(readFileSync(out, 'utf8')) as Record<string, number> };
    };
    const commercial = run('commercial');
    // The search's objective names the languages it scored: the commercial fixture's alone, not the research one's.
    expect(commercial.stdout).to.match(/^margins in force: mean F1 [\d.]+: mixed P [\d.]+ R [\d.]+ F1 [\d.]+$/m);
    expect(commercial.stdout).not.to.match(/fixture-research/);
    expect(Object.keys(commercial.margins).sort()).to.deep.equal(Object.keys(SHIPPED_MARGINS).sort());
    // The same search each run (the log's timings aside).
    const untimed = (stdout: string): string => stdout.replace(/\(\d+ s\)/g, '');
    const again = run('commercial');
    expect(again.margins).to.deep.equal(commercial.margins);
    expect(untimed(again.stdout)).to.equal(untimed(commercial.stdout));
    // The research profile does score the research source's dev file: the check above could fail.
    expect(run('research').stdout).to.match(/^margins in force: mean F1 [\d.]+: mixed .*; en P /m);
  });

  it('learns word clusters only from unlabelled text allowing commercial use, none of it evaluation text, from the committed files the manifest sums', () => {
    expect(manifest.unlabelledClusters).to.equal('clusters/sources.json');
    const labelledFiles = filesOf(manifest.sources);
    const refusingRepositories = new Set(refusing(manifest).flatMap((s) => s.files.map((f) => f.repository)));
    for (const source of clusterManifest.sources) {
      expect(source.commercialUse, source.id).to.equal(true);
      expect(idsOf(source.spdx).every((id) => COMMERCIAL_IDS.has(id)), `${source.id}: ${source.spdx}`).to.equal(true);
      if (idsOf(source.spdx).some((id) => /^CC-BY/.test(id))) expect(source.obligations.attribution, source.id).to.be.a('string');
      expect(refusingRepositories.has(source.repository), source.id).to.equal(false);
      expect(source.commit, source.id).to.match(/^[0-9a-f]{40}$/);
      const left = (EVALUATION_NOVELS[source.repository.replace('github.com/', '')] ?? '').split(' ').filter((n) => n !== '');
      for (const novel of left) expect(source.excluded.map((e) => e.path), `${source.id} leaves out ${novel}`).to.include(`level1/${novel}.xml`);
      for (const file of source.files) {
        expect(file.sha256, file.path).to.match(/^[0-9a-f]{64}$/);
        expect(labelledFiles.has(file.sha256), file.path).to.equal(false);
        expect(left.some((n) => file.path.includes(n)), file.path).to.equal(false);
        expect(file.path, file.path).not.to.match(/(^|[/_-])test([._/-]|$)/i);
      }
    }
    // Every language's committed clusters, as the manifest sums them; and a build reads those (and only those).
    for (const language of clusterManifest.languages) {
      const built = clusterManifest.clusters[language];
      expect(built, language).to.not.equal(undefined);
      expect(sha256OfFile(join(ROOT, 'names-model/clusters', built?.file ?? '')), language).to.equal(built?.sha256);
      for (const id of built?.sources ?? []) expect(clusterManifest.sources.find((s) => s.id === id)?.language, id).to.equal(language);
    }
    const { clusterLineage } = buildLexicon(manifest, [], join(ROOT, 'names-model'));
    expect(clusterLineage?.files.map((f) => f.file)).to.deep.equal(clusterManifest.languages.map((l) => `${l}.bin`));
    expect(clusterLineage?.sources.every((s) => s.commercialUse)).to.equal(true);
  });

  it('reads word lists only from sources allowing commercial use, none of them evaluation text, from the committed files the manifest sums', () => {
    // The shipped model does not read them yet (docs/privacy.md (n)); a manifest naming them builds from these files.
    const lexicons = readLexiconManifest(join(ROOT, 'names-model/lexicons/sources.json'));
    for (const source of lexicons.sources) {
      expect(source.commercialUse, source.id).to.equal(true);
      // An "OR" expression is a choice: one commercial licence among them is enough (GPL-only lists are out).
      const ids = idsOf(source.spdx);
      const allowed = source.spdx.includes(' OR ') ? ids.some((id) => COMMERCIAL_IDS.has(id)) : ids.every((id) => COMMERCIAL_IDS.has(id));
      expect(allowed, `${source.id}: ${source.spdx}`).to.equal(true);
      expect(source.version, source.id).to.match(/\S/);
      for (const file of source.files) {
        expect(file.sha256, file.local).to.match(/^[0-9a-f]{64}$/);
        expect(file.local, file.local).not.to.match(/agent-text|(^|[/_-])test([._/-]|$)/i);
      }
    }
    for (const id of lexicons.order) {
      const built = lexicons.lexicons[id];
      expect(sha256OfFile(join(ROOT, 'names-model/lexicons', built?.file ?? '')), id).to.equal(built?.sha256);
    }
    const named = { ...manifest, lexicons: 'lexicons/sources.json' };
    const { lexiconLineage, lexicon } = buildLexicon(named, [], join(ROOT, 'names-model'));
    expect(lexiconLineage?.files.map((f) => f.file)).to.deep.equal(lexicons.order.map((id) => lexicons.lexicons[id]?.file));
    expect(lexiconLineage?.sources.every((s) => s.commercialUse)).to.equal(true);
    expect(lexicon.sets?.map((s) => s.id)).to.deep.equal(lexicons.order);
    // Their terms reach the model's terms line and NOTICE when it reads them.
    const terms = termsLine('commercial', lexiconLineage?.sources ?? []);
    expect(terms).to.match(/^commercial profile: commercial use allowed by every source \(debian-packages LicenseRef-facts, linguist-languages MIT, /);
    // A manifest without them builds no lists: a model trained from it has the features it had before them.
    const { lexicons: _named, ...unnamed } = named;
    const plain = buildLexicon(unnamed, [], join(ROOT, 'names-model'));
    expect(plain.lexicon.sets).to.equal(undefined);
    expect(plain.lexiconLineage).to.equal(null);
  });

  it('labels software text from no repository of the agent-text evaluation set, under terms allowing commercial use', () => {
    // Not in the shipped manifest yet (docs/privacy.md (o)); its entry, ready to add, is checked as a source would be.
    // Its labelled files hold the snapshots' text and are rebuilt by build.mjs, not committed: the entry's sums check them.
    const dir = join(ROOT, 'names-model/corpora/software-text');
    const source = JSON.parse(readFileSync(join(dir, 'source.json'), 'utf8')) as CorpusSource;
    const agentText = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/agent-text/manifest.json'), 'utf8')) as { sources: { repo: string | null }[] };
    const evaluated = new Set(agentText.sources.flatMap((s) => (s.repo === null ? [] : [`github.com/${s.repo}`])));
    expect(evaluated.size).to.be.greaterThan(10);
    expect(termProblems(source)).to.deep.equal([]);
    expect(source.commercialUse).to.equal(true);
    expect(idsOf(source.spdx).every((id) => COMMERCIAL_IDS.has(id)), source.spdx).to.equal(true);
    expect(source.obligations.attribution).to.be.a('string');
    expect(source.software).to.equal(true);
    expect(manifest.sources.some((s) => s.id === source.id)).to.equal(false);
    const forbidden = filesOf(refusing(manifest));
    expect(source.files.length).to.be.greaterThan(10);
    for (const file of source.files) {
      expect(evaluated.has(file.repository), file.repository).to.equal(false);
      expect(file.local, file.local).to.match(/^software-text\/[^/]+\/[^/]+\.tsv$/);
      expect(file.local, file.local).not.to.match(/agent-text|(^|[/_-])test([._/-]|$)/i);
      expect(file.commit, file.local).to.match(/^[0-9a-f]{40}$/);
      expect(file.sha256, file.local).to.match(/^[0-9a-f]{64}$/);
      expect(file.sourceSha256, file.local).to.match(/^[0-9a-f]{64}$/);
      expect(forbidden.has(file.sha256), file.local).to.equal(false);
    }
    // The builder reads only these repositories, and refuses the agent-text set's (its own check, read here).
    const builder = readFileSync(join(dir, 'build.mjs'), 'utf8');
    for (const repo of evaluated) expect(builder.includes(`'${repo.replace('github.com/', '')}'`), repo).to.equal(false);
    expect(builder).to.include("throw new Error(`${src.repo} is an agent-text source`)");
  });

  it('reads the given-name and surname statistics only from sources allowing commercial use, by frequency band, from the committed files', () => {
    // names-model/lexicons/names.json (docs/privacy.md (q)): a list manifest of its own; a data manifest naming it
    // ("lexicons": "lexicons/names.json") trains with these lists in this order.
    const names = readLexiconManifest(join(ROOT, 'names-model/lexicons/names.json'));
    expect(names.order).to.deep.equal(['given-top', 'given-rest', 'surname-top']);
    for (const source of names.sources) {
      expect(source.commercialUse, source.id).to.equal(true);
      expect(idsOf(source.spdx).every((id) => COMMERCIAL_IDS.has(id)), `${source.id}: ${source.spdx}`).to.equal(true);
      expect(source.version, source.id).to.match(/^commit [0-9a-f]{40}$/);
      for (const file of source.files) {
        expect(file.sha256, file.local).to.match(/^[0-9a-f]{64}$/);
        expect(file.local, file.local).not.to.match(/agent-text|(^|[/_-])test([._/-]|$)/i);
      }
    }
    expect(names.sources.find((s) => s.id === 'berlin-given-names')?.obligations.attribution).to.match(/LABO.*CC BY 3\.0 DE/);
    // The two given-name bands cut the same ranking apart: no name is in both by construction.
    expect(names.lexicons['given-top']?.rank).to.deep.equal({ from: 0, below: 1000 });
    expect(names.lexicons['given-rest']?.rank).to.deep.equal({ from: 1000, below: null });
    for (const id of names.order) {
      const built = names.lexicons[id];
      expect(sha256OfFile(join(ROOT, 'names-model/lexicons', built?.file ?? '')), id).to.equal(built?.sha256);
    }
    const named = { ...manifest, lexicons: 'lexicons/names.json' };
    const { lexiconLineage, lexicon } = buildLexicon(named, [], join(ROOT, 'names-model'));
    expect(lexicon.sets?.map((s) => s.id)).to.deep.equal(names.order);
    expect(lexiconLineage?.sources.map((s) => s.id)).to.deep.equal(['ssa-given-names', 'berlin-given-names', 'census-surnames']);
    expect(termsLine('commercial', lexiconLineage?.sources ?? [])).to.match(/^commercial profile: commercial use allowed by every source \(ssa-given-names LicenseRef-public-domain, berlin-given-names CC-BY-3\.0-DE, census-surnames LicenseRef-public-domain\)/);
  });

  it('reads the place lists only from sources allowing commercial use, from the committed files the manifest sums', () => {
    // names-model/lexicons/places.json (docs/privacy.md (v)): not named by the shipped manifest; a data manifest
    // naming it ("lexicons": "lexicons/places.json") trains with these lists in this order.
    const places = readLexiconManifest(join(ROOT, 'names-model/lexicons/places.json'));
    expect(places.order).to.deep.equal(['place-country', 'place-city-top', 'place-city-rest', 'place-pl-forms']);
    for (const source of places.sources) {
      expect(source.commercialUse, source.id).to.equal(true);
      const ids = idsOf(source.spdx);
      const allowed = source.spdx.includes(' OR ') ? ids.some((id) => COMMERCIAL_IDS.has(id)) : ids.every((id) => COMMERCIAL_IDS.has(id));
      expect(allowed, `${source.id}: ${source.spdx}`).to.equal(true);
      expect(source.obligations.attribution, source.id).to.be.a('string');
      for (const file of source.files) {
        expect(file.sha256, file.local).to.match(/^[0-9a-f]{64}$/);
        expect(file.local, file.local).not.to.match(/agent-text|(^|[/_-])test([._/-]|$)/i);
      }
    }
    expect(places.lexicons['place-pl-forms']?.declined).to.deep.equal({ language: 'pl', forms: 'sjp-wpolish' });
    for (const id of places.order) {
      const built = places.lexicons[id];
      expect(sha256OfFile(join(ROOT, 'names-model/lexicons', built?.file ?? '')), id).to.equal(built?.sha256);
    }
    // The shipped manifest names them since docs/privacy.md (x); the shipped model records their sources.
    expect(manifest.lexicons).to.equal('lexicons/places.json');
    expect(manifest.model.lexiconSources).to.deep.equal(['geonames-cities15000', 'cldr-territories', 'sjp-wpolish']);
    const { lexiconLineage, lexicon } = buildLexicon(manifest, [], join(ROOT, 'names-model'));
    expect(lexicon.sets?.map((s) => s.id)).to.deep.equal(places.order);
    expect(lexiconLineage?.sources.map((s) => s.id)).to.deep.equal(['geonames-cities15000', 'cldr-territories', 'sjp-wpolish']);
    expect(termsLine('commercial', lexiconLineage?.sources ?? [])).to.match(/^commercial profile: commercial use allowed by every source \(geonames-cities15000 CC-BY-3\.0, cldr-territories Unicode-3\.0, sjp-wpolish /);
  });

  it('refuses a frequency band of a word list that has no counts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'names-lexicons-'));
    const lexicons = readLexiconManifest(join(ROOT, 'names-model/lexicons/sources.json'));
    const software = lexicons.lexicons.software;
    const bad = { ...lexicons, lexicons: { ...lexicons.lexicons, software: { ...software, rank: { from: 0, below: 1000 } } } };
    writeFileSync(join(dir, 'sources.json'), JSON.stringify(bad));
    expect(() => readLexiconManifest(join(dir, 'sources.json'))).to.throw(/software: a rank band of debian-packages, whose reader \(debian-packages\) gives no counts/);
  });

  it('refuses a word-list manifest naming a source that refuses commercial use', () => {
    const dir = mkdtempSync(join(tmpdir(), 'names-lexicons-'));
    const lexicons = readLexiconManifest(join(ROOT, 'names-model/lexicons/sources.json'));
    const bad = { ...lexicons, sources: lexicons.sources.map((s, i) => (i === 0 ? { ...s, commercialUse: false } : s)) };
    writeFileSync(join(dir, 'sources.json'), JSON.stringify(bad));
    expect(() => readLexiconManifest(join(dir, 'sources.json'))).to.throw(/debian-packages: refuses commercial use/);
  });

  it('refuses a cluster manifest naming a source that refuses commercial use', () => {
    const dir = mkdtempSync(join(tmpdir(), 'names-clusters-'));
    const bad = { ...clusterManifest, sources: clusterManifest.sources.map((s, i) => (i === 0 ? { ...s, commercialUse: false } : s)) };
    writeFileSync(join(dir, 'sources.json'), JSON.stringify(bad));
    expect(() => readClusterManifest(join(dir, 'sources.json'))).to.throw(/eltec-eng: refuses commercial use/);
  });

  it('refuses an unknown profile before reading anything', () => {
    const run = spawnSync(process.execPath, [TRAIN_MAIN, '--manifest', join(FIXTURES, 'manifest.fixture.json'), '--profile', 'everything'], { encoding: 'utf8' });
    expect(run.status).not.to.equal(0);
    expect(run.stderr).to.match(/--profile must be one of commercial, research, not everything/);
  });
});
