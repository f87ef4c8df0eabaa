import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './harness/gateway.js';

const run = (cwd: string, args: string[]): Promise<{ code: number; out: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, ['proto/generate-types.mjs', ...args], { cwd }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, out: stdout + stderr });
    });
  });

// The wire types in shared/src/generated are generated from proto/policy.proto and checked in; CI fails on a
// stale file (this test), so the proto stays the one source of truth for the seam.
describe('wire types generated from proto/policy.proto', function () {
  this.timeout(30_000);

  it('are up to date with the proto', async function () {
    const r = await run(REPO_ROOT, ['--check']);
    expect(r.code, r.out).to.equal(0);
  });

  it('the check fails on a stale file and on a proto change that was not regenerated', async function () {
    const copy = mkdtempSync(join(tmpdir(), 'gw-proto-'));
    try {
      for (const dir of ['proto', 'shared/src/generated', 'shared/package.json']) cpSync(join(REPO_ROOT, dir), join(copy, dir), { recursive: true });
      symlinkSync(join(REPO_ROOT, 'node_modules'), join(copy, 'node_modules'));
      expect((await run(copy, ['--check'])).code).to.equal(0);
      const proto = join(copy, 'proto/policy.proto');
      writeFileSync(proto, readFileSync(proto, 'utf8').replace('string should_retry = 5;', 'string should_retry = 5;\n  string hint = 7;'));
      const stale = await run(copy, ['--check']);
      expect(stale.code).to.equal(1);
      expect(stale.out).to.contain('Denial.ts');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
