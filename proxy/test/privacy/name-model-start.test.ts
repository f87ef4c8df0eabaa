import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { SHIPPED_NAME_MODEL_FILE } from '@gateway/privacy';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

/** A copy of the shipped model and its checksum note in a fresh directory. */
function copyOfModel(): string {
  const dir = mkdtempSync(join(tmpdir(), 'name-model-'));
  const file = join(dir, 'person-tagger.bin');
  copyFileSync(SHIPPED_NAME_MODEL_FILE, file);
  copyFileSync(SHIPPED_NAME_MODEL_FILE.replace(/\.bin$/, '.json'), file.replace(/\.bin$/, '.json'));
  return file;
}

function corrupt(file: string): void {
  const bytes = readFileSync(file);
  bytes[bytes.length - 100] = (bytes[bytes.length - 100] as number) ^ 0xff;
  writeFileSync(file, bytes);
}

describe('proxy: the person-name model at start', () => {
  // The real proxy process: it must stop at start, before listening, rather than serve with weaker privacy.
  for (const [what, file] of [
    ['missing', () => join(tmpdir(), 'no-such-dir', 'person-tagger.bin')],
    ['corrupt', () => {
      const f = copyOfModel();
      corrupt(f);
      return f;
    }],
  ] as const) {
    it(`stops the proxy at start when the model file is ${what}`, () => {
      const run = spawnSync(process.execPath, [MAIN], {
        env: { PATH: process.env.PATH, PORT: '0', METRICS_PORT: '0', LOG_LEVEL: 'silent', PERSON_MODEL_FILE: file(), GATEWAY_DATA_DIR: mkdtempSync(join(tmpdir(), 'proxy-data-')) },
        encoding: 'utf8',
        timeout: 15_000,
      });
      expect(run.status).to.equal(1);
      expect(run.stderr).to.match(/^proxy cannot start: person-name model .*person-tagger\.bin/);
      expect(run.stderr).to.match(what === 'missing' ? /cannot be read \(ENOENT\)/ : /is corrupt/);
    });
  }
});
