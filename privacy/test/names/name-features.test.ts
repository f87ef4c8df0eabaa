import { expect } from 'chai';
import { isScorable, TAG_B_PER, TAG_O } from '../../src/names/name-features.js';

// Which words the tagger scores at all: every other word is O whatever the model says.
describe('privacy: which words the name tagger scores', () => {
  const scorable = (sentence: string, word: number, prevTag = TAG_O): boolean => isScorable(sentence.split(' '), word, prevTag);

  it('scores an initial inside a name, and not a lower-case abbreviation', () => {
    expect(scorable('Charles M. Schulz drew it', 1, TAG_B_PER)).to.equal(true);
    expect(scorable('said J. H. Dekker', 1)).to.equal(true);
    expect(scorable('see p. Dekker', 1)).to.equal(false);
  });

  it('scores a particle that opens or continues a name, and not one before a lower-case word', () => {
    expect(scorable('gesprek met van Gogh', 2)).to.equal(true);
    expect(scorable('Alexander van der Bellen sprach', 1, TAG_B_PER)).to.equal(true);
    expect(scorable('Alexander van der Bellen sprach', 2, TAG_B_PER)).to.equal(true);
    expect(scorable('un libro de la Torre', 3)).to.equal(true);
    expect(scorable('la casa de la madre', 2)).to.equal(false);
    expect(scorable('van het plan', 0)).to.equal(false);
  });

  it('still leaves identifiers, constants and headings in capitals alone', () => {
    expect(scorable('new UserService ( )', 1)).to.equal(false);
    expect(scorable('MAX_RETRIES = 3', 0)).to.equal(false);
    expect(scorable('the SHEARER goal', 1)).to.equal(false);
    expect(scorable('Node20 runtime', 0)).to.equal(false);
  });
});
