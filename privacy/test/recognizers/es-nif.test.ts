import { expect } from 'chai';
import { esNifRecognizer, nifLetter } from '../../src/recognizers/es-nif.js';
import { findValues } from './find-values.js';

describe('privacy/recognizers/es-nif', () => {
  const find = (text: string): string[] => findValues(esNifRecognizer, text);

  it('computes the control letter', () => {
    expect(nifLetter(12345678)).to.equal('Z');
    expect(nifLetter(1234567)).to.equal('L');
  });

  it('finds DNI/NIF and NIE numbers with a valid letter', () => {
    expect(find('DNI 12345678Z')).to.deep.equal(['12345678Z']);
    expect(find('NIF: 12345678-Z')).to.deep.equal(['12345678-Z']);
    expect(find('NIE X1234567L')).to.deep.equal(['X1234567L']);
  });

  it('rejects a wrong letter and longer tokens', () => {
    expect(find('DNI 12345678A, NIE X1234567A')).to.deep.equal([]);
    expect(find('REF-12345678Z and 112345678Z')).to.deep.equal([]);
  });
});
