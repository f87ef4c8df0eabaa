import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { readManifest, sha256OfFile } from '../src/index.js';

// The model the proxy ships is the one the manifest describes: same checksum in the manifest, in the note the
// proxy checks at start, and of the file's bytes. And the manifest is complete: every training file's origin,
// licence and checksum, and no public test split among them.
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
      expect(['permissive', 'research']).to.include(source.licenceClass);
      for (const file of source.files) {
        expect(file.repository, file.local).to.match(/^github\.com\//);
        expect(file.commit, file.local).to.match(/^[0-9a-f]{40}$/);
        expect(file.sha256, file.local).to.match(/^[0-9a-f]{64}$/);
        expect(file.path, file.local).not.to.match(/test|testb/i);
      }
    }
  });

  it('has the committed corpora it says it has', () => {
    for (const source of manifest.sources.filter((s) => s.licenceClass === 'permissive')) {
      for (const file of source.files) expect(sha256OfFile(join(ROOT, 'names-model/corpora', file.local))).to.equal(file.sha256);
    }
  });
});
