import { expect } from 'chai';
import { bothInitialCases, wordAlternation } from '../src/word-alternation.js';

describe('privacy/word-alternation', () => {
  const whole = (words: string[]) => new RegExp(`^${wordAlternation(words)}$`);

  it('matches exactly the words given, shared prefixes and all', () => {
    const re = whole(['Mr', 'Mrs', 'Ms', 'M.', 'Mme', 'Best', 'Best regards', 'Beste']);
    for (const w of ['Mr', 'Mrs', 'Ms', 'M.', 'Mme', 'Best', 'Best regards', 'Beste']) expect(re.test(w), w).to.equal(true);
    for (const w of ['M', 'Mx', 'Mrss', 'MX', 'Bes', 'Best regard', 'M?']) expect(re.test(w), w).to.equal(false);
  });

  it('prefers the longest word at a shared prefix when not anchored', () => {
    expect(new RegExp(wordAlternation(['Best', 'Best regards'])).exec('Best regards, Tom')?.[0]).to.equal('Best regards');
    expect(new RegExp(wordAlternation(['Sig', 'Sig.ra'])).exec('Sig.ra Bianchi')?.[0]).to.equal('Sig.ra');
  });

  it('gives both initial cases, once for words without case', () => {
    expect(bothInitialCases(['Dear', 'ul.', '1st'])).to.deep.equal(['Dear', 'dear', 'Ul.', 'ul.', '1st']);
  });
});
