import { expect } from 'chai';
import { digitWindows } from '@gateway/privacy/internals';
import { generateUkEuSet } from './generate-uk-eu-set.js';
import { detect } from '@gateway/privacy';

describe('privacy/digit-windows', () => {
  it('is null without digits and the whole text when digits are dense', () => {
    expect(digitWindows('no digits here')).to.equal(null);
    const dense = 'a1 '.repeat(100);
    expect(digitWindows(dense)?.text).to.equal(dense);
  });

  it('maps candidates back to the original text and drops ones that cross a join', () => {
    const filler = 'x'.repeat(300);
    const text = `${filler} call 020 7946 0958 ${filler} id 42 ${filler}`;
    const w = digitWindows(text);
    expect(w).to.not.equal(null);
    if (w === null) return;
    expect(w.text.length).to.be.lessThan(text.length);
    const at = w.text.indexOf('020 7946 0958');
    const c = w.toOriginal({ type: 'PHONE', start: at, end: at + 13, rank: 1 });
    expect(c === null ? '' : text.slice(c.start, c.end)).to.equal('020 7946 0958');
    const join = w.text.indexOf('\n\n');
    expect(w.toOriginal({ type: 'PHONE', start: join - 2, end: join + 4, rank: 1 })).to.equal(null);
  });

  it('finds in a long text exactly what it finds in each of its parts', () => {
    // Parts separated by long digit-free prose, so the long text is scanned through windows.
    const filler = ' Nothing personal is written in this sentence, which only pads the text out a little. '.repeat(3);
    const samples = generateUkEuSet(9, 400).map((s) => s.text);
    let long = '';
    const expected: string[] = [];
    for (const sample of samples) {
      for (const f of detect(sample)) expected.push(`${f.type}@${long.length + f.start}:${f.value}`);
      long += sample + filler;
    }
    expect(digitWindows(long)?.text.length).to.be.lessThan(long.length);
    const actual = detect(long).map((f) => `${f.type}@${f.start}:${f.value}`);
    expect(actual).to.deep.equal(expected);
  });
});
