import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../harness/gateway.js';

/** The previous release, checked out from this repository's history and built, once per test run. */
export interface PreviousRelease {
  commit: string;
  /** its root: start its processes with startService(name, join(root, 'policy/dist/src/main.js'), env) */
  root: string;
}

let built: PreviousRelease | undefined;

/**
 * Extracts the commit named in test/previous-release.json (git archive) into a temp directory, links this
 * checkout's installed packages into it (its own workspaces are its own), and builds its shared, policy and proxy
 * packages with this checkout's TypeScript. Needs the repository's history (a clone has it).
 */
export function previousRelease(): PreviousRelease {
  if (built !== undefined) return built;
  const { commit } = JSON.parse(readFileSync(join(REPO_ROOT, 'test/previous-release.json'), 'utf8')) as { commit: string };
  const root = mkdtempSync(join(tmpdir(), 'gw-previous-'));
  try {
    execFileSync('sh', ['-c', `git -C "${REPO_ROOT}" archive --format=tar "${commit}" | tar -x -C "${root}"`], { stdio: 'pipe' });
  } catch (err) {
    throw new Error(`cannot check out the previous release ${commit} from the repository's history: ${String(err)}`);
  }
  const modules = join(root, 'node_modules');
  mkdirSync(join(modules, '@gateway'), { recursive: true });
  for (const name of readdirSync(join(REPO_ROOT, 'node_modules'))) {
    if (name === '@gateway' || name === '.package-lock.json') continue;
    symlinkSync(join(REPO_ROOT, 'node_modules', name), join(modules, name));
  }
  for (const ws of ['shared', 'policy', 'proxy', 'test']) {
    if (existsSync(join(root, ws))) symlinkSync(join(root, ws), join(modules, '@gateway', ws));
  }
  execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'shared', 'policy', 'proxy'], { cwd: root, stdio: 'pipe' });
  built = { commit, root };
  return built;
}
