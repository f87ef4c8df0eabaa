// Puts the corpus files a manifest lists into a local data directory, each checked against its SHA-256 before it is
// written. The corpora are not committed here (what a fetch of a public repository brings stays out of this
// repository's tree): a developer materialises them from git mirrors of the repositories (the layout the snapshot
// tool makes: <mirrors>/<owner>+<name>/repo, a git directory) or, with network access, from GitHub's raw files.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CorpusFile } from './manifest.js';

/** Where a file's bytes come from. */
export type FileReader = (file: CorpusFile) => Promise<Buffer>;

export interface MaterialiseResult {
  /** Files written now, by their local path. */
  readonly written: string[];
  /** Files already in the directory with the manifest's SHA-256, left as they were. */
  readonly present: string[];
  /** One line per file not materialised: unreadable, or bytes other than the manifest's (nothing written then). */
  readonly problems: string[];
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** `github.com/<owner>/<name>` as [owner, name]; anything else is refused, since no mirror or URL could be named. */
export function githubRepository(repository: string): [string, string] {
  const m = /^github\.com\/([A-Za-z0-9][A-Za-z0-9_.-]*)\/([A-Za-z0-9][A-Za-z0-9_.-]*)$/.exec(repository);
  if (m === null) throw new Error(`${repository}: not a github.com/<owner>/<name> repository`);
  return [m[1] as string, m[2] as string];
}

/** The raw file at the pinned commit: https://raw.githubusercontent.com/<owner>/<name>/<commit>/<path>. */
export function rawFileUrl(file: CorpusFile, base = 'https://raw.githubusercontent.com'): string {
  const [owner, name] = githubRepository(file.repository);
  return `${base}/${owner}/${name}/${file.commit}/${file.path.split('/').map(encodeURIComponent).join('/')}`;
}

/** The git directory of a repository's mirror: <mirrors>/<owner>+<name>/repo (or its .git, for a clone with a work tree). */
export function mirrorGitDir(mirrors: string, repository: string): string {
  const [owner, name] = githubRepository(repository);
  const repo = join(mirrors, `${owner}+${name}`, 'repo');
  return existsSync(join(repo, '.git')) ? join(repo, '.git') : repo;
}

/** Reads each file at its pinned commit from a directory of git mirrors. */
export function fromGitMirrors(mirrors: string): FileReader {
  return async (file) => {
    const gitDir = mirrorGitDir(mirrors, file.repository);
    if (!existsSync(gitDir)) throw new Error(`no mirror of ${file.repository} at ${gitDir}`);
    // cat-file, not show: the blob's bytes exactly, with no text conversion a git configuration might add.
    return execFileSync('git', ['--git-dir', gitDir, 'cat-file', 'blob', `${file.commit}:${file.path}`], {
      maxBuffer: 1 << 30,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  };
}

/** Reads each file at its pinned commit over HTTPS (GitHub's raw files, or `base` serving the same layout). */
export function fromWeb(base?: string): FileReader {
  return async (file) => {
    const url = rawFileUrl(file, base);
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return Buffer.from(await response.arrayBuffer());
  };
}

/**
 * Writes every file of `files` to `dir`/<local>, unless a file is there already with the manifest's SHA-256.
 * Bytes whose SHA-256 differs from the manifest's are refused: nothing is written for that file. A file already
 * in the directory with other bytes is left alone and reported (it may be someone's own edit; delete it to refetch).
 */
export async function materialise(files: readonly CorpusFile[], dir: string, read: FileReader): Promise<MaterialiseResult> {
  const written: string[] = [];
  const present: string[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    if (seen.has(file.local)) continue;
    seen.add(file.local);
    const target = join(dir, file.local);
    if (existsSync(target)) {
      const sum = sha256(readFileSync(target));
      if (sum === file.sha256) present.push(file.local);
      else problems.push(`${file.local}: already in ${dir} with SHA-256 ${sum}, the manifest says ${file.sha256}; left as it is`);
      continue;
    }
    let bytes: Buffer;
    try {
      bytes = await read(file);
    } catch (e) {
      problems.push(`${file.local}: ${file.repository} ${file.commit} ${file.path} not read (${(e as Error).message.trim().split('\n')[0]})`);
      continue;
    }
    const sum = sha256(bytes);
    if (sum !== file.sha256) {
      problems.push(`${file.local}: refused, ${file.repository} ${file.commit} ${file.path} has SHA-256 ${sum}, the manifest says ${file.sha256}`);
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    // Written beside and renamed: an interrupted run leaves no half file that a later run would take as present.
    writeFileSync(`${target}.part`, bytes);
    renameSync(`${target}.part`, target);
    written.push(file.local);
  }
  return { written, present, problems };
}
