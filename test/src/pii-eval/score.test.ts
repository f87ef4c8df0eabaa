import { expect } from 'chai';
import type { Finding } from '@gateway/privacy';
import { emptyScores, metricsOf, scoreText } from './score.js';
import type { GoldSpan } from './labelled-text.js';

const f = (type: Finding['type'], start: number, end: number): Finding => ({ type, start, end, value: '' });

describe('privacy/eval/score', () => {
  it('matches overlapping spans of the same type one to one, counting exact matches apart', () => {
    const scores = emptyScores(['EMAIL', 'PHONE']);
    const gold: GoldSpan[] = [
      { type: 'EMAIL', start: 0, end: 10 },
      { type: 'PHONE', start: 20, end: 30 },
      { type: 'PHONE', start: 40, end: 50 },
    ];
    const errors = scoreText(gold, [f('EMAIL', 0, 10), f('PHONE', 22, 30), f('PHONE', 24, 28), f('EMAIL', 40, 50)], scores);
    expect(scores.get('EMAIL')).to.deep.equal({ tp: 1, fp: 1, fn: 0, exactTp: 1 });
    expect(scores.get('PHONE')).to.deep.equal({ tp: 1, fp: 1, fn: 1, exactTp: 0 });
    expect(errors.map((e) => `${e.kind}:${e.type}:${e.start}`)).to.deep.equal(['fp:PHONE:24', 'fp:EMAIL:40', 'fn:PHONE:40']);
  });

  it('ignores types it does not score', () => {
    const scores = emptyScores(['EMAIL']);
    scoreText([{ type: 'CARD', start: 0, end: 5 }], [f('PHONE', 0, 5)], scores);
    expect(scores.get('EMAIL')).to.deep.equal({ tp: 0, fp: 0, fn: 0, exactTp: 0 });
  });

  it('computes precision, recall and F1, and n/a when undefined', () => {
    const m = metricsOf({ tp: 8, fp: 2, fn: 0, exactTp: 4 });
    expect(m.precision).to.equal(0.8);
    expect(m.recall).to.equal(1);
    expect(m.f1).to.be.closeTo(8 / 9, 1e-12);
    expect(m.exactF1).to.be.closeTo((2 * 0.4 * 0.5) / 0.9, 1e-12);
    expect(metricsOf({ tp: 0, fp: 0, fn: 0, exactTp: 0 })).to.deep.equal({ precision: null, recall: null, f1: null, exactF1: null });
  });
});
