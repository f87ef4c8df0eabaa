import { expect } from 'chai';
import { inFontStack, inSoftwareList } from '../../src/names/software-lists.js';
import { detect } from '../../src/detect.js';
import { atValue } from './hand-spans.js';

/** inSoftwareList for the first `word` in `text`. */
function listed(text: string, word: string): boolean {
  const at = text.indexOf(word);
  return inSoftwareList(text, at, at + word.length);
}

describe('privacy/names/software-lists', () => {
  it('reads a word as software among list items written as software, on its line and the lines a comma joins', () => {
    expect(listed('Maemo, Mbed, Meego, Micrium, MINIX, Minoca, Moblin, MorphOS, MPE/iX, MS-DOS', 'Minoca')).to.equal(true);
    expect(listed('curl can use one of: AWS-LC,\nBoringSSL, GnuTLS, OpenSSL, mbedTLS, Rustls, Schannel (native\nWindows), or wolfSSL. They all work.', 'Schannel')).to.equal(true);
    expect(listed('"licenses": ["Apache-2.0", "BSD-3-Clause", "Borg", "Beerware", "MIT"]', 'Borg')).to.equal(true);
    expect(listed('Debian-Architekturen Amd64, Arm64, Armel, Armhf, Hurd-i386, I386', 'Armhf')).to.equal(true);
    // A word the name lists know: only as a quoted value among twice as many written as software (SPDX's ids).
    const spdx = '"enum": [\n  "Artistic-1.0",\n  "Artistic-2.0",\n  "Bahyph",\n  "Barr",\n  "Beerware",\n  "BitTorrent-1.0",\n  "BitTorrent-1.1",\n';
    const at = spdx.indexOf('Barr');
    expect(inSoftwareList(spdx, at, at + 4, true)).to.equal(true);
    const thanks = 'Thanks to FrenchBen, jsmith_42, OpenSSL and Barr';
    expect(inSoftwareList(thanks, thanks.indexOf('Barr'), thanks.indexOf('Barr') + 4, true)).to.equal(false);
  });

  it('leaves a word in a list of names, in prose, or with too few items written as software', () => {
    // A football line-up: every item a plain capitalised word.
    expect(listed('Manchester United: Schmeichel, Irwin, Pallister, May, Neville, Johnsen, Giggs.', 'Pallister')).to.equal(false);
    // Not the whole item: the word is part of a phrase.
    expect(listed('We thank OpenSSL, GnuTLS, and Kowalczyk who fixed the build.', 'Kowalczyk')).to.equal(false);
    // One other item written as software is not enough; nor is a list of two.
    expect(listed('Reviewed by Kowalczyk, Nowak and jsmith_42.', 'Kowalczyk')).to.equal(false);
    expect(listed('OpenSSL and Kowalczyk', 'Kowalczyk')).to.equal(false);
    // Surnames in capitals, house numbers and abbreviations are no software: an OCR'd newspaper's list of people.
    expect(listed('MM. DUPONT, MARTIN, 12, Lefaucheux et DURAND', 'Lefaucheux')).to.equal(false);
    // A name's own humps are no software's ("McDonald", "DeShawn").
    expect(listed('McDonald, DeShawn, MacLeod and Kowalczyk', 'Kowalczyk')).to.equal(false);
    // A field's value, beside fields holding ids and dates: a record of a person.
    expect(listed('{ "name": "Kowalczyk", "id": "u_123", "created": "2024-01-01T10:00", "team": "api_v2" }', 'Kowalczyk')).to.equal(false);
    expect(listed('name: Kowalczyk, id: u_123, created: 2024-01-01, team: api_v2', 'Kowalczyk')).to.equal(false);
    // Handles beside a person's full name: a list of people ("KenHV, Khalila, Koichi ITO").
    expect(listed('Juan V\u00e1squez, KenHV, Khalila, +Koichi ITO, XhmikosR, mertkahyaoglu', 'Khalila')).to.equal(false);
    expect(listed('KenHV, Khalila, XhmikosR, mertkahyaoglu', 'Khalila')).to.equal(true);
    // Handles and mailboxes make it a list of people too.
    expect(listed('Thanks to @jsmith_42, @dev2, Brzęczyszczykiewicz and @ops_team', 'Brzęczyszczykiewicz')).to.equal(false);
    expect(listed('Reviewed-by: js_42, ops.team, Brzęczyszczykiewicz, anna@example.org', 'Brzęczyszczykiewicz')).to.equal(false);
    // A comma ending the line before does not join a list that the next line does not go on with.
    expect(listed('Built with OpenSSL, GnuTLS, wolfSSL\nKowalczyk wrote the docs, tests and examples.', 'Kowalczyk')).to.equal(false);
  });

  it('reads a font stack’s items as typefaces: a font property’s value, or a list with a generic family', () => {
    const font = atValue(inFontStack);
    expect(font("--sans: system-ui, 'Segoe UI', Roboto, sans-serif;", 'Roboto')).to.equal(true);
    expect(font('code { font-family: Consolas, "Liberation Mono", Menlo, Courier, monospace; }', 'Courier')).to.equal(true);
    expect(font("body { font-family: Georgia, 'Times New Roman'; }", 'Georgia')).to.equal(true);
    expect(font('<text x="0" font-family="Virgil, Segoe UI Emoji" font-size="28px">', 'Virgil')).to.equal(true);
    expect(font('font: 12px Helvetica, Arial', 'Helvetica')).to.equal(true);
    // Not a list of people, nor a word inside an item, nor a generic family's name in prose.
    expect(font('Authors: Anna Smith, Roberto, monospace fans', 'Roberto')).to.equal(false);
    expect(font('Thanks to Roberto, Georgia and Anna: serif fonts.', 'Georgia')).to.equal(false);
    expect(font('font-family: Adobe Garamond Pro, serif', 'Garamond')).to.equal(false);
    // A surname ending on "font" names no property; a label is no CSS property; math and emoji are words too.
    expect(font('Lafont: Marie, Anna, Pierre', 'Anna')).to.equal(false);
    expect(font('Note: Roberto, Georgia, serif', 'Roberto')).to.equal(false);
    expect(font('reviewers: Okafor, Kowalczyk, emoji', 'Okafor')).to.equal(false);
    // A family of several words is one item ("Noto Sans"); a word inside one is none ("Adobe Garamond Pro").
    expect(font('font-family: Roboto, "Helvetica Neue", "Noto Sans", sans-serif;', 'Noto')).to.equal(true);
    // A stack goes on over lines.
    expect(font("  --monospace: 'SFMono-Regular', Consolas,\n    'Liberation Mono', Menlo, Courier, monospace;", 'Menlo')).to.equal(true);
    const css = "h1 { font-family: Georgia, serif; } /* by Anna Kowalska */";
    expect(detect(css).map((f) => f.value)).to.deep.equal(['Anna Kowalska']);
  });
});
