import { expect } from 'chai';
import { detect, detectAll } from '../../src/index.js';
import { markedWords } from '../../src/names/marked-names.js';

// The rules marked-names.ts and opening-names.ts add, and the look-alikes they must leave as they were.
const persons = (text: string): string[] => detect(text).filter((f) => f.type === 'PERSON').map((f) => f.value);

describe('privacy: firms and works named after people; names opening a sentence', () => {
  it('reads the words a text marks as a firm or a work', () => {
    const text = 'The novel Frankenstein sold. Barilla S.p.A. grew; Ford Motor Company rose; der Konzern Siemens; stacja Orlen.';
    expect([...markedWords(text)].sort()).to.deep.equal(['Barilla', 'Ford', 'Frankenstein', 'Motor', 'Orlen', 'Siemens']);
  });

  it('marks nothing after a noun that is a verb, a film, a given name without an article, or a Polish work', () => {
    expect([...markedWords('Please book Anna a room. In the film Spielberg shows the war. Roman Polanski came.')]).to.deep.equal([]);
    expect([...markedWords('To nowa książka Lessiga, wydana przez firmę.')]).to.deep.equal([]);
  });

  it('keeps a full name opening on a given name, and a name no text marks', () => {
    expect(detectAll(['Louis Renault a fondé la société.', 'Le groupe Renault recrute.']).map((fs) => fs.map((f) => f.value))).to.deep.equal([
      ['Louis Renault'],
      [],
    ]);
    expect(persons('In the film Spielberg shows the war. Spielberg said so.')).to.deep.equal(['Spielberg', 'Spielberg']);
  });

  it('finds a given name and a surname opening a sentence before a verb', () => {
    expect(persons('Jan Utrecht kwam laat.')).to.deep.equal(['Jan Utrecht']);
    expect(persons('Will Hendricks called about the invoice.')).to.deep.equal(['Will Hendricks']);
  });

  it('leaves the pair alone before a preposition, after an abbreviation, or where the tagger read a place', () => {
    expect(persons('River Cess in het westen is nat.')).to.deep.equal([]);
    expect(persons('They beat the St. Louis Cardinals won again.')).to.deep.equal([]);
    expect(persons('Will Berlin survive the winter?')).to.deep.equal([]);
  });

  it('finds one unknown word after a sentence-opening "according to" and before a comma, not a firm', () => {
    expect(persons('Selon Mbappé, le match était difficile.')).to.deep.equal(['Mbappé']);
    expect(persons('Selon Reuters, le match était difficile.')).to.deep.equal([]);
  });
});
