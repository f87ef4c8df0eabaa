import { expect } from 'chai';
import {
  PACKAGE_COMMON_WORD_GIVEN_NAMES,
  PACKAGE_COMMON_WORD_SURNAMES,
  PACKAGE_GIVEN_NAMES,
  PACKAGE_SURNAMES,
  PACKAGE_WORD_LIKE_GIVEN_NAMES,
} from '../../src/recognizers/person-names.generated.js';
import { TITLES } from '../../src/recognizers/person-words.js';

// The generated name lists (npm run gen:names needs Debian's word lists, so CI checks what it can without them).
const words = (list: string): string[] => list.split(/\s+/).filter((w) => w !== '');

describe('privacy/recognizers/person-names.generated', () => {
  const given = words(PACKAGE_GIVEN_NAMES);
  const wordLike = words(PACKAGE_WORD_LIKE_GIVEN_NAMES);
  const commonGiven = words(PACKAGE_COMMON_WORD_GIVEN_NAMES);
  const surnames = words(PACKAGE_SURNAMES);
  const commonSurnames = words(PACKAGE_COMMON_WORD_SURNAMES);

  it('holds thousands of names, each one capitalised word the recognizer can match, sorted and unique', () => {
    expect(given.length).to.be.greaterThan(10_000);
    expect(surnames.length).to.be.greaterThan(8_000);
    const nameWord = /^(?:O['’]|Mc|D['’])?[A-ZÀ-ÖØ-ÞĀ-Ž][a-zß-öø-ÿā-ž'’]{1,24}(?:-[A-ZÀ-ÖØ-ÞĀ-Ž][a-zß-öø-ÿā-ž'’]{1,24})?$/;
    for (const list of [given, commonGiven, surnames, commonSurnames]) {
      expect(list.filter((w) => !nameWord.test(w))).to.deep.equal([]);
      expect(new Set(list).size).to.equal(list.length);
      expect([...list].sort()).to.deep.equal(list);
    }
  });

  it('sorts names from common words: the splits are disjoint and the word-like names are a subset', () => {
    const givenSet = new Set(given);
    expect(commonGiven.filter((w) => givenSet.has(w))).to.deep.equal([]);
    expect(wordLike.filter((w) => !givenSet.has(w))).to.deep.equal([]);
    const surnameSet = new Set(surnames);
    expect(commonSurnames.filter((w) => surnameSet.has(w))).to.deep.equal([]);
    // Words everyone knows are common land on the common side.
    for (const w of ['Grace', 'Will', 'Rosa', 'Amber']) expect(commonGiven, w).to.include(w);
    expect(wordLike).to.include('Pilar'); // a word in Spanish only: a name with a surname, not alone
    for (const w of ['Koch', 'Blanco', 'Young']) expect(commonSurnames, w).to.include(w);
  });

  it('keeps names that are also towns, next to another name, and does not take names in the German list for nouns', () => {
    // American, Canadian and Slovak towns in faker's lists: names with another name, never alone ("moved to Charlotte").
    for (const w of ['Charlotte', 'George', 'Elizabeth', 'Brandon', 'Gary']) expect(wordLike, w).to.include(w);
    for (const w of ['Taylor', 'Wilson', 'Jackson', 'Murray']) expect(commonSurnames, w).to.include(w);
    // Debian's German list holds people's names beside its nouns; only an entry it also inflects is a noun.
    for (const w of ['Anna', 'Oskar']) {
      expect(given, w).to.include(w);
      expect(wordLike, w).to.not.include(w);
    }
    expect(surnames).to.include('Jones');
  });

  // Greetings that are also names ("Buongiorno", "Cara") stay in the lists: the recognizer skips them at a line's start.
  it('holds no month, weekday, nationality, title or place, and products only as common words', () => {
    const names = new Set([...given, ...surnames]);
    const never = [
      'January', 'May', 'Monday', 'Mai', 'Juni', 'Lundi', 'Martes', 'Czech', 'German', 'Polish', 'Herr', 'Frau',
      'Pan', 'Pani', 'Madame', 'Signora', 'Paris', 'London', 'Redis', 'Docker',
      ...TITLES.filter((w) => /^[A-Z][a-z]{2,}$/.test(w)),
    ];
    expect(never.filter((w) => names.has(w) || commonGiven.includes(w))).to.deep.equal([]);
    // Products and assistants may be someone's name, but only before a known surname ("Claude Dupont").
    for (const w of ['Claude', 'Siri', 'Alexa', 'Cassandra', 'Travis', 'Mercedes']) expect(names.has(w), w).to.equal(false);
  });
});
