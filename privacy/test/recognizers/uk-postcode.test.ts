import { expect } from 'chai';
import { ukPostcodeRecognizer } from '../../src/recognizers/uk-postcode.js';
import { findValues } from './find-values.js';

describe('privacy/recognizers/uk-postcode', () => {
  const find = (text: string): string[] => findValues(ukPostcodeRecognizer, text);

  it('finds every outward-code shape', () => {
    for (const pc of ['SW1A 1AA', 'EC1A 1BB', 'W1A 0AX', 'M1 1AE', 'B33 8TH', 'CR2 6XH', 'DN55 1PT', 'N1C 4QP', 'SW1A1AA']) {
      expect(find(`10 Some Road, London ${pc}.`), pc).to.deep.equal([pc]);
    }
  });

  it('accepts lower case with a space, or compact after the word postcode', () => {
    expect(find('ship to sw1a 1aa pls')).to.deep.equal(['sw1a 1aa']);
    expect(find('my postcode is nw16xe')).to.deep.equal(['nw16xe']);
    expect(find('code nw16xe')).to.deep.equal([]);
  });

  it('rejects unknown areas, invalid letters and look-alikes', () => {
    expect(find('QQ1 1AA')).to.deep.equal([]); // no QQ area
    expect(find('A1 2BC')).to.deep.equal([]); // no A area
    expect(find('SW1A 1CA')).to.deep.equal([]); // C is never an inward letter
    expect(find('SW1C 1AA')).to.deep.equal([]); // C is not a district suffix of a two-letter area
    expect(find('A4 paper, the M25, CO2 levels, room E12 3rd floor')).to.deep.equal([]);
    expect(find('XSW1A 1AA')).to.deep.equal([]);
  });
});
