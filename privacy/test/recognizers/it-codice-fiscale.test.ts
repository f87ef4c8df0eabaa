import { expect } from 'chai';
import { isValidCodiceFiscale, itCodiceFiscaleRecognizer } from '../../src/recognizers/it-codice-fiscale.js';
import { findValues } from './find-values.js';

describe('privacy/recognizers/it-codice-fiscale', () => {
  const find = (text: string): string[] => findValues(itCodiceFiscaleRecognizer, text);

  it('checks the check letter and the day field', () => {
    expect(isValidCodiceFiscale('RSSMRA85T10A562S')).to.equal(true);
    expect(isValidCodiceFiscale('RSSMRA85T10A562T')).to.equal(false);
  });

  it('finds codes, including omocodic ones', () => {
    expect(find('Codice fiscale: RSSMRA85T10A562S.')).to.deep.equal(['RSSMRA85T10A562S']);
    expect(find('CF RSSMRA85T10A56NH')).to.deep.equal(['RSSMRA85T10A56NH']);
  });

  it('rejects a wrong check letter and an impossible month letter', () => {
    expect(find('RSSMRA85T10A562T and RSSMRA85Z10A562S')).to.deep.equal([]);
  });
});
