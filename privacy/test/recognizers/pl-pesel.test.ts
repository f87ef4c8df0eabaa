import { expect } from 'chai';
import { isValidPesel, plPeselRecognizer } from '../../src/recognizers/pl-pesel.js';
import { findValues } from './find-values.js';

describe('privacy/recognizers/pl-pesel', () => {
  const find = (text: string): string[] => findValues(plPeselRecognizer, text);

  it('checks the weighted check digit and the encoded birth date', () => {
    expect(isValidPesel('44051401359')).to.equal(true);
    expect(isValidPesel('02270803624')).to.equal(true); // born 2002 (month + 20)
    expect(isValidPesel('44051401358')).to.equal(false);
    expect(isValidPesel('44001401350')).to.equal(false); // month 00
  });

  it('finds a PESEL after its name only', () => {
    expect(find('PESEL: 44051401359')).to.deep.equal(['44051401359']);
    expect(find('phone 44051401359')).to.deep.equal([]);
  });
});
