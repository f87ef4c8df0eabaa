import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { fromGitMirrors, fromWeb, materialise, mirrorGitDir, rawFileUrl } from '../src/index.js';
import type { CorpusFile } from '../src/index.js';

// The corpora are not committed: npm run corpora:names materialises what the manifest lists from git mirrors or
// GitHub's raw files, refusing any bytes whose SHA-256 is not the manifest's. Checked here on a repository made
// in the test (git init, two commits), laid out as the snapshot tool lays out its mirrors, and on a local server.
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CORPORA_MAIN = join(ROOT, 'names-model/dist/src/corpora-main.js');
const sha256 = (s: string | Buffer): string => createHash('sha256').update(s).digest('hex');

const FIRST = 'Ada\tB-PER\nQuist\tI-PER\n\n';
const SECOND = 'Ada\tB-PER\nQuist\tI-PER\nwohnt\tO\n\n';

describe('names-model: materialising the corpora the manifest lists', function () {
  this.timeout(60_000);
  let scratch: string;
  let mirrors: string;
  let first: string;
  let second: string;
  const git = (gitDir: string, ...args: string[]): string =>
    execFileSync('git', args, {
      encoding: 'utf8',
      env: { ...process.env, GIT_DIR: gitDir, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.org', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.org' },
    }).trim();
  const entry = (commit: string, text: string, path = 'data/de/train.conllu'): CorpusFile => ({
    local: `owner/corpus/${path}`,
    repository: 'github.com/owner/corpus',
    path,
    commit,
    role: 'train',
    language: 'de',
    sha256: sha256(text),
  });

  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'names-materialise-'));
    mirrors = join(scratch, 'mirrors');
    // A bare repository at <mirrors>/owner+corpus/repo, two commits of one file: the pinned commit decides the bytes.
    const gitDir = join(mirrors, 'owner+corpus', 'repo');
    const work = join(scratch, 'work');
    mkdirSync(join(work, 'data/de'), { recursive: true });
    execFileSync('git', ['init', '-q', '--bare', gitDir]);
    const commit = (text: string): string => {
      writeFileSync(join(work, 'data/de/train.conllu'), text);
      git(gitDir, '--work-tree', work, 'add', 'data/de/train.conllu');
      git(gitDir, '--work-tree', work, 'commit', '-q', '-m', 'rows');
      return git(gitDir, 'rev-parse', 'HEAD');
    };
    first = commit(FIRST);
    second = commit(SECOND);
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('writes each file from the mirror at its pinned commit, with the manifest SHA-256, and leaves a present one as it is', async () => {
    const dir = join(scratch, 'data-1');
    const files = [entry(first, FIRST), { ...entry(second, SECOND), local: 'owner/corpus/later/train.conllu' }];
    const result = await materialise(files, dir, fromGitMirrors(mirrors));
    expect(result).to.deep.equal({ written: ['owner/corpus/data/de/train.conllu', 'owner/corpus/later/train.conllu'], present: [], problems: [] });
    expect(readFileSync(join(dir, 'owner/corpus/data/de/train.conllu'), 'utf8')).to.equal(FIRST);
    expect(readFileSync(join(dir, 'owner/corpus/later/train.conllu'), 'utf8')).to.equal(SECOND);
    const again = await materialise(files, dir, fromGitMirrors(mirrors));
    expect(again).to.deep.equal({ written: [], present: ['owner/corpus/data/de/train.conllu', 'owner/corpus/later/train.conllu'], problems: [] });
  });

  it('refuses bytes whose SHA-256 differs from the manifest, writing nothing for that file', async () => {
    const dir = join(scratch, 'data-2');
    // The manifest pins the first commit's bytes, but names the second commit: the mirror gives other bytes.
    const result = await materialise([entry(second, FIRST)], dir, fromGitMirrors(mirrors));
    expect(result.written).to.deep.equal([]);
    expect(result.problems).to.deep.equal([
      `owner/corpus/data/de/train.conllu: refused, github.com/owner/corpus ${second} data/de/train.conllu has SHA-256 ${sha256(SECOND)}, the manifest says ${sha256(FIRST)}`,
    ]);
    expect(existsSync(join(dir, 'owner/corpus/data/de/train.conllu'))).to.equal(false);
    expect(existsSync(join(dir, 'owner/corpus/data/de/train.conllu.part'))).to.equal(false);
  });

  it('names a file it cannot read (no mirror, no such path) and one already there with other bytes, which it leaves alone', async () => {
    const dir = join(scratch, 'data-3');
    mkdirSync(join(dir, 'owner/corpus/data/de'), { recursive: true });
    writeFileSync(join(dir, 'owner/corpus/data/de/train.conllu'), 'edited\n');
    const missing = { ...entry(first, FIRST, 'data/nl/train.conllu') };
    const elsewhere = { ...entry(first, FIRST), local: 'other/corpus/x', repository: 'github.com/other/corpus' };
    const result = await materialise([entry(first, FIRST), missing, elsewhere], dir, fromGitMirrors(mirrors));
    expect(result.written).to.deep.equal([]);
    expect(result.problems).to.have.length(3);
    expect(result.problems[0]).to.equal(
      `owner/corpus/data/de/train.conllu: already in ${dir} with SHA-256 ${sha256('edited\n')}, the manifest says ${sha256(FIRST)}; left as it is`,
    );
    expect(result.problems[1]).to.match(new RegExp(`^owner/corpus/data/nl/train\\.conllu: github\\.com/owner/corpus ${first} data/nl/train\\.conllu not read \\(`));
    expect(result.problems[2]).to.equal(`other/corpus/x: github.com/other/corpus ${first} data/de/train.conllu not read (no mirror of github.com/other/corpus at ${join(mirrors, 'other+corpus', 'repo')})`);
    expect(readFileSync(join(dir, 'owner/corpus/data/de/train.conllu'), 'utf8')).to.equal('edited\n');
  });

  it('reads a mirror that is a clone with a work tree (repo/.git) as well as a bare one', () => {
    const clone = join(scratch, 'clones');
    mkdirSync(join(clone, 'owner+corpus'), { recursive: true });
    execFileSync('git', ['clone', '-q', join(mirrors, 'owner+corpus', 'repo'), join(clone, 'owner+corpus', 'repo')]);
    expect(mirrorGitDir(clone, 'github.com/owner/corpus')).to.equal(join(clone, 'owner+corpus', 'repo', '.git'));
    expect(mirrorGitDir(mirrors, 'github.com/owner/corpus')).to.equal(join(mirrors, 'owner+corpus', 'repo'));
    expect(() => mirrorGitDir(mirrors, 'gitlab.com/owner/corpus')).to.throw(/not a github\.com\/<owner>\/<name> repository/);
  });

  describe('from the web', () => {
    let server: Server;
    let base: string;
    const asked: string[] = [];
    before(async () => {
      server = createServer((req, res) => {
        asked.push(req.url ?? '');
        if (req.url === `/owner/corpus/${first}/data/de/train.conllu`) res.end(FIRST);
        else if (req.url === `/owner/corpus/${second}/data/de/train.conllu`) res.end(SECOND);
        else res.writeHead(404).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('asks GitHub raw file URLs at the pinned commit, and checks what comes back the same way', async () => {
      expect(rawFileUrl(entry(first, FIRST))).to.equal(`https://raw.githubusercontent.com/owner/corpus/${first}/data/de/train.conllu`);
      expect(rawFileUrl({ ...entry(first, FIRST), path: 'a b/c#d.tsv' })).to.equal(`https://raw.githubusercontent.com/owner/corpus/${first}/a%20b/c%23d.tsv`);
      const dir = join(scratch, 'data-web');
      const result = await materialise([entry(first, FIRST), { ...entry(second, FIRST), local: 'owner/corpus/b' }, { ...entry(first, FIRST, 'gone.tsv') }], dir, fromWeb(base));
      expect(result.written).to.deep.equal(['owner/corpus/data/de/train.conllu']);
      expect(result.problems[0]).to.match(/^owner\/corpus\/b: refused, .* has SHA-256 [0-9a-f]{64}, the manifest says /);
      expect(result.problems[1]).to.equal(`owner/corpus/gone.tsv: github.com/owner/corpus ${first} gone.tsv not read (${base}/owner/corpus/${first}/gone.tsv: HTTP 404)`);
      expect(asked).to.deep.equal([`/owner/corpus/${first}/data/de/train.conllu`, `/owner/corpus/${second}/data/de/train.conllu`, `/owner/corpus/${first}/gone.tsv`]);
      expect(readdirSync(join(dir, 'owner/corpus'))).to.deep.equal(['data']);
    });
  });

  it('npm run corpora:names: materialises a manifest from the mirrors, exiting 1 and naming the file on a mismatch', () => {
    const source = {
      id: 'invented',
      name: 'invented rows',
      licence: 'invented test rows',
      spdx: 'LicenseRef-test',
      commercialUse: true,
      licenceCheck: 'test',
      obligations: { attribution: null, shareAlike: false },
      format: 'conll-indexed',
      files: [entry(first, FIRST)],
    };
    const base = { seed: 1, buckets: 1024, maxEpochs: 1, model: { file: 'x.bin', profile: 'commercial', sha256: '0'.repeat(64), sources: ['invented'] } };
    const good = join(scratch, 'manifest-good.json');
    const bad = join(scratch, 'manifest-bad.json');
    writeFileSync(good, JSON.stringify({ ...base, sources: [source] }));
    writeFileSync(bad, JSON.stringify({ ...base, sources: [{ ...source, files: [{ ...entry(second, FIRST), local: 'owner/corpus/pinned-wrong' }] }] }));
    const run = (manifest: string, dir: string, env: Record<string, string> = {}): ReturnType<typeof spawnSync> =>
      spawnSync(process.execPath, [CORPORA_MAIN, '--from-git', mirrors, '--manifest', manifest, ...(dir === '' ? [] : ['--dir', dir])], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, ...env },
      });
    const dir = join(scratch, 'data-main');
    const ok = run(good, dir);
    expect(ok.status, String(ok.stderr)).to.equal(0);
    expect(ok.stdout).to.equal(`${dir}: 1 written, 0 already there with the manifest's SHA-256\n`);
    expect(readFileSync(join(dir, 'owner/corpus/data/de/train.conllu'), 'utf8')).to.equal(FIRST);
    // NAMES_CORPORA_DIR is the default data directory, as it is the first place training and the eval read.
    const envDir = join(scratch, 'data-env');
    const viaEnv = run(good, '', { NAMES_CORPORA_DIR: envDir });
    expect(viaEnv.status, String(viaEnv.stderr)).to.equal(0);
    expect(sha256(readFileSync(join(envDir, 'owner/corpus/data/de/train.conllu')))).to.equal(sha256(FIRST));
    const refused = run(bad, dir);
    expect(refused.status).to.equal(1);
    expect(refused.stderr).to.contain(`1 not materialised:\n  - owner/corpus/pinned-wrong: refused, github.com/owner/corpus ${second} data/de/train.conllu has SHA-256 ${sha256(SECOND)}`);
    expect(existsSync(join(dir, 'owner/corpus/pinned-wrong'))).to.equal(false);
  });
});
