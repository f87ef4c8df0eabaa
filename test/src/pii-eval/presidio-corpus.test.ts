import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHIPPED_NAME_MODEL_FILE } from '@gateway/privacy';
import { loadPresidioCorpus } from './presidio-corpus.js';
import { runEval } from './run-eval.js';

// Where npm run corpora:names materialises the name corpora by default (this file is test/dist/src/pii-eval/…).
const LOCAL_NAMES_CORPORA = fileURLToPath(new URL('../../../../names-model/corpora', import.meta.url));

describe('privacy/eval/presidio-corpus', () => {
  let dir = '';
  let file = '';

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'presidio-'));
    file = join(dir, 'synth.json');
    const text = 'Mail UtaKortig@jourrapide.com or call 905-674-3793, Persint';
    await writeFile(
      file,
      JSON.stringify([
        {
          full_text: text,
          masked: '',
          spans: [
            { entity_type: 'EMAIL_ADDRESS', entity_value: 'UtaKortig@jourrapide.com', start_position: 5, end_position: 29 },
            { entity_type: 'PHONE_NUMBER', entity_value: '905-674-3793', start_position: 38, end_position: 50 },
            { entity_type: 'ORGANIZATION', entity_value: 'Persint', start_position: 52, end_position: 59 },
          ],
          template_id: 1,
          metadata: null,
        },
      ]),
    );
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('maps presidio labels to ours and drops the others', async () => {
    const [sample] = await loadPresidioCorpus(file);
    expect(sample?.spans).to.deep.equal([
      { type: 'EMAIL', start: 5, end: 29 },
      { type: 'PHONE', start: 38, end: 50 },
    ]);
  });

  it('runs the whole evaluation and reports both corpora', async () => {
    const report = await runEval(['--presidio', file, '--size', '40', '--seed', '5']);
    expect(report).to.match(/presidio-research synth_dataset_v2: 1 texts/);
    expect(report).to.match(/^EMAIL\s+1\s+1\s+1\s+0\s+0\s+1\.000\s+1\.000/m);
    expect(report).to.match(/generated UK\/EU set \(seed 5\): 40 texts/);
  });

  // Real text from a corpus written here (CI has no corpora): 200 invented Polish sentences, of which the seeded
  // split holds out a tenth, scored by the same model twice.
  async function inventedCorpus(): Promise<{ manifest: string; corpora: string }> {
    const corpora = join(dir, 'corpora');
    const rows: string[] = [];
    const people = ['Anna Nowak', 'Piotr Zieliński', 'Maria Wójcik', 'Tomasz Lewandowski'];
    for (let i = 0; i < 200; i++) {
      const [given, family] = (people[i % people.length] as string).split(' ') as [string, string];
      const words: [string, string][] = [[given, 'B-PER'], [family, 'I-PER'], ['mieszka', 'O'], ['w', 'O'], ['Krakowie', 'B-LOC'], ['od', 'O'], [String(1990 + (i % 30)), 'O'], ['.', 'O']];
      rows.push(...words.map(([w, t], k) => `${k}\t${w}\t${t}`), '');
    }
    await mkdir(join(corpora, 'invented/pl'), { recursive: true });
    const text = `${rows.join('\n')}\n`;
    await writeFile(join(corpora, 'invented/pl/train.conllu'), text);
    const manifest = join(dir, 'names-manifest.json');
    await writeFile(
      manifest,
      JSON.stringify({
        seed: 3,
        buckets: 1024,
        maxEpochs: 1,
        sources: [
          {
            id: 'invented-pl',
            name: 'invented Polish sentences',
            licence: 'invented test rows',
            spdx: 'LicenseRef-test',
            commercialUse: true,
            licenceCheck: 'test',
            obligations: { attribution: null, shareAlike: false },
            format: 'conll-indexed',
            files: [{ local: 'invented/pl/train.conllu', repository: 'this test', path: 'train.conllu', commit: '-', role: 'train', language: 'pl', sha256: createHash('sha256').update(text).digest('hex') }],
          },
        ],
        model: { file: 'x.bin', profile: 'commercial', sha256: '0'.repeat(64), sources: ['invented-pl'] },
      }),
    );
    return { manifest, corpora };
  }

  it('scores a second name model beside the shipped one on agent prompts and real text, checked against its note', async function () {
    this.timeout(300_000);
    const { manifest, corpora } = await inventedCorpus();
    const small = ['--presidio', file, '--size', '5', '--per-language', '5', '--agent-prompts', '2', '--lang', 'pl', '--names-manifest', manifest, '--corpora', corpora];
    const report = await runEval([...small, '--compare-model', SHIPPED_NAME_MODEL_FILE]);
    // The same model twice: two column groups, the second labelled by the profile its note states, the same figures.
    expect(report).to.match(/^ +shipped \(commercial\) +commercial$/m);
    const row = /^pl invented-pl \(hand\) +(\d+) +(\d+) +((?:[\d.]+ ){3}[ \d.]+%) +((?:[\d.]+ ){3}[ \d.]+%)$/m.exec(report);
    expect(row, report).to.not.equal(null);
    expect(Number(row?.[1])).to.be.within(8, 40);
    expect(Number(row?.[2])).to.equal(Number(row?.[1]));
    expect(row?.[4]).to.equal(row?.[3]);
    expect(report).to.match(/^ {2}shipped \(commercial\): [\d.]+ false positives per 100 KB/m);
    expect(report).to.match(/^ {2}commercial: [\d.]+ false positives per 100 KB/m);
    // A model without its checksum note is refused, as the proxy refuses it.
    const bare = join(dir, 'bare.bin');
    await copyFile(SHIPPED_NAME_MODEL_FILE, bare);
    let refused: unknown;
    await runEval([...small, '--compare-model', bare]).catch((err: unknown) => (refused = err));
    expect(String(refused)).to.match(/checksum note .*bare\.json is missing/);
  });

  it('scores the second model beside the shipped one on the real held-out text (real data: runs where kpwr-pl is materialised in names-model/corpora or NAMES_CORPORA_DIR)', async function () {
    this.timeout(300_000);
    const kpwr = 'wronaq/polish-ner/data/preprocessed/train.txt';
    const dirs = [process.env.NAMES_CORPORA_DIR ?? '', LOCAL_NAMES_CORPORA].filter((d) => d !== '');
    if (!dirs.some((d) => existsSync(join(d, kpwr)))) this.skip();
    const small = ['--presidio', file, '--size', '5', '--per-language', '5', '--agent-prompts', '2', '--lang', 'pl'];
    const report = await runEval([...small, '--compare-model', SHIPPED_NAME_MODEL_FILE]);
    expect(report).to.match(/^ +shipped \(commercial\) +commercial$/m);
    const row = /^pl kpwr-pl \(hand\) +\d+ +\d+ +((?:[\d.]+ ){3}[ \d.]+%) +((?:[\d.]+ ){3}[ \d.]+%)$/m.exec(report);
    expect(row, report).to.not.equal(null);
    expect(row?.[2]).to.equal(row?.[1]);
  });
});
