import { expect } from 'chai';
import { execFile, execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { REPO_ROOT } from './harness/gateway.js';

// privacy/src/recognizers/person-names.generated.ts is generated from @faker-js/faker's locales and sorted
// with Debian's word lists (npm run gen:names), and checked in; CI fails on a stale file (this test), so a change
// to the generator or to faker's version cannot land without the lists the detector really uses.
const DICTIONARIES: ReadonlyArray<[file: string, pkg: string]> = [
  ['british-english', 'wbritish'],
  ['ngerman', 'wngerman'],
  ['french', 'wfrench'],
  ['spanish', 'wspanish'],
  ['italian', 'witalian'],
  ['polish', 'wpolish'],
  ['dutch', 'wdutch'],
];

/** Installs Debian's word lists the generator reads when absent (CI runs as root on a fresh machine). */
function ensureDictionaries(): void {
  const missing = DICTIONARIES.filter(([file]) => !existsSync(`/usr/share/dict/${file}`)).map(([, pkg]) => pkg);
  if (missing.length === 0) return;
  execSync(`apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y ${missing.join(' ')}`, { stdio: 'inherit' });
}

describe('PERSON name lists generated from faker and Debian word lists', function () {
  this.timeout(300_000);

  it('are up to date with their generator (npm run gen:names -- --check)', async function () {
    ensureDictionaries();
    const r = await new Promise<{ code: number; out: string }>((resolve) => {
      execFile(process.execPath, ['privacy/scripts/generate-person-names.mjs', '--check'], { cwd: REPO_ROOT }, (err, stdout, stderr) => {
        resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, out: stdout + stderr });
      });
    });
    expect(r.code, r.out).to.equal(0);
  });
});
