import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SHIPPED_NAME_MODEL_FILE } from '@gateway/privacy';
import { loadPresidioCorpus } from './presidio-corpus.js';
import { runEval } from './run-eval.js';

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

  it('scores a second name model beside the shipped one on agent prompts and real text, checked against its note', async function () {
    this.timeout(300_000);
    const small = ['--presidio', file, '--size', '5', '--per-language', '5', '--agent-prompts', '2', '--lang', 'pl'];
    const report = await runEval([...small, '--compare-model', SHIPPED_NAME_MODEL_FILE]);
    // The same model twice: two column groups, the second labelled by the profile its note states, the same figures.
    expect(report).to.match(/^ +shipped \(commercial\) +commercial$/m);
    const row = /^pl kpwr-pl \(hand\) +\d+ +\d+ +((?:[\d.]+ ){3}[ \d.]+%) +((?:[\d.]+ ){3}[ \d.]+%)$/m.exec(report);
    expect(row, report).to.not.equal(null);
    expect(row?.[2]).to.equal(row?.[1]);
    expect(report).to.match(/^ {2}shipped \(commercial\): [\d.]+ false positives per 100 KB/m);
    expect(report).to.match(/^ {2}commercial: [\d.]+ false positives per 100 KB/m);
    // A model without its checksum note is refused, as the proxy refuses it.
    const bare = join(dir, 'bare.bin');
    await copyFile(SHIPPED_NAME_MODEL_FILE, bare);
    let refused: unknown;
    await runEval([...small, '--compare-model', bare]).catch((err: unknown) => (refused = err));
    expect(String(refused)).to.match(/checksum note .*bare\.json is missing/);
  });
});
