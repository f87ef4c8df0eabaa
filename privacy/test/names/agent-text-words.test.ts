import { expect } from 'chai';
import { detect } from '../../src/detect.js';
import {
  initialJoinedToWord,
  inProductTokens,
  isDateWords,
  isDefinedTerm,
  isIdentifierWord,
  namesARelease,
  namesSoftware,
  onManPageHeader,
  opensOptionDescription,
  writtenLowerCase,
} from '../../src/names/agent-text-words.js';
import { declaresType } from '../../src/names/type-names.js';
import { atValue } from './hand-spans.js';

const people = (text: string): string[] => detect(text).filter((f) => f.type === 'PERSON').map((f) => f.value);

describe('privacy: what agent text makes look like a name', () => {
  it('reads a weekday and month before a day and time as a date, a lone month or a name before other digits not', () => {
    const at = atValue(isDateWords);
    expect(at('Date:   Sun Nov 13 18:05:44 2016 +0700', 'Sun Nov')).to.equal(true);
    expect(at('Date:   Thu Sep 29 22:15:37 2011', 'Thu')).to.equal(true);
    expect(at('Date: Thu, 1 Jun 2017 10:00', 'Thu')).to.equal(true);
    expect(at('Sun Nov wrote 3 letters', 'Sun Nov')).to.equal(false);
    expect(at('Jan Kowalski 12 10:00', 'Jan Kowalski')).to.equal(false);
  });

  it('tells identifiers and contractions from names that capitalise inside', () => {
    for (const w of ['LogLevel', 'CreatedBy', 'DevTools', "Didn't", 'Can’t']) expect(isIdentifierWord(w), w).to.equal(true);
    for (const w of ['McDonald', 'MacKenzie', 'DeVito', 'LaToya', 'DesJarlais', 'VaGla', 'Anna', 'Jean-Luc']) expect(isIdentifierWord(w), w).to.equal(false);
  });

  it('finds a word written in lower case as a word of its own, not as part of an address or dotted name', () => {
    expect(writtenLowerCase('Fichero de datos; el fichero ausente', 'Fichero', 0)).to.equal(true);
    expect(writtenLowerCase('$logger->info(); Logger', 'Logger', 17)).to.equal(true);
    expect(writtenLowerCase('Jade Alglave <jade.alglave@ens-lyon.fr>', 'Jade', 0)).to.equal(false);
    expect(writtenLowerCase('initiated by me, Osamu Aoki <osamu at debian dot org>', 'Osamu', 17)).to.equal(false);
    expect(people('The Debian Reference was initiated by me, Osamu Aoki <osamu at debian dot org>, as a memo.')).to.deep.equal(['Osamu Aoki']);
    expect(writtenLowerCase('Ficheros', 'Ficheros', 0)).to.equal(false);
    // Only the text near the word is read: 40 KB away it is another part of the text.
    const far = `Fichero ${'x '.repeat(20_000)}el fichero`;
    expect(writtenLowerCase(far, 'Fichero', 0)).to.equal(false);
    expect(writtenLowerCase(far, 'Fichero', far.length - 20)).to.equal(true);
  });

  it("reads a man page's header line by the page's name at both ends", () => {
    const text = 'TAR(1)                   General Commands Manual                  TAR(1)\n\nNAME\n       tar - an archiver\nTAR(1) by Anna Nowak\n';
    expect(onManPageHeader(text, text.indexOf('Commands'))).to.equal(true);
    expect(onManPageHeader(text, text.indexOf('Anna'))).to.equal(false);
    expect(people('tty(4)                     Kernel Interfaces Manual                     tty(4)\n')).to.deep.equal([]);
    expect(people('use std::{\n    sync::Arc,\n    time::Instant,\n};\n')).to.deep.equal([]);
  });

  it("reads the words of a user-agent or server string as products', not people's", () => {
    const ua = '"User-Agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15",\n';
    expect(inProductTokens(ua, ua.indexOf('Gecko'))).to.equal(true);
    expect(inProductTokens(ua, ua.indexOf('Mac OS'))).to.equal(true);
    const server = 'Server: Apache/2.4.41 (Ubuntu) OpenSSL/1.1.1f mod_wsgi/4.6.8 Python/3.8\n';
    expect(inProductTokens(server, server.indexOf('Ubuntu'))).to.equal(true);
    // One product token is not enough, and the next line or quoted value is apart.
    expect(inProductTokens('Anna Nowak shipped app/2 today.', 0)).to.equal(false);
    const after = `${ua}"reviewer": "Gordon Freeman"\n`;
    expect(inProductTokens(after, after.indexOf('Gordon'))).to.equal(false);
    expect(people(`${ua}Signed-off-by: Anna Nowak <anna@example.com>\n`)).to.deep.equal(['Anna Nowak']);
    expect(people(ua)).to.deep.equal([]);
  });

  it('reads a name before or ending on a word for software as a product', () => {
    const at = atValue(namesSoftware);
    expect(at('A valid Mandrill API key', 'Mandrill')).to.equal(true);
    expect(at('the Wildfire Plugin, Protocol', 'Wildfire Plugin')).to.equal(true);
    expect(at('Elastic Search handler', 'Elastic Search')).to.equal(true);
    expect(at('Anna Kowalska reviewed the API', 'Anna Kowalska')).to.equal(false);
    expect(at('Plugin', 'Plugin')).to.equal(false);
    expect(at('If SHELL is not set, the Bourne shell is assumed.', 'Bourne')).to.equal(true);
    expect(at('Free Pascal, Delphi and Kylix binding written by Christophe Espern.', 'Kylix')).to.equal(true);
    expect(at('Retrigger CI (pull from Docker Hub timed out)', 'Docker')).to.equal(true);
    expect(at('Added GCC 9 to Travis CI to compile.', 'Travis')).to.equal(true);
    // "ci" in Italian follows names: only the capitals are continuous integration.
    expect(at('Mario ci ha detto tutto.', 'Mario')).to.equal(false);
    // After a known given name the last word is a surname ("Anna Engine").
    expect(at('Anna Engine retired.', 'Anna Engine')).to.equal(false);
    expect(people('    $apiKey  A valid Mandrill API key\n')).to.deep.equal([]);
  });

  it("reads a release's code name beside its product and version as no name, and a cited author as one", () => {
    const release = atValue(namesARelease);
    expect(release('- Update macos.md, remove Catalina (macOS 10.15) ([#9405])', 'Catalina')).to.equal(true);
    expect(release('before Debian 11 (Bullseye), unprivileged user namespaces', 'Bullseye')).to.equal(true);
    expect(release('a bug in jemalloc in combination with macOS Catalina. See #1234', 'Catalina')).to.equal(true);
    expect(release('the Ubuntu Jammy image', 'Jammy')).to.equal(true);
    expect(release('As Kowalczyk (2019) showed, the method works.', 'Kowalczyk')).to.equal(false);
    expect(release('Ask Kowalczyk (room 12) today', 'Kowalczyk')).to.equal(false);
  });

  it("reads an option's description and a licence's defined term as no name", () => {
    const option = (text: string, word: string): boolean => opensOptionDescription(text, text.indexOf(word));
    expect(option("      --pointer=STR         Pointer to the current line (default: '>')", 'Pointer')).to.equal(true);
    expect(option('  -o, --output <file>\tOutput file', 'Output')).to.equal(true);
    expect(option('  -v, --verbose   Verbose output\n  -q  Quiet', 'Quiet')).to.equal(true);
    // One space is no column gap; a word after prose is no description.
    expect(option('  --anna Anna wrote it', 'Anna')).to.equal(false);
    expect(option('Thanks to --all of you, Anna', 'Anna')).to.equal(false);
    const term = atValue(isDefinedTerm);
    expect(term('promotional purposes (the "Waiver"). Affirmer makes', 'Waiver')).to.equal(true);
    expect(term('hereinafter \u201cLicensee\u201d', 'Licensee')).to.equal(true);
    expect(term('I asked "Kowalska" twice', 'Kowalska')).to.equal(false);
    expect(term('the "Waiver\'', 'Waiver')).to.equal(false);
  });

  it('reads Java, C# and Go declarations as type names', () => {
    const code = 'private final Gson gson = new Gson();\nvar stack Stack\nfunc f(s *Buffer, buffer *Buffer)';
    for (const w of ['Gson', 'Stack', 'Buffer']) expect(declaresType(code, w), w).to.equal(true);
    expect(declaresType('Anna met Tom at noon; the anna.Tom field', 'Anna')).to.equal(false);
    expect(declaresType('Grace grace', 'Grace')).to.equal(true);
    expect(declaresType('Gracegrace and xgrace Grace', 'Grace')).to.equal(false);
  });

  it('finds no person in dates, CI steps, code or a man page table, and still the people beside them', () => {
    expect(people('commit 1a2b3c\nAuthor: Andrew Gallant <jamslam@gmail.com>\nDate:   Sun Sep 11 13:26:53 2016 -0400\n\n    Fix the walker.\n')).to.deep.equal(['Andrew Gallant']);
    expect(people('    steps:\n      - name: Checkout old version\n        uses: actions/checkout@v4\n      - name: Set up JDK 11\n')).to.deep.equal([]);
    expect(people('Name: Anna Kowalska\nI spoke to Dervla Wigglesworth in accounts this morning.')).to.deep.equal(['Anna Kowalska', 'Dervla Wigglesworth']);
    // One capitalised word no list knows, then more words: a step's name; alone, or before "and", a person's.
    expect(people('    steps:\n      - name: Check API compatibility\n        run: mvn verify\n')).to.deep.equal([]);
    expect(people('Reviewer: Okonkwo and Chidi\nName: Okonkwo\n')).to.deep.equal(['Okonkwo', 'Chidi', 'Okonkwo']);
    expect(people('                        name: Ok(alias),\n')).to.deep.equal([]);
    expect(people('  private final Gson gson = new Gson();\n  /** Whether some Gson APIs are lenient. */\n')).to.deep.equal([]);
    const table =
      '       .cf          │ Fichero de configuración\n       .dat         │ Fichero de datos\n       .al          │ Fichero Perl de autocarga\n       Copie el fichero antes.\n';
    expect(people(table)).to.deep.equal([]);
    // A given name that is also a common word keeps a name it opens: "mark" elsewhere does not undo "Mark Nudelman".
    expect(people('Press m to mark the line.\n\nAUTOR\n       Mark Nudelman\n')).to.deep.equal(['Mark Nudelman']);
  });

  // The kinds below are the agent-text set's dev part's (test/fixtures/agent-text), in texts written here.
  it('finds no person in a word the text uses as code, known name or not, and still the people beside it', () => {
    const java =
      'import com.fasterxml.jackson.core.JsonFactory;\nimport com.google.gson.Gson;\n\n/**\n * Measure Gson and Jackson parsing and binding performance.\n *\n * @author Inder Singh\n */\n';
    expect(people(java)).to.deep.equal(['Inder Singh']);
    const php = 'diff --git a/src/Monolog/Logger.php b/src/Monolog/Logger.php\n@@ -332,7 +332,7 @@ class Logger implements LoggerInterface\n';
    expect(people(php)).to.deep.equal([]);
    const go = 'func TestCompletionCobraFlags(t *testing.T) {\n\t// Test that when DisableFlagParsing==false, Cobra completes the flags itself\n}\n';
    expect(people(go)).to.deep.equal([]);
    const rust = 'Author: Andrew Gallant <jamslam@gmail.com>\n\n    Disable the test on darwin.\n\n+// TODO(burntsushi): Darwin doesn\'t like this test.\n+#[cfg(not(darwin))]\n';
    expect(people(rust)).to.deep.equal(['Andrew Gallant']);
    const trace = '\t\t\t\tLocation:     GoMod,\n\t\t\t},\n\t}\n\tgot[0].Location = GoMod\n';
    expect(people(trace)).to.deep.equal([]);
    // A handle that joins the person's names is no code: the name stays, on both lines ("Ben" alone in the second).
    const ben = people('Author: French Ben <FrenchBen@users.noreply.github.com>\n\n+// Copyright 2016 French Ben. All rights reserved.\n');
    expect(ben).to.have.length(2);
    expect(ben[0]).to.equal('French Ben');
    expect(ben[1]).to.contain('Ben');
  });

  it("finds no person in a tool's name, a command's or a product's, in a man page", () => {
    const tar =
      'SYNOPSIS\n       tar -x [-f ARCHIV] [OPTIONEN]\n\n       Sparse-Formaten finden Sie im GNU Tar Manual, Anhang D.\n       Der Exit-Code von Tar zeigt an, ob es die Archive verarbeiten konnte.\n';
    expect(people(tar)).to.deep.equal([]);
    expect(people('       ncpfs  is a network filesystem that supports the NCP protocol, used\n              by Novell NetWare.  It was removed from the kernel.\n')).to.deep.equal([]);
    expect(people('The senator, Scott DesJarlais, spoke.')).to.deep.equal(['Scott DesJarlais']);
    // A given name that is also a word and a command of the text opens a name, not a tool's title.
    const vim = 'See mark(1) for the command.\nPatch 7.1.314\nProblem: crash. (Mark Brader)\nFiles: src/ex_docmd.c\n';
    expect(people(vim)).to.deep.equal(['Mark Brader']);
  });

  it('finds no person in a noun the text writes in compounds, nor in a declined form of a word it writes alone', () => {
    const de =
      '       --same-owner\n              entpackt Dateien mit dem aufrufenden Benutzer als Besitzer (Voreinstellung für\n              den Systemverwalter). Die UID (Benutzerkennung) des Besitzers oder ein Benutzername.\n';
    expect(people(de)).to.deep.equal([]);
    expect(people('Pakiet został przygotowany dla Debiana przez zespół Debian.')).to.deep.equal([]);
    // A declined surname beside the full name the tagger found stays a name.
    expect(people('Autorzy: Richard Stallman i Jim Meyering. Poprawki Jima Meyeringa.')).to.include('Jima Meyeringa');
  });

  it("finds no person in a known name opening a table's cell beside its lower-case form", () => {
    const table =
      '       .mm          │ Fuentes para groff(1) en formato mm\n       .mod         │ Fuentes Modula-2 para módulos\n       .bdf         │ Fichero de fuentes X\n';
    expect(people(table)).to.deep.equal([]);
  });

  it("finds no person in a word no list knows opening a table's cell before a phrase in lower case", () => {
    const table = '       .cgi         │ Guión o programa de generación de contenido\n       .tk          │ Guión tcl/tk\n';
    expect(people(table)).to.deep.equal([]);
  });

  it('reads one to four capitals joined to a common word as a tool or a type, not a handle or a name', () => {
    const common = (w: string): boolean => ['make', 'unit', 'code', 'status', 'session', 'brick'].includes(w.toLowerCase());
    for (const w of ['CMake', 'JUnit', 'XCode', 'OSStatus', 'URLSession', 'WEBrick']) expect(initialJoinedToWord(w, common), w).to.equal(true);
    for (const w of ['SGengler', 'KKeneally', 'GIbson', 'JAIhhooo', 'Make', 'McDonald', 'ABCDEStatus']) expect(initialJoinedToWord(w, common), w).to.equal(false);
    expect(people('  init(_ host: String, _ trust: SecTrust, _ status: OSStatus) {')).to.deep.equal([]);
    expect(people('README: Add small note about CMake on Windows.')).to.deep.equal([]);
  });

  it("finds no person in capitalised words the tagger cut off after a particle, unless a known name opens them", () => {
    expect(people('     .wml         │ Fichero fuente para Meta Lenguaje del Web (Web Meta Language)\n')).to.deep.equal([]);
    expect(people('Ich traf Julien de Vries gestern.')).to.deep.equal(['Julien de Vries']);
  });

  it("finds no person in a word no list knows inside a heading's run of capitalised common words", () => {
    expect(people('SYNOPSIS\n       #include <stdlib.h>\n\n   Feature Test Macro Requirements for glibc (see feature_test_macros(7)):\n')).to.deep.equal([]);
    expect(people('Yesterday Jane Smith Wrote the report.')).to.include('Jane Smith');
  });

  it("finds no person in a lower-case name key's value no list knows, a Rust derive list, or a product before 'syntax'", () => {
    expect(people('jobs:\n  analyze:\n    name: Analyze\n    runs-on: ubuntu-latest\n')).to.deep.equal([]);
    expect(people('---\nname: Syntax Request\nabout: Request adding a new syntax\n---\n')).to.deep.equal([]);
    expect(people('struct Person {\n    name: String,\n    height: f64,\n}\n')).to.deep.equal([]);
    expect(people('#[derive(Copy, Clone, Debug, PartialEq, Eq)]\npub enum LineChange {}\n')).to.deep.equal([]);
    expect(people('- Upgraded Julia syntax to fix a highlighting bug\n')).to.deep.equal([]);
    // A list's name in the value, or a label written as prose writes it, is still a person's.
    expect(people('team:\n  - name: Anna Kowalska\n    role: lead\n')).to.deep.equal(['Anna Kowalska']);
    expect(people('Name: Okonkwo Chidi\n')).to.deep.equal(['Okonkwo Chidi']);
  });

  it("finds a git header's or trailer's person whole, however the name is written", () => {
    const log =
      'commit e9dc6e55\nAuthor: TJ Holowaychuk <tj@vision-media.ca>\nDate:   Wed May 7 08:00:00 2014 +0200\n\n    Fix typo\n\n' +
      '    Co-authored-by: Boy van Duuren <boy.van.duuren@example.nl>\n    Signed-off-by: Wong Hoi Sing Edison <hswong3i@example.com>\n';
    expect(people(log)).to.deep.equal(['TJ Holowaychuk', 'Boy van Duuren', 'Wong Hoi Sing Edison']);
    expect(people('Author: Jan T. Sott <git@example.com>')).to.deep.equal(['Jan T. Sott']);
    expect(people("Author: Alexander 'Leo' Bergolth <leo@example.at>")).to.deep.equal(["Alexander 'Leo' Bergolth"]);
    expect(people('Author: Jefts, Richard <rjefts@example.com>')).to.deep.equal(['Jefts, Richard']);
    // A bot or a team is no person.
    expect(people('Author: dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>')).to.deep.equal([]);
    expect(people('Author: The Team <team@example.com>')).to.deep.equal([]);
  });
});
