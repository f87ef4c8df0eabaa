import { expect } from 'chai';
import { detect, detectAll } from '../../src/index.js';
import { markedWords, withoutMarked } from '../../src/names/marked-names.js';
import { RANK_FORMAT, type Candidate } from '../../src/recognizer.js';

// The rules marked-names.ts and opening-names.ts add, and the look-alikes they must leave as they were.
const persons = (text: string): string[] => detect(text).filter((f) => f.type === 'PERSON').map((f) => f.value);

describe('privacy: firms and works named after people; names opening a sentence', () => {
  it('reads the words a text marks as a firm or a work', () => {
    const text = 'The novel Frankenstein sold. Barilla S.p.A. grew; Ford Motor Company rose; der Konzern Siemens; stacja Orlen.';
    expect([...markedWords(text)].sort()).to.deep.equal(['Barilla', 'Ford', 'Frankenstein', 'Motor', 'Orlen', 'Siemens']);
    // A legal form after a comma, as English writes it ("Redis Labs, Inc", "Kowalczyk, LLC").
    expect([...markedWords(' * Copyright (c) 2015, Redis Labs, Inc\n * Copyright 2019 Kowalczyk, LLC')].sort()).to.deep.equal(['Kowalczyk', 'Labs', 'Redis']);
    expect(persons('Copyright 2019 Kowalczyk, LLC. All rights reserved.')).to.deep.equal([]);
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

  it('drops a model or brand right after a marked firm, however the tagger split it, in each language', () => {
    // The tagger of one draw reads "Renault" as a firm and "Clio" (a given name too) as a person apart.
    const kept = (text: string, word: string): string[] => {
      const start = text.lastIndexOf(word);
      const c: Candidate = { type: 'PERSON', start, end: start + word.length, rank: RANK_FORMAT };
      return withoutMarked(text, [c], markedWords(text)).map((k) => text.slice(k.start, k.end));
    };
    const cases: [string, string, string][] = [
      ['en', 'Ford Motor Company builds it; the Ford Mustang sells.', 'Mustang'],
      ['de', 'Die Opel AG baut ihn; der Opel Corsa verkauft sich.', 'Corsa'],
      ['fr', 'La Renault Clio se vend bien; le groupe Renault recrute.', 'Clio'],
      ['es', 'La empresa Seat crece; el Seat Ibiza se vende.', 'Ibiza'],
      ['it', 'La Barilla S.p.A. cresce; la Barilla Integrale piace.', 'Integrale'],
      ['nl', 'Het concern Philips groeit; de Philips Hue verkoopt.', 'Hue'],
      ['pl', 'Koncern Fiat rośnie; Fiat Panda się sprzedaje.', 'Panda'],
    ];
    for (const [lang, text, model] of cases) expect(kept(text, model), lang).to.deep.equal([]);
    // Across a sentence's end, or after a word no text marks, the person stays.
    expect(kept('Le groupe Renault recrute. Clio est partie.', 'Clio')).to.deep.equal(['Clio']);
    expect(kept('Le groupe Renault recrute. Hier Dupont est parti.', 'Dupont')).to.deep.equal(['Dupont']);
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
