import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { openNameModel } from '@gateway/privacy';
import { githubRepository, locateCorpusFiles, rawFileUrl, readClusterManifest, readLexiconManifest, readManifest, sha256OfFile, shippedModelTerms } from '../src/index.js';
import { realCorporaDirs, realCorporaMaterialised } from './support/real-corpora.js';

// The model the proxy ships is the one the manifest describes: same checksum in the manifest, in the note the
// proxy checks at start, and of the file's bytes. And the manifest is complete: every training file's origin,
// licence and checksum, and no public test split among them. (Licence terms and lineage: lineage.test.ts.)
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const manifest = readManifest(join(ROOT, 'names-model/manifest.json'));

describe('names-model: the shipped model and its manifest', () => {
  it('has the checksum the manifest and the proxy note record', () => {
    const file = join(ROOT, manifest.model.file);
    const note = JSON.parse(readFileSync(file.replace(/\.bin$/, '.json'), 'utf8')) as { sha256: string; sources: string[] };
    expect(sha256OfFile(file)).to.equal(manifest.model.sha256);
    expect(note.sha256).to.equal(manifest.model.sha256);
    expect(note.sources).to.deep.equal(manifest.model.sources);
    expect(readFileSync(file).length).to.be.below(25 * 1024 * 1024);
  });

  it('names every file with repository, path, commit, licence and SHA-256, and holds no test split', () => {
    expect(manifest.sources.length).to.be.greaterThan(3);
    for (const source of manifest.sources) {
      expect(source.licence, source.id).to.match(/\S{10}/);
      expect(source.commercialUse, source.id).to.be.a('boolean');
      for (const file of source.files) {
        expect(file.repository, file.local).to.match(/^github\.com\//);
        expect(file.commit, file.local).to.match(/^[0-9a-f]{40}$/);
        expect(file.sha256, file.local).to.match(/^[0-9a-f]{64}$/);
        expect(file.path, file.local).not.to.match(/test|testb/i);
      }
    }
  });

  it('states its profile and terms at load, with the NOTICE of its sources obligations beside it', () => {
    const file = join(ROOT, manifest.model.file);
    const clusters = manifest.unlabelledClusters === undefined ? undefined : readClusterManifest(join(ROOT, 'names-model', manifest.unlabelledClusters));
    const lexicons = manifest.lexicons === undefined ? undefined : readLexiconManifest(join(ROOT, 'names-model', manifest.lexicons));
    const { terms, notice } = shippedModelTerms(manifest, clusters, lexicons);
    const checked = openNameModel(file);
    expect(checked.profile).to.equal(manifest.model.profile);
    expect(checked.terms).to.equal(terms);
    // Written by train:names (or notice-main.js after a licence correction): regenerate rather than edit by hand.
    expect(readFileSync(checked.notice as string, 'utf8')).to.equal(notice);
    // The commercial profile's model, which every customer may run; a research model is never the shipped one.
    expect(checked.profile).to.equal('commercial');
    expect(checked.model.info['profile']).to.equal('commercial');
    expect(checked.terms).to.match(/^commercial profile: commercial use allowed by every source \(germeval2014 CC-BY-4\.0, /);
    expect(checked.terms).not.to.match(/NOT for commercial use/);
    expect(checked.model.info['sources']).to.deep.equal(manifest.model.sources);
    expect(checked.notice).to.equal(join(dirname(file), 'NOTICE'));
  });

  it('names every corpus file where the materialiser puts it and fetches it from: <owner>/<name>/<path> of a GitHub repository', () => {
    for (const source of manifest.sources) {
      if (source.labelledBy !== undefined) {
        // Labelled here (npm run build:self), not fetched: its own directory, the repository its text comes from.
        for (const file of source.files) {
          expect(file.local, source.id).to.match(/^gateway-self\/[a-z-]+\.tsv$/);
          expect(() => githubRepository(file.repository), file.local).not.to.throw();
        }
        continue;
      }
      for (const file of source.files) {
        const [owner, name] = githubRepository(file.repository);
        expect(file.local, source.id).to.equal(`${owner}/${name}/${file.path}`);
        expect(rawFileUrl(file), file.local).to.equal(`https://raw.githubusercontent.com/${owner}/${name}/${file.commit}/${file.path}`);
      }
    }
  });

  it('has, where the corpora are materialised, every commercial file with the SHA-256 it records (real data: runs where names-model/corpora or NAMES_CORPORA_DIR holds them)', function () {
    // What corpora:names materialises; a source labelled here is built by build:self (self-training.test.ts).
    const commercial = manifest.sources.filter((s) => s.commercialUse && s.labelledBy === undefined);
    const dirs = realCorporaDirs(ROOT);
    if (!realCorporaMaterialised(commercial, dirs)) this.skip();
    const found = locateCorpusFiles(commercial, dirs);
    expect(found.size).to.equal(commercial.reduce((n, s) => n + s.files.length, 0));
    for (const [file, path] of found) expect(sha256OfFile(path), file.local).to.equal(file.sha256);
  });
});
