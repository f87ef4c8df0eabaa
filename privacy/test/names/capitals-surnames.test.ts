import { expect } from 'chai';
import { detect } from '../../src/detect.js';
import type { Candidate } from '../../src/recognizer.js';
import { withCapitalsSurnames } from '../../src/names/capitals-surnames.js';

/** The PERSON spans of `text` after withCapitalsSurnames, from candidates over the given `names`. */
function stretched(text: string, ...names: string[]): string[] {
  const candidates: Candidate[] = names.map((n) => ({ type: 'PERSON', start: text.indexOf(n), end: text.indexOf(n) + n.length, rank: 1 }));
  return withCapitalsSurnames(text, candidates).map((c) => text.slice(c.start, c.end));
}

describe('privacy/names/capitals-surnames', () => {
  it('takes a surname written in capitals after a known given name into the name', () => {
    expect(stretched('Cordialement, Jean DUPONT', 'Jean')).to.deep.equal(['Jean DUPONT']);
    expect(stretched('Merci à Pierre DURAND et à Sophie BERNARD.', 'Pierre', 'Sophie')).to.deep.equal(['Pierre DURAND', 'Sophie BERNARD']);
    expect(stretched('Le rapport de Jean-Pierre MARTIN est prêt; Marie LE-GALL', 'Jean-Pierre', 'Marie')).to.deep.equal([
      'Jean-Pierre MARTIN',
      'Marie LE-GALL',
    ]);
    // The caller's array is left as it was.
    const text = 'Ariel VARDI <ariel@example.fr>';
    const given: Candidate[] = [{ type: 'PERSON', start: 0, end: 5, rank: 1 }];
    withCapitalsSurnames(text, given);
    expect(given[0]?.end).to.equal(5);
  });

  it('leaves roles, acronyms, codes, headings, a line break and names not ending on a given name as they were', () => {
    expect(stretched('Signed: John, CEO; Anna CEO of Foo; Darwin SSL; Anna HTTP', 'John', 'Anna', 'Darwin')).to.deep.equal(['John', 'Anna', 'Darwin']);
    expect(stretched('Carol St. Clair EB 3889', 'Carol St. Clair')).to.deep.equal(['Carol St. Clair']);
    expect(stretched('written by Anna\nSEE ALSO', 'Anna')).to.deep.equal(['Anna']);
    expect(stretched('Ask Anna NOW please', 'Anna')).to.deep.equal(['Anna']);
    expect(stretched('Kowalska RAPORT', 'Kowalska')).to.deep.equal(['Kowalska']);
    expect(stretched('Anna XY and Anna.', 'Anna')).to.deep.equal(['Anna']);
  });

  it('takes a given name that is also a word or an assistant only alone ("Claude DUBOIS", not "Ralf Brown SPAWNO")', () => {
    expect(stretched('Signé : Claude DUBOIS, le 3 mai.', 'Claude')).to.deep.equal(['Claude DUBOIS']);
    expect(stretched('various patches Ralf Brown SPAWNO library', 'Ralf Brown')).to.deep.equal(['Ralf Brown']);
    expect(detect('Signé : Claude DUBOIS, le 3 mai.').map((f) => f.value)).to.deep.equal(['Claude DUBOIS']);
  });

  it('is what detect returns: the whole name, and the mailbox after it apart', () => {
    const text = 'TRADUCTION\n       Ariel VARDI <ariel.vardi@example.fr>, 2002. Merci à Pierre DURAND.';
    expect(detect(text).map((f) => [f.type, f.value])).to.deep.equal([
      ['PERSON', 'Ariel VARDI'],
      ['EMAIL', 'ariel.vardi@example.fr'],
      ['PERSON', 'Pierre DURAND'],
    ]);
  });
});
