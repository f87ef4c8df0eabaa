import { expect } from 'chai';
import { ukPassportRecognizer } from '../../src/recognizers/uk-passport.js';
import { findValues } from './find-values.js';

describe('privacy/recognizers/uk-passport', () => {
  const find = (text: string): string[] => findValues(ukPassportRecognizer, text);

  it('finds nine digits after "passport"', () => {
    expect(find('Passport number: 925665416')).to.deep.equal(['925665416']);
    expect(find('my passport no. is 123456789.')).to.deep.equal(['123456789']);
  });

  it('ignores nine-digit ids without context and longer runs', () => {
    expect(find('Invoice 925665416')).to.deep.equal([]);
    expect(find('Passport number: 9256654161')).to.deep.equal([]);
  });
});
