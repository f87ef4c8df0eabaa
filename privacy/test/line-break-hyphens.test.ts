import { expect } from 'chai';
import { joinHyphenatedLines } from '../src/line-break-hyphens.js';

describe('privacy/line-break-hyphens', () => {
  it('closes up a word man hyphenated at a line end, and maps spans back onto the text as written', () => {
    const text = 'wurde von Helge Kreutz\u2010\n       mann <debian@example.de>, Ma\u2010\n   rio Bl\u00e4t\u00adtermann';
    const joined = joinHyphenatedLines(text);
    expect(joined?.text).to.equal('wurde von Helge Kreutzmann <debian@example.de>, Mario Bl\u00e4t\u00adtermann');
    const at = (word: string): [number, number] => {
      const start = (joined?.text ?? '').indexOf(word);
      return joined?.toOriginal(start, start + word.length) ?? [-1, -1];
    };
    const slice = ([start, end]: [number, number]): string => text.slice(start, end);
    expect(slice(at('Helge Kreutzmann'))).to.equal('Helge Kreutz\u2010\n       mann');
    expect(slice(at('mann'))).to.equal('mann');
    expect(slice(at('Kreutz'))).to.equal('Kreutz');
    expect(slice(at('Mario'))).to.equal('Ma\u2010\n   rio');
    expect(slice(at('debian@example.de'))).to.equal('debian@example.de');
    // A soft hyphen inside a line is no break.
    expect(slice(at('Bl\u00e4t\u00adtermann'))).to.equal('Bl\u00e4t\u00adtermann');
  });

  it('closes up an ASCII hyphen at a line end as man writes it in the C locale', () => {
    const text = 'par Chris-\n       tophe Blaess, Fran-\n       cois Micaux';
    const joined = joinHyphenatedLines(text);
    expect(joined?.text).to.equal('par Christophe Blaess, Francois Micaux');
    const start = (joined?.text ?? '').indexOf('Francois');
    const [from, to] = joined?.toOriginal(start, start + 'Francois Micaux'.length) ?? [-1, -1];
    expect(text.slice(from, to)).to.equal('Fran-\n       cois Micaux');
  });

  it('leaves a hyphen before a capital, a digit, a list item, a blank line or the text end, and a text with none', () => {
    expect(joinHyphenatedLines('Schmidt\u2010\n  Bauer and pages 10\u2010\n  12, Jean-\n  Pierre')).to.equal(null);
    expect(joinHyphenatedLines('co\u2010\n\n   operate; ends on a hyphen\u2010\n')).to.equal(null);
    expect(joinHyphenatedLines('Anna Kowalska, tel. 020 7946 0958')).to.equal(null);
    expect(joinHyphenatedLines('items-\n- first\n+added-\n+line')).to.equal(null);
    expect(joinHyphenatedLines('Lese-\n       und Schreibzugriff, Ein-\n oder Ausgabe, read-\n  and write')).to.equal(null);
  });
});
