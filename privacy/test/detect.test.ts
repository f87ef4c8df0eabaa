import { expect } from 'chai';
import { detect, detectAll } from '../src/index.js';

describe('privacy/detect', () => {
  it('returns findings sorted by start with their values', () => {
    const text = 'Email jane@example.com, call 07700 900123, NHS 943 476 5919, postcode SW1A 1AA.';
    const findings = detect(text);
    expect(findings.map((f) => [f.type, f.value])).to.deep.equal([
      ['EMAIL', 'jane@example.com'],
      ['PHONE', '07700 900123'],
      ['UK_NHS', '943 476 5919'],
      ['UK_POSTCODE', 'SW1A 1AA'],
    ]);
    for (const f of findings) expect(text.slice(f.start, f.end)).to.equal(f.value);
  });

  it('reads a word man hyphenated at a line end whole, and returns the finding as written', () => {
    // `man` renders a page's credits justified and hyphenated (U+2010): half a name was found, the rest left readable.
    const text =
      'Die deutsche \u00dcbersetzung wurde von Mario Bl\u00e4t\u2010\n       termann <mario@example.org> und Helge Kreutz\u2010\n       mann <debian@example.de> erstellt.';
    const found = detect(text);
    expect(found.map((f) => [f.type, f.value])).to.deep.equal([
      ['PERSON', 'Mario Bl\u00e4t\u2010\n       termann'],
      ['EMAIL', 'mario@example.org'],
      ['PERSON', 'Helge Kreutz\u2010\n       mann'],
      ['EMAIL', 'debian@example.de'],
    ]);
    for (const f of found) expect(text.slice(f.start, f.end)).to.equal(f.value);
    // Half a common word is no name ("Argu" was taken for one), and a mailbox cut so is found whole.
    const manual = 'Ihre Argu\u2010\n       mente argc und argv sind die Argumente. Lucien Gentis <lu\u2010\n       cien.gentis@example.com>';
    expect(detect(manual).map((f) => [f.type, f.value])).to.deep.equal([
      ['PERSON', 'Lucien Gentis'],
      ['EMAIL', 'lu\u2010\n       cien.gentis@example.com'],
    ]);
  });

  it('reads a name wrapped across two lines whole, behind a comment marker too, and returns it as written', () => {
    // Text wrapped at a fixed width breaks lines between a given name and its surname: the line break opened a
    // sentence for the tagger, which found the two halves as two people or left the surname readable.
    const page = 'Rmadison und https://qa.debian.org/madison.php wurden von Christoph\n       Berg <myon@example.org> geschrieben.';
    expect(detect(page).map((f) => [f.type, f.value])).to.deep.equal([
      ['PERSON', 'Christoph\n       Berg'],
      ['EMAIL', 'myon@example.org'],
    ]);
    const comment = '// The parser was written for this project in 2019 by Stefano\n// Zacchiroli, who still maintains it.\nparse(input);';
    const found = detect(comment);
    expect(found.map((f) => [f.type, f.value])).to.deep.equal([['PERSON', 'Stefano\n// Zacchiroli']]);
    for (const f of found) expect(comment.slice(f.start, f.end)).to.equal(f.value);
    // A distribution's name ending a line is no person with the next line's first word.
    expect(detect('Translations of the documentation were maintained for Gentoo\nLinux until 2011.')).to.deep.equal([]);
  });

  it('reads no-break, narrow no-break, figure and thin spaces as spaces, and returns the values as written', () => {
    for (const space of ['\u00a0', '\u202f', '\u2007', '\u2009']) {
      const iban = ['GB82', 'WEST', '1234', '5698', '7654', '32'].join(space);
      const phone = ['020', '7946', '0958'].join(space);
      const text = `IBAN ${iban}, call ${phone}.`;
      expect(detect(text).map((f) => [f.type, f.value]), JSON.stringify(space)).to.deep.equal([['IBAN', iban], ['PHONE', phone]]);
    }
  });

  it('returns nothing for text without PII, and for empty text', () => {
    expect(detect('')).to.deep.equal([]);
    expect(detect('The quarterly report is attached; see section 4.2 and page 17.')).to.deep.equal([]);
  });

  it('lets a checksummed type win an overlap with a format-only one', () => {
    // 943-476-5919 is both a North American phone shape and a valid NHS number.
    expect(detect('Patient ref 943-476-5919').map((f) => f.type)).to.deep.equal(['UK_NHS']);
  });

  it('lets the longer span win between types of the same rank', () => {
    // The IPv4 part of a mapped IPv6 address is inside the longer IPv6 span.
    const [f] = detect('from 2001:db8:85a3::8a2e:370:7334 now');
    expect(f?.value).to.equal('2001:db8:85a3::8a2e:370:7334');
  });

  it('never reports digit runs inside UUIDs or hex digests', () => {
    expect(detect('request 550e8400-e29b-41d4-a716-446655440000 done')).to.deep.equal([]);
    expect(detect('commit 9fceb02d0ae598e95dc970b74767f19372d61af8')).to.deep.equal([]);
    expect(detect('sha256:4111111111111111aa9434765919bb07700900123cc')).to.deep.equal([]);
  });

  it('ignores order ids, timestamps and digit runs that are not PII', () => {
    const text = [
      'Order #4829173650 has shipped.',
      'created_at: 1700000000123',
      'Case 401 023 2138 escalated.',
      'Serial 4111 1111 1111 1112',
      'Version 10.0.19045.3693',
      'const id = 4829173650; // SELECT * FROM t WHERE ts > 1700000000',
    ].join('\n');
    expect(detect(text)).to.deep.equal([]);
  });

  it('processes a pathological 1 MB input and still finds the one planted email', () => {
    const half = 512 * 1024;
    // Shapes that would make a backtracking pattern explode: long digit runs with separators, '@' and
    // '.' runs, colon runs, brackets and hex.
    const noise = '1 2-3.4/5 (6) +7 @a. :b: [EMAIL_ 0x1f 9 9 9 9 9 9 9 9 9 9 9 9 9 9 ';
    const filler = noise.repeat(Math.ceil(half / noise.length)).slice(0, half);
    const text = `${filler} contact jane.doe@example.org now ${filler}`;
    expect(text.length).to.be.greaterThan(1_000_000);
    const emails = detect(text).filter((f) => f.type === 'EMAIL');
    expect(emails.map((f) => f.value)).to.deep.equal(['jane.doe@example.org']);
  });

  it('processes a 1 MB run of one character class without hanging', () => {
    for (const unit of ['1', '1 ', 'a@', ':1', '(1)', 'AB12 ']) {
      const text = unit.repeat(Math.ceil(1_000_000 / unit.length)) + ' x@example.com';
      expect(detect(text).some((f) => f.value === 'x@example.com'), unit).to.equal(true);
    }
  });

  it('finds across a request\'s texts what each names, as if each were read with the others\' surnames', () => {
    // The second look starts from the first reading (no recognizer or tagger runs twice): the same findings as
    // detect with the surnames given.
    // The third text alone: the tagger reads "Kowalska" as a place, unsure (the shipped commercial model finds
    // her alone in "Kowalska wrote back yesterday.", which the research model misread).
    const texts = ['Please reply to Werner Tjaden about the invoice.', 'Tjaden says week 3 is late. Ask Anna Kowalska too.', 'Tell Kowalska we paid.'];
    const all = detectAll(texts);
    const known = new Set(['Tjaden', 'Kowalska']);
    texts.forEach((t, i) => expect(all[i], t).to.deep.equal(detect(t, known)));
    expect(detect(texts[1] as string).map((f) => f.value)).to.deep.equal(['Anna Kowalska']);
    expect(all[1]?.map((f) => f.value)).to.deep.equal(['Tjaden', 'Anna Kowalska']);
    expect(detect(texts[2] as string)).to.deep.equal([]);
    expect(all[2]?.map((f) => f.value)).to.deep.equal(['Kowalska']);
  });
});
