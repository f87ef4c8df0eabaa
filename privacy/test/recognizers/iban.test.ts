import { expect } from 'chai';
import { ibanRecognizer } from '../../src/recognizers/iban.js';
import { findValues } from './find-values.js';

describe('privacy/recognizers/iban', () => {
  const find = (text: string): string[] => findValues(ibanRecognizer, text);

  it('finds valid IBANs of several countries, compact and grouped', () => {
    for (const iban of [
      'GB82 WEST 1234 5698 7654 32',
      'GB82WEST12345698765432',
      'DE89 3704 0044 0532 0130 00',
      'FR14 2004 1010 0505 0001 3M02 606',
      'ES91 2100 0418 4502 0005 1332',
      'NL91 ABNA 0417 1643 00',
      'IT60 X054 2811 1010 0000 0123 456',
      'IE29 AIBK 9311 5212 3456 78',
      'PL61 1090 1014 0000 0712 1981 2874',
      'BE68 5390 0754 7034',
    ]) {
      expect(find(`IBAN: ${iban}.`), iban).to.deep.equal([iban]);
    }
  });

  it('accepts lower case', () => {
    expect(find('my iban is gb82west12345698765432')).to.deep.equal(['gb82west12345698765432']);
  });

  it('cuts the span at the country length when a word follows', () => {
    expect(find('GB82 WEST 1234 5698 7654 32 THEN more')).to.deep.equal(['GB82 WEST 1234 5698 7654 32']);
  });

  it('rejects a wrong check, a wrong country format and look-alikes', () => {
    expect(find('GB00 WEST 1234 5698 7654 32')).to.deep.equal([]);
    expect(find('GB82 WEST 1234 5698 7654 33')).to.deep.equal([]);
    expect(find('XX82WEST12345698765432')).to.deep.equal([]);
    expect(find('GB82 1234 1234 5698 7654 32')).to.deep.equal([]); // GB needs a 4-letter bank code
    expect(find('VAT GB123456789 and SKU AB12CDEF3456GHIJ')).to.deep.equal([]);
  });
});
