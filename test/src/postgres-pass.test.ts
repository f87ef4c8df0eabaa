import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from './harness/gateway.js';

// The PostgreSQL pass names its files one by one; a renamed or deleted test would drop out of it silently
// (mocha only warns for a path that matches nothing).
describe('the PostgreSQL pass of npm test (test/postgres-pass.mocharc.yml)', function () {
  it('names only test files that exist, each with its source', function () {
    const config = parse(readFileSync(join(REPO_ROOT, 'test', 'postgres-pass.mocharc.yml'), 'utf8')) as { spec: string[] };
    expect(config.spec.length).to.be.greaterThan(10);
    for (const spec of config.spec) {
      const source = spec.replace(/^test\/dist\/src\//, 'test/src/').replace(/\.js$/, '.ts');
      expect(source, spec).to.match(/^test\/src\/.+\.test\.ts$/);
      expect(existsSync(join(REPO_ROOT, source)), source).to.equal(true);
    }
  });
});
