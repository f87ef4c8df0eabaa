import { expect } from 'chai';
import { addOpeningNames } from '../../src/names/opening-names.js';
import { namesAPlace, namesATerm } from '../../src/names/place-named-after.js';
import { addTaggedNames } from '../../src/names/tagged-names.js';
import { RANK_FORMAT, type Candidate } from '../../src/recognizer.js';
import { span } from './hand-spans.js';

// A name right after a word for a street, square, school, theatre, stadium, foundation or prize names that place
// or institution, not a person; so does a name opening on such a word, or ending on a street's word.

const at = (text: string, value: string): [number, number] => [text.indexOf(value), text.indexOf(value) + value.length];

function people(text: string, value: string, listed: boolean): string[] {
  const candidates: Candidate[] = [];
  const [start, end] = at(text, value);
  if (listed) candidates.push({ type: 'PERSON', start, end, rank: RANK_FORMAT });
  addTaggedNames(text, listed ? [] : [span(text, value, 'PER', 45, { opensSentence: start === 0 })], candidates);
  return candidates.filter((c) => c.type === 'PERSON').map((c) => text.slice(c.start, c.end));
}

describe('privacy: places, institutions and storms named after people', () => {
  const places: Array<[string, string, string]> = [
    ['de', 'Das Konzert in der Stiftung Gerhard Richter fiel aus.', 'Gerhard Richter'],
    ['fr', 'Les élèves du lycée Henri Martin ont manifesté hier.', 'Henri Martin'],
    ['fr', 'Il a ouvert une boutique boulevard Haussmann à Paris.', 'Haussmann'],
    ['it', 'Gli studenti del Liceo Giuseppe Parini hanno protestato.', 'Giuseppe Parini'],
    ['it', 'Abitava in viale Giulio Cesare a Roma.', 'Giulio Cesare'],
    ['es', 'El partido en el Estadio Santiago Bernabéu terminó en empate.', 'Santiago Bernabéu'],
    ['es', 'Vive en la avenida Ricardo Soriano de Marbella.', 'Ricardo Soriano'],
    ['nl', 'Het concert in de Stichting Johan Cruijff werd afgelast.', 'Johan Cruijff'],
    ['pl', 'Spektakl odbył się w Teatrze im. Wandy Siemaszkowej w Rzeszowie.', 'Wandy Siemaszkowej'],
    ['pt', 'O jogo no Estádio José Alvalade terminou empatado.', 'José Alvalade'],
    // Storms are named after people too.
    ['en', 'The damage from hurricane Rita was severe.', 'Rita'],
    ['de', 'Sturmtief Sabine sorgt für Chaos im Bahnverkehr.', 'Sabine'],
    ['es', 'La borrasca Filomena dejó nieve en Madrid.', 'Filomena'],
    ['it', "L'uragano Irma ha colpito la Florida.", 'Irma'],
    ['fr', 'La tempête Ciaran a frappé la Bretagne.', 'Ciaran'],
    ['nl', 'Orkaan Eunice raasde over Nederland.', 'Eunice'],
    ['pl', 'Huragan Katrina zniszczył Nowy Orlean.', 'Katrina'],
  ];

  it('finds the place word before the name, in each language', () => {
    for (const [, text, value] of places) expect(namesAPlace(text, ...at(text, value)), text).to.equal(true);
  });

  it('drops the tagger\'s person and a list match there, and keeps the same name where no place word stands before it', () => {
    for (const [, text, value] of places) {
      expect(people(text, value, false), text).to.deep.equal([]);
      expect(people(text, value, true), text).to.deep.equal([]);
      const plain = `Ieri ho incontrato ${value} al mercato.`;
      expect(people(plain, value, false), plain).to.deep.equal([value]);
    }
  });

  it('reads a name opening on a place word, or ending on a street word, as the place', () => {
    const stadium = 'La partita allo Stadio Giuseppe Meazza è finita in pareggio.';
    expect(namesAPlace(stadium, ...at(stadium, 'Stadio Giuseppe Meazza'))).to.equal(true);
    const street = 'Zijn kantoor is aan de Johan de Wittlaan in Den Haag.';
    expect(namesAPlace(street, ...at(street, 'Johan de Wittlaan'))).to.equal(true);
    const strasse = 'Das Büro liegt in der Konrad Goethestraße am Markt.';
    expect(namesAPlace(strasse, ...at(strasse, 'Konrad Goethestraße'))).to.equal(true);
  });

  it('reads the name after an institution or place word and "of" (or de, di, von, zu) as its name', () => {
    for (const [text, value] of [
      ['Professor Cerys Chaudhry of the University of Leeds spoke.', 'Leeds'],
      ['The Bank of England raised rates.', 'England'],
      ['Il a étudié à l\'Université de Lyon.', 'Lyon'],
      ['Sie lehrt an der Universität zu Köln.', 'Köln'],
      ['The Duchy of Cornwall owns the land.', 'Cornwall'],
    ] as const) {
      expect(namesAPlace(text, ...at(text, value)), text).to.equal(true);
    }
    // "of" after any other word is no institution's: the report's author, the letter's writer.
    for (const [text, value] of [
      ['The report of Anna Schmidt was late.', 'Anna Schmidt'],
      ['Professor Cerys Chaudhry of the University of Leeds spoke.', 'Cerys Chaudhry'],
    ] as const) {
      expect(namesAPlace(text, ...at(text, value)), text).to.equal(false);
    }
  });

  it('leaves people alone: an ordinary word before the name, a place word that is also a surname, a lone surname like a street word', () => {
    const met = 'Gestern traf ich Gerhard Richter im Museum.';
    expect(namesAPlace(met, ...at(met, 'Gerhard Richter'))).to.equal(false);
    // "Villa" is a surname too ("David Villa"): it is no place word inside a name.
    const villa = 'Ha segnato Villa Rossi al novantesimo.';
    expect(namesAPlace(villa, ...at(villa, 'Villa Rossi'))).to.equal(false);
    // A street word is a street's only as the end of a longer word: "van der Laan" is a surname.
    const laan = 'Gisteren sprak Eva van der Laan met de pers.';
    expect(namesAPlace(laan, ...at(laan, 'Eva van der Laan'))).to.equal(false);
    // "Al" without its full stop is a given name ("Al Gore"); "al." is the Polish avenue.
    const al = 'Yesterday Al Gore spoke.';
    expect(namesAPlace(al, ...at(al, 'Gore'))).to.equal(false);
  });

  it('does not read an abbreviation\'s full stop before a place named after someone as a sentence opening on a name', () => {
    const text = 'Uczniowie Szkoły Podstawowej im. Jana Kochanowskiego wygrali konkurs.';
    const candidates: Candidate[] = [];
    addOpeningNames(text, [], candidates, () => false);
    expect(candidates).to.deep.equal([]);
    const opening = 'Konkurs się skończył. Jana Kochanowskiego wygrali uczniowie.';
    const found: Candidate[] = [];
    addOpeningNames(opening, [], found, () => false);
    expect(found.map((c) => opening.slice(c.start, c.end))).to.deep.equal(['Jana Kochanowskiego']);
  });

  it('reads a lone name before or after a term in the terms named after people (laws, algorithms, measures) as the term', () => {
    const terms: Array<[string, string]> = [
      ['Minimum Shannon entropy required for the rule.', 'Shannon'],
      ["We use Dijkstra's algorithm for the routes.", 'Dijkstra'],
      ['The Turing test is older than the web.', 'Turing'],
      ["L'algorithme de Dijkstra est rapide.", 'Dijkstra'],
      ['Der Dijkstra-Algorithmus ist schnell.', 'Dijkstra'],
      ['La entropía de Shannon mide la incertidumbre.', 'Shannon'],
    ];
    for (const [text, value] of terms) {
      expect(namesATerm(text, ...at(text, value)), text).to.equal(true);
      expect(people(text, value, false), text).to.deep.equal([]);
      expect(people(text, value, true), text).to.deep.equal([]);
    }
  });

  it('leaves people before a verb that is also a term, a full name before a term, and a Polish genitive', () => {
    const kept: Array<[string, string]> = [
      ['Have Anna test it before Friday.', 'Anna'],
      ["Edsger Dijkstra's algorithm is taught everywhere.", 'Edsger Dijkstra'],
      ['Ask Shannon about the report.', 'Shannon'],
      // KPWr labels the genitive in "twierdzenia Eulera" a person; "prawa Kowalskiego" are his rights.
      ['Sąd uznał prawa Kowalskiego.', 'Kowalskiego'],
    ];
    for (const [text, value] of kept) {
      expect(namesATerm(text, ...at(text, value)), text).to.equal(false);
      expect(people(text, value, false), text).to.deep.equal([value]);
    }
  });
});
