import { expect } from 'chai';
import { ukNinoRecognizer } from '../../src/recognizers/uk-nino.js';
import { findValues } from './find-values.js';

describe('privacy/recognizers/uk-nino', () => {
  const find = (text: string): string[] => findValues(ukNinoRecognizer, text);

  it('finds compact, spaced and dashed forms', () => {
    expect(find('NI number: AB123456C')).to.deep.equal(['AB123456C']);
    expect(find('NINO AB 12 34 56 C.')).to.deep.equal(['AB 12 34 56 C']);
    expect(find('JG 103759 A')).to.deep.equal(['JG 103759 A']);
    expect(find('ce-12-34-56-d')).to.deep.equal([]);
  });

  it('accepts lower case only after NI context', () => {
    expect(find('national insurance ab 12 34 56 c')).to.deep.equal(['ab 12 34 56 c']);
    expect(find('product ab 12 34 56 c')).to.deep.equal([]);
  });

  it('rejects unallocated prefixes, letters and suffixes', () => {
    expect(find('QQ123456C')).to.deep.equal([]); // Q is never a first letter (HMRC's placeholder)
    expect(find('BG123456A GB123456A NK123456A TN123456A ZZ123456A')).to.deep.equal([]);
    expect(find('AO123456A')).to.deep.equal([]); // O is never a second letter
    expect(find('AB123456E')).to.deep.equal([]); // suffix is A-D
    expect(find('AB123456')).to.deep.equal([]); // no suffix: product-code shape
    expect(find('XAB123456C')).to.deep.equal([]);
  });
});
