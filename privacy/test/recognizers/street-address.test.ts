import { expect } from 'chai';
import { detect } from '../../src/index.js';
import { streetAddressRecognizer } from '../../src/recognizers/street-address.js';
import { findValues } from './find-values.js';

describe('privacy/recognizers/street-address', () => {
  const find = (text: string): string[] => findValues(streetAddressRecognizer, text);

  it('finds UK and Irish addresses: number first, flat prefixes, 12a and ranges', () => {
    expect(find("Please send the contract to Siobhan O'Brien, 14 Acacia Avenue, Leeds LS1 4AB.")).to.deep.equal(['14 Acacia Avenue']);
    expect(find('Deliver to Flat 3, 12 Park Road, Bristol')).to.deep.equal(['Flat 3, 12 Park Road']);
    expect(find('221B Baker Street')).to.deep.equal(['221B Baker Street']);
    expect(find('she moved to 12a St Mary\'s Road last year')).to.deep.equal(["12a St Mary's Road"]);
    expect(find('Unit 4, 10-12 Castle Street, Dublin 2')).to.deep.equal(['Unit 4, 10-12 Castle Street']);
    // A full street word's stop ends the sentence; an abbreviation keeps its own.
    expect(find('She lives at 14 Acacia Avenue.')).to.deep.equal(['14 Acacia Avenue']);
    expect(find('She lives at 14 Acacia Ave. in Leeds')).to.deep.equal(['14 Acacia Ave.']);
  });

  it('finds German, Dutch and Polish addresses: street first, number after', () => {
    expect(find('Bitte an Herrn Müller, Hauptstraße 5, 10115 Berlin schicken.')).to.deep.equal(['Hauptstraße 5']);
    expect(find('Lieferadresse: Berliner Str. 12a')).to.deep.equal(['Berliner Str. 12a']);
    expect(find('Kurfürstendamm 21, Berlin')).to.deep.equal(['Kurfürstendamm 21']);
    expect(find('Ons kantoor is op Keizersgracht 123-II in Amsterdam.')).to.deep.equal(['Keizersgracht 123-II']);
    expect(find('Bezorgen op Damstraat 5 hs')).to.deep.equal(['Damstraat 5 hs']);
    expect(find('Adres: ul. Marszałkowska 10/12 m. 5, 00-001 Warszawa')).to.deep.equal(['ul. Marszałkowska 10/12 m. 5']);
    expect(find('mieszkam przy al. Jana Pawła II 23')).to.deep.equal(['al. Jana Pawła II 23']);
    // German streets named with a preposition, but not days, months or times after one.
    expect(find('Senden Sie das Paket an Am Markt 27.')).to.deep.equal(['Am Markt 27']);
    expect(find('Unter den Linden 77, Berlin')).to.deep.equal(['Unter den Linden 77']);
    for (const text of ['Am Montag 3 Termine', 'Im Jahre 2020', 'Am Ende 5 Punkte', 'Im Sprint 12 haben wir', 'Zum Beispiel 3 Dateien', 'Im Herbst 2023', 'Am Server 2', 'Im Q3 2023']) {
      expect(find(text), text).to.deep.equal([]);
    }
  });

  it('takes no lower-case Polish letter for a capital', () => {
    expect(find('ulica ścieżka 5')).to.deep.equal([]);
    expect(find('ul. Żeromskiego 5')).to.deep.equal(['ul. Żeromskiego 5']);
  });

  it('finds UK streets named with one word', () => {
    expect(find('Please deliver to Flat 27, 165a Kingsway, Leeds.')).to.deep.equal(['Flat 27, 165a Kingsway']);
    expect(find('12 Broadway, London')).to.deep.equal(['12 Broadway']);
    expect(find('see also 3 Broadway shows and 2 Strand hotels')).to.deep.equal([]);
  });

  it('finds French, Italian and Spanish addresses in their own orders', () => {
    expect(find('Envoyez-le au 12 bis, rue de la Paix, 75002 Paris')).to.deep.equal(['12 bis, rue de la Paix']);
    expect(find('Mme Dubois habite 3 avenue Victor Hugo.')).to.deep.equal(['3 avenue Victor Hugo']);
    expect(find('Abito in via Roma 10, Milano')).to.deep.equal(['via Roma 10']);
    expect(find('Sede: Corso Vittorio Emanuele II, 21, Torino')).to.deep.equal(['Corso Vittorio Emanuele II, 21']);
    expect(find('Piazza della Signoria 5/A, Firenze')).to.deep.equal(['Piazza della Signoria 5/A']);
    expect(find('Vivo en C/ Mayor 5, Madrid')).to.deep.equal(['C/ Mayor 5']);
    expect(find('Calle de Alcalá, 23, 2º B, 28014 Madrid')).to.deep.equal(['Calle de Alcalá, 23, 2º B']);
  });

  it('never reports a street named without a number, or a place named after a street', () => {
    expect(find('We met on Baker Street and walked down Park Lane to Victoria Station.')).to.deep.equal([]);
    expect(find('Die Hauptstraße ist gesperrt; la rue de Rivoli est belle; via Roma è chiusa.')).to.deep.equal([]);
    expect(find('He lives in 3 different places on 2 Roads')).to.deep.equal([]);
  });

  it('stays quiet on code, versions, logs and English prepositions', () => {
    const code = [
      'connect via Redis 7 and Node 20; deploy via Docker 24',
      'String 5, Spring 2024, Notepad 3, Keypad 5',
      'at Object.<anonymous> (/app/src/index.js:12:5)',
      'Chrome/120.0.6099.109 Safari/537.36',
      'step 1: Close the file; step 2: Open the door',
      'const street = row.address_line_1; // e.g. 10 or 12',
    ].join('\n');
    expect(find(code)).to.deep.equal([]);
  });

  it('keeps the postcode its own type through the detector', () => {
    const text = 'Send it to 14 Acacia Avenue, London SW1A 1AA please';
    expect(detect(text).map((f) => [f.type, f.value])).to.deep.equal([
      ['STREET_ADDRESS', '14 Acacia Avenue'],
      ['UK_POSTCODE', 'SW1A 1AA'],
    ]);
  });
});
