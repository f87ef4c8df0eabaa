import { expect } from 'chai';
import { generateUkEuSet } from './generate-uk-eu-set.js';
import { CORE_PII_TYPES } from '@gateway/privacy';

describe('privacy/eval/generate-uk-eu-set', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    expect(generateUkEuSet(1, 50)).to.deep.equal(generateUkEuSet(1, 50));
    expect(generateUkEuSet(1, 50)).to.not.deep.equal(generateUkEuSet(2, 50));
  });

  it('labels spans inside the text, without overlaps, for every core type', () => {
    const set = generateUkEuSet(3, 1500);
    const seen = new Set<string>();
    let unlabelled = 0;
    for (const sample of set) {
      if (sample.spans.length === 0) unlabelled++;
      const spans = [...sample.spans].sort((a, b) => a.start - b.start);
      for (let i = 0; i < spans.length; i++) {
        const s = spans[i];
        if (s === undefined) continue;
        seen.add(s.type);
        expect(s.start).to.be.at.least(0);
        expect(s.end).to.be.at.most(sample.text.length);
        expect(sample.text.slice(s.start, s.end).trim()).to.equal(sample.text.slice(s.start, s.end));
        if (i > 0) expect(s.start).to.be.at.least(spans[i - 1]?.end ?? 0);
      }
    }
    for (const t of CORE_PII_TYPES) expect(seen.has(t), t).to.equal(true);
    // Hard negatives make up a good part of the set.
    expect(unlabelled).to.be.greaterThan(100);
  });
});
