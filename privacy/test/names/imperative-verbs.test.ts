import { expect } from 'chai';
import { detect } from '../../src/detect.js';
import { imperativeVerb } from '../../src/names/imperative-verbs.js';

const people = (text: string): string[] => detect(text).filter((f) => f.type === 'PERSON').map((f) => f.value);

describe('privacy: a given name the text uses as a verb in the imperative', () => {
  it('finds no person in a given name that is a verb before its object, where the text opens a sentence with it so', () => {
    // The shipped model reads the second "Sue" as a person at 33.2, and the later-mention pass then the first.
    expect(people('Sue the vendor and Sue every agent.')).to.deep.equal([]);
    const text = 'Mark the ticket as done and Mark every item.';
    expect(imperativeVerb(text, text.lastIndexOf('Mark'), text.lastIndexOf('Mark') + 4)).to.equal(true);
  });

  it('keeps the name where nothing in the text opens a sentence with the verb, or no object follows', () => {
    const asked = 'Please ask Mark every question you have.';
    expect(imperativeVerb(asked, asked.indexOf('Mark'), asked.indexOf('Mark') + 4)).to.equal(false);
    const named = 'Mark the ticket as done. Mark Dobson agreed.';
    expect(imperativeVerb(named, named.lastIndexOf('Mark'), named.lastIndexOf('Mark') + 4)).to.equal(false);
    expect(people('Sue the vendor. Sue Miller agreed.')).to.deep.equal(['Sue Miller']);
    // A given name that is no common word is never read so ("Anna the …").
    const anna = 'Anna the tester. And Anna every day.';
    expect(imperativeVerb(anna, anna.lastIndexOf('Anna'), anna.lastIndexOf('Anna') + 4)).to.equal(false);
  });
});
