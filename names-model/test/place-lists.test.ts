import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cldrTerritoryNames, geonamesCityCounts, isPlaceToken, polishPlaceForms, rankedNames, readLexiconManifest } from '../src/index.js';

// The place lists (docs/privacy.md (v)): a gazetteer's and a locale's place names, one token each, and the
// Polish dictionary forms that decline them. Fixture rows written here in the sources' formats.
const row = (id: number, name: string, ascii: string, alternates: string, population: number): string =>
  [id, name, ascii, alternates, '52.2', '21.0', 'P', 'PPLC', 'PL', '', '78', '', '', '', population, '', '100', 'Europe/Warsaw', '2012-01-01'].join('\t');

describe('names-model: place lists', () => {
  it('takes one-token Latin place names, not codes, other scripts or several words', () => {
    expect(['Warszawa', 'Bielsko-Biała', "L'Aquila", 'Łódź', 'Mołdawia'].every(isPlaceToken)).to.equal(true);
    expect(['WAW', 'Buenos Aires', 'Варшава', 'warszawa', '東京', 'A1'].some(isPlaceToken)).to.equal(false);
  });

  it('reads a GeoNames cities dump: every name of a city with its population, most populous ranked first', () => {
    const text = `${row(756135, 'Warsaw', 'Warsaw', 'WAW,Varsovia,Varsovie,Warschau,Warszawa,Варшава,Nowe Miasto', 1702139)}\n${row(3094802, 'Kraków', 'Krakow', 'Cracovia,Krakau,Krakow', 755050)}\nshort row\n`;
    const counts = geonamesCityCounts(text);
    expect(counts.map(([n]) => n)).to.deep.equal(['Warsaw', 'Varsovia', 'Varsovie', 'Warschau', 'Warszawa', 'Kraków', 'Krakow', 'Cracovia', 'Krakau']);
    expect(rankedNames(counts).slice(0, 2)).to.deep.equal(['varsovia', 'varsovie']);
    // Ties in code-point order: Kraków's names all count 755,050.
    expect(rankedNames(counts).slice(-4)).to.deep.equal(['cracovia', 'krakau', 'krakow', 'kraków']);
  });

  it('reads a CLDR territories file: the country names of one token', () => {
    const json = JSON.stringify({ main: { pl: { localeDisplayNames: { territories: { MX: 'Meksyk', MD: 'Mołdawia', NZ: 'Nowa Zelandia', 'GB-alt-short': 'UK', '001': 'świat' } } } } });
    expect(cldrTerritoryNames(json)).to.deep.equal(['Meksyk', 'Mołdawia']);
  });

  it('finds the Polish dictionary forms that decline a place name, and not those that decline a person', () => {
    const bases = new Set(['meksyk', 'kirgistan', 'mołdawia', 'kraków', 'łódź', 'polska', 'ameryka', 'poznań', 'marka']);
    const people = new Set(['marek', 'anna']);
    const forms = ['Meksyku', 'Meksykiem', 'Kirgistanem', 'Mołdawią', 'Mołdawii', 'Krakowie', 'Krakowa', 'Łodzi', 'Polsce', 'Ameryce', 'Poznania', 'Marka', 'Markiem', 'Kowalskiego', 'meksykański', 'Annie'];
    expect(polishPlaceForms(bases, forms, people)).to.deep.equal(['Meksyku', 'Meksykiem', 'Kirgistanem', 'Mołdawią', 'Mołdawii', 'Krakowie', 'Krakowa', 'Łodzi', 'Polsce', 'Ameryce', 'Poznania']);
  });

  it('refuses declined forms whose dictionary is not among the list sources', () => {
    const dir = mkdtempSync(join(tmpdir(), 'names-places-'));
    const places = readLexiconManifest(join(__dirnameOf(), '../../lexicons/places.json'));
    const forms = places.lexicons['place-pl-forms'];
    if (forms === undefined) throw new Error('place-pl-forms missing');
    const bad = { ...places, lexicons: { ...places.lexicons, 'place-pl-forms': { ...forms, sources: ['cldr-territories'] } } };
    writeFileSync(join(dir, 'places.json'), JSON.stringify(bad));
    expect(() => readLexiconManifest(join(dir, 'places.json'))).to.throw(/place-pl-forms: its forms come from sjp-wpolish, which is not one of its sources/);
  });
});

function __dirnameOf(): string {
  return new URL('.', import.meta.url).pathname;
}
