import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceUnavailableError, createLogger, type UsageReport } from '@gateway/shared';
import { UsageSpool } from '../src/usage-spool.js';

const log = createLogger('test', 'silent');
const report = (id: string): UsageReport => ({
  request_id: id, decision_id: 'dec', key_id: 'key', account_id: 'acct', environment: 'live', model: 'alpha-sonnet-5',
  usage: { input_tokens: 1, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  lease_id: '', reserved_units: 0, outcome: 'ok', finished_unix_ms: 1,
  residency: 'uk', call_region: 'eu-west-2', processing_regions: ['eu-west-2'], evidence: null, platform: 'bedrock',
});

describe('usage spool', function () {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-spool-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps reports on disk until they are delivered, retrying the ones that fail', async function () {
    const spool = new UsageSpool(dir, log, 'a');
    for (const id of ['r1', 'r2', 'r3']) await spool.append(report(id));
    const seen: string[] = [];
    const first = await spool.replay(async (r) => {
      seen.push(r.request_id);
      if (r.request_id === 'r2') throw new ServiceUnavailableError('still down');
    });
    // a chunk of reports goes out at once; the one the policy service did not take is kept for the next replay
    expect(first).to.equal(2);
    expect(seen).to.deep.equal(['r1', 'r2', 'r3']);
    const again: string[] = [];
    expect(await spool.replay(async (r) => void again.push(r.request_id))).to.equal(1);
    expect(again).to.deep.equal(['r2']);
    expect(await spool.replay(async () => undefined)).to.equal(0);
  });

  it('sends a chunk of reports before any is answered, and stops after a chunk the policy service did not take', async function () {
    const spool = new UsageSpool(dir, log, 'k');
    for (let i = 0; i < 300; i += 1) await spool.append(report(`r${i}`));
    const sent: string[] = [];
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const replay = spool.replay(async (r) => {
      sent.push(r.request_id);
      await answered;
      throw new ServiceUnavailableError('still down');
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(sent, 'the first chunk is out before any answer').to.have.length(256);
    answer();
    expect(await replay).to.equal(0);
    expect(sent, 'nothing after the chunk that failed').to.have.length(256);
    expect(spool.waitingReports).to.equal(300);
    const again: string[] = [];
    expect(await spool.replay(async (r) => void again.push(r.request_id))).to.equal(300);
    expect(again).to.deep.equal(Array.from({ length: 300 }, (_, i) => `r${i}`));
  });

  it('sets aside a report refused for good, so it cannot block the ones behind it', async function () {
    const spool = new UsageSpool(dir, log, 'z');
    for (const id of ['a', 'bad', 'c']) await spool.append(report(id));
    const seen: string[] = [];
    expect(await spool.replay(async (r) => {
      if (r.request_id === 'bad') throw new Error('refused');
      seen.push(r.request_id);
    })).to.equal(2);
    expect(seen).to.deep.equal(['a', 'c']);
    expect(await spool.replay(async () => undefined)).to.equal(0);
    expect(readFileSync(join(dir, 'spool', 'rejected.jsonl'), 'utf8')).to.contain('"bad"');
  });

  it('adopts the spool of a proxy that died, and leaves a live one alone', async function () {
    const spoolDir = join(dir, 'spool');
    const other = new UsageSpool(dir, log, 'b');
    await other.append(report('mine'));
    // pid 2^22 + 1 is above Linux's pid_max default range: no such process
    writeFileSync(join(spoolDir, 'usage-4194305-dead.jsonl'), `${JSON.stringify(report('orphan'))}\n`);
    writeFileSync(join(spoolDir, `usage-1-init.jsonl`), `${JSON.stringify(report('pid1'))}\n`);
    const seen: string[] = [];
    await new UsageSpool(dir, log, 'c').replay(async (r) => void seen.push(r.request_id));
    // 'mine' belongs to this live process (same pid, other tag) only when the tag matches: it is not adopted
    expect(seen).to.deep.equal(['orphan']);
    expect(readdirSync(spoolDir).filter((n) => n.startsWith('usage-')).sort()).to.deep.equal(['usage-1-init.jsonl', `usage-${process.pid}-b.jsonl`]);
  });
});
