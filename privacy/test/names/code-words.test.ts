import { expect } from 'chai';
import { usedAsCode } from '../../src/names/code-words.js';
import { declinedFormOfWritten, partOfCompounds } from '../../src/names/word-forms.js';

describe('privacy: words agent text uses as code, in compounds or declined', () => {
  const code = (text: string, word: string): boolean => usedAsCode(text, word, text.indexOf(word));

  it('reads a word inside an identifier as code, not inside a handle that joins a name', () => {
    expect(code('// after Cobra tried\nfunc TestCompletionCobraFlags(t *testing.T)', 'Cobra')).to.equal(true);
    expect(code('the Roslyn component: "DebugRoslynComponent"', 'Roslyn')).to.equal(true);
    expect(code('the Buffer; const finalBuffer = 1', 'Buffer')).to.equal(true);
    expect(code('the Jackson parser; jacksonType = x', 'Jackson')).to.equal(true);
    expect(code('Copyright 2016 French Ben.\nAuthor: French Ben <FrenchBen@users.noreply.github.com>', 'French')).to.equal(false);
    expect(code('French Ben, @FrenchBen, https://github.com/FrenchBen', 'French')).to.equal(false);
  });

  it('reads a member, a call, a file, a declaration or an assignment of the word as code', () => {
    expect(code('class Logger implements LoggerInterface', 'Logger')).to.equal(true);
    expect(code('the Logger; see src/Monolog/Logger.php', 'Logger')).to.equal(true);
    expect(code('but Gson escapes; x = new Gson();', 'Gson')).to.equal(true);
    expect(code('use Monolog\\Logger; the Logger', 'Logger')).to.equal(true);
    expect(code('chunks: Buffer[] = []', 'Buffer')).to.equal(true);
    expect(code('case "$os" in\n  Darwin\\ arm64*) get darwin_arm64 ;;', 'Darwin')).to.equal(true);
    // TypeScript's type keyword (the Claude Code request's own source: "type Logger,"); prose with "type" is no code.
    expect(code('import {\n  type Decision,\n  type Logger,\n} from "x";', 'Logger')).to.equal(true);
    expect(code('export type Employee = { id: string }', 'Employee')).to.equal(true);
    expect(code('Please, type Smith in the box.', 'Smith')).to.equal(false);
    expect(code('the GoMod kind\n\ts.Location = GoMod\n', 'GoMod')).to.equal(true);
    expect(code('the GoMod kind\n\ts.Location := GoMod;', 'GoMod')).to.equal(true);
    expect(code('Anna Kowalska wrote to Jackson about it.', 'Jackson')).to.equal(false);
    // A product before its version, anywhere in the block ("GCC and Clang are rejected" beside "Clang 3.4").
    expect(code('GCC and Clang are rejected.\n- Clang 3.4 - 15.0 (and later)', 'Clang')).to.equal(true);
    expect(code('Fix version detection when Ruby 2.7+.', 'Ruby')).to.equal(true);
    // A year, a count, a time, a date or a score is no version; a listed name needs a version that none of them can be.
    expect(code('Smith 2019 and Croft 46, Jones 3 goals', 'Smith')).to.equal(false);
    expect(code('Croft 46, Jones 3 goals', 'Croft')).to.equal(false);
    expect(code('Termin mit Weber 14.30 Uhr. Weber hat zugesagt.', 'Weber')).to.equal(false);
    expect(code('Appuntamento con Brzęczyszczykiewicz 14.30.', 'Brzęczyszczykiewicz')).to.equal(false);
    expect(code('Smith 2.3 shows the proof.', 'Smith')).to.equal(false);
    expect(code('Anruf bei Kowalczyk 12.05., Kowalczyk 3.5 GPA', 'Kowalczyk')).to.equal(false);
    expect(code('Install Smith 2.3.1 first.', 'Smith')).to.equal(true);
    expect(code('Ask Jackson. Then Jackson, and (Jackson) too.', 'Jackson')).to.equal(false);
  });

  it('reads the lower-case form in a package path, brackets, a command or a man reference as code, not in prose or an address', () => {
    expect(code('Measure Gson and Jackson\nimport com.fasterxml.jackson.core.JsonFactory;', 'Jackson')).to.equal(true);
    expect(code('after Cobra tried\nimport "github.com/spf13/cobra"', 'Cobra')).to.equal(true);
    expect(code('Darwin does not like it\n#[cfg(not(darwin))]', 'Darwin')).to.equal(true);
    expect(code('Die Ausgabe von Tar\n       tar -x [-f ARCHIV]', 'Tar')).to.equal(true);
    expect(code('the exit code of Tar\n       tar --create', 'Tar')).to.equal(true);
    expect(code('the exit code of Tar; see tar(1).', 'Tar')).to.equal(true);
    expect(code('Darwin failed on darwin. Again on darwin, sadly', 'Darwin')).to.equal(false);
    expect(code('Jade Alglave <jade.alglave@ens-lyon.fr>', 'Jade')).to.equal(false);
    expect(code('Steele & White: https://fmt.dev/papers/p372-steele.pdf', 'Steele')).to.equal(false);
  });

  it('finds a noun written at the head or the tail of two compounds, not a surname that declines', () => {
    const tar = 'für normale Benutzer. UID (Benutzerkennung), ein Benutzername';
    expect(partOfCompounds(tar, 'Benutzer', tar.indexOf('Benutzer'))).to.equal(true);
    const scan = 'der Scanner; Flachbettscanner oder /dev/usbscanner0';
    expect(partOfCompounds(scan, 'Scanner', scan.indexOf('Scanner'))).to.equal(true);
    const one = 'für normale Benutzer, ein Benutzername';
    expect(partOfCompounds(one, 'Benutzer', 0)).to.equal(false);
    const pl = 'Wrzeszczyk, od Wrzeszczykiego, o Wrzeszczykiem, dla Wrzeszczykowi';
    expect(partOfCompounds(pl, 'Wrzeszczyk', 0)).to.equal(false);
  });

  it('finds a declined form of a word written alone, not of a name the tagger found', () => {
    const deb = 'Pakiet dla Debiana. Projekt Debian rozwija system.';
    expect(declinedFormOfWritten(deb, 'Debiana', deb.indexOf('Debiana'), () => false)).to.equal(true);
    const jim = 'Autorzy: Jim Meyering. Poprawki Meyeringa';
    const person = { start: jim.indexOf('Jim'), end: jim.indexOf('Jim') + 'Jim Meyering'.length };
    const inPerson = (at: number): boolean => at >= person.start && at < person.end;
    expect(declinedFormOfWritten(jim, 'Meyeringa', jim.indexOf('Meyeringa'), inPerson)).to.equal(false);
    expect(declinedFormOfWritten('Debiana i Debianem', 'Debiana', 0, () => false)).to.equal(false);
  });
});
