import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { SHIPPED_NAME_MODEL_FILE } from '@gateway/privacy';
import { copyOfModel, corrupt } from '@gateway/privacy/test-support/model-files';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

/**
 * Another model, as training writes one: the shipped weights with a header naming a profile and its terms, and a
 * checksum note of its own (the header is rewritten in place; the weights stay the same gzipped bytes).
 */
function otherModel(info: Record<string, unknown>): { file: string; sha256: string } {
  const file = copyOfModel();
  const bytes = readFileSync(file);
  const eol = bytes.indexOf(0x0a, 6);
  const header = JSON.parse(bytes.subarray(6, eol).toString('utf8')) as { info: Record<string, unknown> };
  header.info = { ...header.info, ...info };
  const rewritten = Buffer.concat([bytes.subarray(0, 6), Buffer.from(JSON.stringify(header)), bytes.subarray(eol)]);
  const sha256 = createHash('sha256').update(rewritten).digest('hex');
  writeFileSync(file, rewritten);
  writeFileSync(file.replace(/\.bin$/, '.json'), JSON.stringify({ sha256 }));
  return { file, sha256 };
}

/** Starts the real proxy with `env` and returns its first log line whose msg is `msg`; the process is then stopped. */
async function firstLogLine(env: Record<string, string>, msg: string): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, PORT: '0', METRICS_PORT: '0', LOG_LEVEL: 'info', GATEWAY_DATA_DIR: mkdtempSync(join(tmpdir(), 'proxy-data-')), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  try {
    for await (const line of createInterface({ input: child.stdout })) {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if (parsed['msg'] === msg) return parsed;
    }
    throw new Error(`the proxy ended without logging "${msg}": ${stderr}`);
  } finally {
    child.kill('SIGKILL');
  }
}

describe('proxy: the person-name model at start', () => {
  it('loads the shipped model by default, the commercial profile, and states its digest, profile and terms', async () => {
    const line = await firstLogLine({}, 'person-name model loaded');
    expect(line).to.include({ names_model: SHIPPED_NAME_MODEL_FILE, names_model_sha256: createHash('sha256').update(readFileSync(SHIPPED_NAME_MODEL_FILE)).digest('hex') });
    expect(line).to.include({ level: 30, profile: 'commercial' });
    expect(line['terms']).to.match(/^commercial profile: commercial use allowed by every source/);
    expect(line['notice']).to.equal(join(dirname(SHIPPED_NAME_MODEL_FILE), 'NOTICE'));
  });

  it('loads a research model only where NAMES_MODEL names it, checked like the shipped one, and warns with its terms and NOTICE', async () => {
    const terms = 'research profile: NOT for commercial use (sources that refuse it: conll2003-en LicenseRef-Reuters-RCV1-research-agreement)';
    const { file, sha256 } = otherModel({ profile: 'research', terms });
    const notice = join(dirname(file), 'NOTICE');
    writeFileSync(notice, 'Profile: research\n');
    const line = await firstLogLine({ NAMES_MODEL: file }, 'person-name model loaded');
    expect(line).to.include({ level: 40, names_model: file, names_model_sha256: sha256, profile: 'research', terms, notice });
  });

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
        env: { PATH: process.env.PATH, PORT: '0', METRICS_PORT: '0', LOG_LEVEL: 'silent', NAMES_MODEL: file(), GATEWAY_DATA_DIR: mkdtempSync(join(tmpdir(), 'proxy-data-')) },
        encoding: 'utf8',
        timeout: 15_000,
      });
      expect(run.status).to.equal(1);
      expect(run.stderr).to.match(/^proxy cannot start: person-name model .*person-tagger\.bin/);
      expect(run.stderr).to.match(what === 'missing' ? /cannot be read \(ENOENT\)/ : /is corrupt/);
    });
  }
});
