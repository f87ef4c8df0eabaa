import { expect } from 'chai';
import { joinBrokenLines } from '../src/line-breaks.js';

describe('privacy/line-breaks', () => {
  it('closes up a word man hyphenated at a line end, and maps spans back onto the text as written', () => {
    const text = 'wurde von Helge Kreutz\u2010\n       mann <debian@example.de>, Ma\u2010\n   rio Bl\u00e4t\u00adtermann';
    const joined = joinBrokenLines(text);
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
    const joined = joinBrokenLines(text);
    expect(joined?.text).to.equal('par Christophe Blaess, Francois Micaux');
    const start = (joined?.text ?? '').indexOf('Francois');
    const [from, to] = joined?.toOriginal(start, start + 'Francois Micaux'.length) ?? [-1, -1];
    expect(text.slice(from, to)).to.equal('Fran-\n       cois Micaux');
  });

  it('leaves a hyphen before a capital, a digit, a list item, a blank line or the text end, and a text with none', () => {
    expect(joinBrokenLines('Schmidt\u2010\n  Bauer and pages 10\u2010\n  12, Jean-\n  Pierre')).to.equal(null);
    expect(joinBrokenLines('co\u2010\n\n   operate; ends on a hyphen\u2010\n')).to.equal(null);
    expect(joinBrokenLines('Anna Kowalska, tel. 020 7946 0958')).to.equal(null);
    expect(joinBrokenLines('items-\n- first\n+added-\n+line')).to.equal(null);
    expect(joinBrokenLines('Lese-\n       und Schreibzugriff, Ein-\n oder Ausgabe, read-\n  and write')).to.equal(null);
  });

  it('reads a line break between a given name ending a wrapped line and the next line\'s capitalised word as a space', () => {
    const text = 'The list of people is maintained in a database, maintained by Daniel\n       Stenberg and Dan Fandrich.';
    const joined = joinBrokenLines(text);
    expect(joined?.text).to.equal('The list of people is maintained in a database, maintained by Daniel Stenberg and Dan Fandrich.');
    const start = (joined?.text ?? '').indexOf('Daniel Stenberg');
    const [from, to] = joined?.toOriginal(start, start + 'Daniel Stenberg'.length) ?? [-1, -1];
    expect(text.slice(from, to)).to.equal('Daniel\n       Stenberg');
    const after = (joined?.text ?? '').indexOf('Dan Fandrich');
    expect(text.slice(...(joined?.toOriginal(after, after + 'Dan Fandrich'.length) ?? [-1, -1]))).to.equal('Dan Fandrich');
    // Behind the same comment marker, and after an initial.
    expect(joinBrokenLines('// This file was contributed to the project in 2019 by Anna\n// Kowalska, who keeps it.')?.text).to.equal(
      '// This file was contributed to the project in 2019 by Anna Kowalska, who keeps it.',
    );
    expect(joinBrokenLines(' * The original version of this module was written by Michael K.\n * Johnson in 1993.')?.text).to.equal(
      ' * The original version of this module was written by Michael K. Johnson in 1993.',
    );
  });

  it('leaves a list of names, a short line, a surname ending a line, a list\'s next item and a field name apart', () => {
    // One name per line, and a line too short to be a wrapped one.
    expect(joinBrokenLines('Anna Kowalska\nJan Nowak\nThanks to Daniel\nStenberg')).to.equal(null);
    // A surname (no given name) ends the line: the name is whole ("Copyright (c) 2014 Gil Tene\nCopyright …").
    expect(joinBrokenLines('Copyright (c) 2012, 2013, 2014 Gil Tene\nCopyright (c) 2014 Michael Barker\n')).to.equal(null);
    // The next line opens on the word this one opened on (a list), or on a field name, or behind another marker.
    expect(joinBrokenLines('Reviewed the patch and tested it on the cluster: Daniel\nReviewed the docs and the man page: Anna\n')).to.equal(null);
    expect(joinBrokenLines('This change was reviewed and tested on the build cluster by Daniel\nSigned-off-by: Anna Kowalska <anna@example.org>')).to.equal(null);
    expect(joinBrokenLines('# This change was reviewed and tested on the build cluster by Daniel\nStenberg = 1')).to.equal(null);
    // A given name alone on its line, and a lower-case or all-capitals word after the break.
    expect(joinBrokenLines('The maintainers of this package are listed below.\n    Daniel\nStenberg wrote it')).to.equal(null);
    expect(joinBrokenLines('The maintainers of this package are listed below by Daniel\nand SEE ALSO the NEWS by Anna\nSEE ALSO')).to.equal(null);
  });
});
