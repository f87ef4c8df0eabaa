import { expect } from 'chai';
import { frNirRecognizer, isValidNir } from '../../src/recognizers/fr-nir.js';
import { findValues } from './find-values.js';

describe('privacy/recognizers/fr-nir', () => {
  const find = (text: string): string[] => findValues(frNirRecognizer, text);

  it('checks the mod 97 key', () => {
    expect(isValidNir('2', '55', '08', '14', '168025', '38')).to.equal(true);
    expect(isValidNir('2', '55', '08', '14', '168025', '39')).to.equal(false);
    expect(isValidNir('2', '55', '13', '14', '168025', '38')).to.equal(false); // month 13
  });

  it('finds compact and printed forms', () => {
    expect(find('Numéro de sécurité sociale 2 55 08 14 168 025 38')).to.deep.equal(['2 55 08 14 168 025 38']);
    expect(find('NIR 255081416802538.')).to.deep.equal(['255081416802538']);
  });

  it('rejects a wrong key and a longer run', () => {
    expect(find('255081416802539 and 3255081416802538')).to.deep.equal([]);
  });
});
