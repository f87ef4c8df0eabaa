import { expect } from 'chai';
import { deTaxIdRecognizer, isValidDeTaxId } from '../../src/recognizers/de-tax-id.js';
import { findValues } from './find-values.js';

describe('privacy/recognizers/de-tax-id', () => {
  const find = (text: string): string[] => findValues(deTaxIdRecognizer, text);

  it('checks the digit distribution and the ISO 7064 check digit', () => {
    expect(isValidDeTaxId('86095742719')).to.equal(true);
    expect(isValidDeTaxId('86095742718')).to.equal(false);
    expect(isValidDeTaxId('06095742719')).to.equal(false); // leading zero
    expect(isValidDeTaxId('12345678901')).to.equal(false); // no repeated digit
  });

  it('finds a tax id after Steuer-ID context only', () => {
    expect(find('Steuer-ID 86095742719')).to.deep.equal(['86095742719']);
    expect(find('Steuerliche Identifikationsnummer: 86 095 742 719')).to.deep.equal(['86 095 742 719']);
    expect(find('Order 86095742719')).to.deep.equal([]);
  });
});
