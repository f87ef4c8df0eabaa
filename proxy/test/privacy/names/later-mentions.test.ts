import { expect } from 'chai';
import { detect } from '../../../src/privacy/detect.js';
import { addLaterMentions } from '../../../src/privacy/names/later-mentions.js';
import { RANK_FORMAT, type Candidate } from '../../../src/privacy/recognizer.js';

// A full name's surname found alone elsewhere in the same text: the rule on candidates written by hand, then
// through the whole detector.
interface Options {
  /** Places and organisations the tagger is sure of. */
  vetoes?: readonly string[];
  /** Spans the tagger read as a person's name. */
  named?: readonly string[];
  /** Words the model's lexicon writes in lower case. */
  common?: readonly string[];
}

function mentions(text: string, fullNames: readonly string[], options: Options = {}): string[] {
  const candidates: Candidate[] = fullNames.map((name) => {
    const start = text.indexOf(name);
    return { type: 'PERSON', start, end: start + name.length, rank: RANK_FORMAT };
  });
  const spans = (values: readonly string[] = []): { start: number; end: number }[] => values.map((v) => ({ start: text.indexOf(v), end: text.indexOf(v) + v.length }));
  addLaterMentions(text, candidates, spans(options.named), spans(options.vetoes), (w) => (options.common ?? []).includes(w));
  return candidates.slice(fullNames.length).map((c) => text.slice(c.start, c.end));
}

describe('privacy: a full name\'s surname found again alone', () => {
  it('finds the surname before and after the full name, once each', () => {
    const text = 'Emde dementierte. Schuldezernent Werner Emde (FWG) widersprach. Männer wirft Emde vor, er wolle das Modell.';
    expect(mentions(text, ['Werner Emde'])).to.deep.equal(['Emde', 'Emde']);
  });

  it('reads the German and Dutch genitive and Polish cases as the same surname', () => {
    expect(mentions('Werner Emde sprach. Die starre Haltung Emdes sei unverständlich.', ['Werner Emde'])).to.deep.equal(['Emdes']);
    const polish = 'Jan Kowalczyk przyszedł. Rozmawiałem z Kowalczykiem, a potem dzwoniłem do Kowalczyka.';
    expect(mentions(polish, ['Jan Kowalczyk'])).to.deep.equal(['Kowalczykiem', 'Kowalczyka']);
    const adjectival = 'Jan Wiśniewski przyszedł. Nie było Wiśniewskiego, więc poszedłem z Wiśniewskim.';
    expect(mentions(adjectival, ['Jan Wiśniewski'])).to.deep.equal(['Wiśniewskiego', 'Wiśniewskim']);
    expect(mentions('Anna Kowalska przyszła. Rozmawiałem z Kowalską.', ['Anna Kowalska'])).to.deep.equal(['Kowalską']);
  });

  it('leaves a word that only begins with the surname, or a compound made of it', () => {
    const text = 'Tony Blair spoke. The Blairite wing and Blair-era policy, then pre-Blair Britain and Blairs.';
    expect(mentions(text, ['Tony Blair'])).to.deep.equal(['Blairs']);
    expect(mentions('Olaf Scholz sprach. Die Scholzens kamen.', ['Olaf Scholz'])).to.deep.equal([]);
  });

  it('leaves a noun after an article, a part of another name, and a place or organisation the tagger is sure of', () => {
    expect(mentions('Anna Fischer kam. Die Fischer fuhren aus, und der Fischer blieb.', ['Anna Fischer'])).to.deep.equal([]);
    expect(mentions('Tom Jones sang. Jones Medical fell 3%.', ['Tom Jones'], { vetoes: ['Jones Medical'] })).to.deep.equal([]);
    const cricket = 'Mike Mushtaq bowled. Saqlain Mushtaq took three.';
    expect(mentions(cricket, ['Mike Mushtaq'], { named: ['Saqlain Mushtaq'] })).to.deep.equal([]);
    expect(mentions('Peter Hattersheim spielte. BSC 47 Hattersheim 7:2.', ['Peter Hattersheim'])).to.deep.equal([]);
  });

  it('finds it after a capitalised word the tagger read as no name, not after one it did or an initial', () => {
    const text = 'Werner Emde sprach. Auch Emde war da. J. Emde nicht.';
    expect(mentions(text, ['Werner Emde'])).to.deep.equal(['Emde']);
    expect(mentions(text, ['Werner Emde'], { named: ['Auch Emde'] })).to.deep.equal([]);
  });

  it('looks only for surnames that are no ordinary word, from names of two words or more', () => {
    expect(mentions('Gordon Brown spoke. Brown said no.', ['Gordon Brown'], { common: ['Brown'] })).to.deep.equal([]);
    // One misread name must not spread: a name opening on an ordinary word, a word read elsewhere as a place.
    const prose = 'Supplier London approved it. The London office and London team agreed.';
    expect(mentions(prose, ['Supplier London'], { common: ['Supplier'] })).to.deep.equal([]);
    const place = 'From London, Harry London wrote. London replied.';
    expect(mentions(place, ['Harry London'])).to.deep.equal(['London', 'London']);
    expect(mentions(place, ['Harry London'], { vetoes: ['London'] })).to.deep.equal([]);
    expect(mentions('Scholz kam. Scholz ging.', ['Scholz'])).to.deep.equal([]);
    expect(mentions('Anna de la Torre kam. Torre ging.', ['Anna de la Torre'])).to.deep.equal(['Torre']);
  });

  it('stays out of code: members, calls, paths and identifiers', () => {
    const text = 'Werner Emde\nuser.Emde = new Emde(); Emde_id; /home/Emde; <Emde> Emde.name';
    expect(mentions(text, ['Werner Emde'])).to.deep.equal([]);
  });

  it('through the detector, in running prose of each language', () => {
    const people = (text: string): string[] => detect(text).filter((f) => f.type === 'PERSON').map((f) => f.value);
    expect(people('Bundeskanzler Olaf Scholz traf gestern Jan Wiśniewski. Danach sagte Scholz, er sei zufrieden.')).to.include('Scholz');
    expect(people('Ngozi Okonkwo joined the board in May. According to Okonkwo, the deal is done.')).to.include('Okonkwo');
    expect(people('Wczoraj przyjechał Jan Wiśniewski. Rozmawiałem z Wiśniewskim o projekcie.')).to.include('Wiśniewskim');
    const text = 'Anna Fischer kam spät. Die Fischer auf dem Main fuhren früh aus.';
    expect(people(text)).to.deep.equal(['Anna Fischer']);
  });

  it('gives the same findings for the same text', () => {
    const text = 'Werner Emde (FWG) widersprach. Männer wirft Emde vor, die Haltung Emdes sei starr.';
    expect(detect(text)).to.deep.equal(detect(text));
  });
});
