import { expect } from 'chai';
import { RANK_CONTEXT, RANK_FORMAT, type Candidate } from '../../src/recognizer.js';
import type { TaggedSpan } from '../../src/names/name-tagger.js';
import { addTaggedNames } from '../../src/names/tagged-names.js';
import { listMatch, span } from './hand-spans.js';

// The rules that decide which of the tagger's spans become PERSON candidates and which list matches its places
// and organisations overrule, on spans written by hand (the margins as the tagger would give them).

function people(text: string, spans: TaggedSpan[], listed: Candidate[] = [], common: readonly string[] = []): string[] {
  const candidates = [...listed];
  addTaggedNames(text, spans, candidates, (w) => common.includes(w));
  return candidates.filter((c) => c.type === 'PERSON').map((c) => text.slice(c.start, c.end));
}

describe('privacy: which tagger spans become names', () => {
  it('takes a sure name, leaving a title outside it', () => {
    const text = 'Yesterday Dr Okonkwo signed.';
    expect(people(text, [span(text, 'Okonkwo', 'PER', 30)])).to.deep.equal(['Okonkwo']);
    expect(people(text, [span(text, 'Dr Okonkwo', 'PER', 30)])).to.deep.equal(['Okonkwo']);
  });

  it('drops a sentence-opening word the tagger is unsure of, or trims it from a longer name', () => {
    const text = 'Ieri Bianchi ha parlato.';
    expect(people(text, [span(text, 'Ieri Bianchi', 'PER', 1)])).to.deep.equal([]);
    expect(people(text, [span(text, 'Ieri Bianchi', 'PER', 1, { restConfidence: 25 })])).to.deep.equal(['Bianchi']);
    expect(people(text, [span(text, 'Ieri Bianchi', 'PER', 6, { firstCommon: true, restConfidence: 25 })])).to.deep.equal(['Bianchi']);
    // A common word the tagger is sure of opening a longer name stays in it ("Frank", "Guy" are words too).
    const sure = 'Frank Schlömer scored twice.';
    expect(people(sure, [span(sure, 'Frank Schlömer', 'PER', 28, { firstCommon: true })])).to.deep.equal(['Frank Schlömer']);
    const alone = 'Steuerliche Identifikationsnummer 47';
    expect(people(alone, [span(alone, 'Steuerliche', 'PER', 6)])).to.deep.equal([]);
  });

  it('takes a lone word at a lower margin beside a verb of saying, an office or role, a relative for people or an age', () => {
    const cases: Array<[string, string]> = [
      ['Chernomyrdin said on Thursday the talks went well.', 'Chernomyrdin'],
      ['" Das reicht nicht " , erklärte Götschow am Abend.', 'Götschow'],
      ['Uitstel is geen afstel , zegt Durant nu.', 'Durant'],
      ['No habrá acuerdo , dijo Etxeberria ayer.', 'Etxeberria'],
      ['Non ci sarà accordo , spiega Brambillaschi.', 'Brambillaschi'],
      ['Nie będzie porozumienia , powiedział Chrząszczewicz.', 'Chrząszczewicz'],
      ['Il ne viendra pas , affirme Lefébure.', 'Lefébure'],
      ['Die Zahlen hält Minister Hartinger für überholt.', 'Hartinger'],
      ['Lo ha detto il presidente Brambillaschi ieri.', 'Brambillaschi'],
      ['Estes , whose only win came in 1995 , led.', 'Estes'],
      ['Bernardin , 68 , underwent surgery.', 'Bernardin'],
      ['Das sah auch Trainer Sammers so.', 'Sammers'],
      ['Die Familie Nadscharow möchte zurück.', 'Nadscharow'],
      ['Het is geen afstel , aldus Vanderhaeghenbroek.', 'Vanderhaeghenbroek'],
      // A German compound ending on a role or an office.
      ['Das erwartet Handelsminister Grefowski nicht.', 'Grefowski'],
      ['Das sagte SPD-Vizefraktionschef Körperlein gestern.', 'Körperlein'],
    ];
    for (const [text, name] of cases) {
      // Opening a sentence at 20, or mid-sentence at 5: below the margins a word needs with nothing beside it.
      const margin = text.startsWith(name) ? 20 : 5;
      expect(people(text, [span(text, name, 'PER', margin)]), text).to.deep.equal([name]);
      const plain = text.replace(/said|erklärte|zegt|dijo|spiega|powiedział|affirme|Handelsminister|SPD-Vizefraktionschef|Minister|presidente|whose|68 ,|Trainer|Familie|aldus/, 'then');
      expect(people(plain, [span(plain, name, 'PER', margin)]), plain).to.deep.equal([]);
    }
  });

  it('takes an unsure word in a list beside a sure name: a comma, a dash, a slash or "and" between', () => {
    const text = 'Danach trafen Wright und Hendrie , Kamps - Klinkert .';
    const spans = (sure: number): TaggedSpan[] => [
      span(text, 'Wright', 'PER', sure),
      span(text, 'Hendrie', 'PER', 3),
      span(text, 'Kamps', 'PER', 9),
      span(text, 'Klinkert', 'PER', 1),
    ];
    expect(people(text, spans(30))).to.deep.equal(['Wright', 'Hendrie', 'Kamps']);
    // Beside a name the tagger is not sure of, the margins stand.
    expect(people(text, spans(12))).to.deep.equal(['Wright', 'Kamps']);
    // Words between are no list.
    const prose = 'Danach trafen Wright gestern Hendrie .';
    expect(people(prose, [span(prose, 'Wright', 'PER', 30), span(prose, 'Hendrie', 'PER', 3)])).to.deep.equal(['Wright']);
  });

  it('drops field labels, products, headings, lone letters and names in code', () => {
    const label = 'Handy: 0160 2866473';
    expect(people(label, [span(label, 'Handy', 'PER', 40)])).to.deep.equal([]);
    // A sure word before a colon and a sentence is a speaker; unsure, or a word written in lower case, a label.
    const minutes = 'Krätschmer: Das ist nicht richtig.';
    expect(people(minutes, [span(minutes, 'Krätschmer', 'PER', 38)])).to.deep.equal(['Krätschmer']);
    expect(people(minutes, [span(minutes, 'Krätschmer', 'PER', 12)])).to.deep.equal([]);
    const field = 'Summary: the build failed twice.';
    expect(people(field, [span(field, 'Summary', 'PER', 38, { firstCommon: true })])).to.deep.equal([]);
    // A lone initial with its full stop is no name ("Serie A.").
    const league = 'Il club gioca in Serie A.';
    expect(people(league, [span(league, 'A.', 'PER', 30)])).to.deep.equal([]);
    // An assistant's name before a common word (the lexicon's), a model's name, an acronym or a number is a
    // product; before a surname no list holds, a person.
    const product = 'Fast mode for Claude Code uses Sonnet for it, Claude Desktop and Claude Opus 4.5 the API via Claude SDK.';
    const products = ['Claude Code', 'Sonnet', 'Claude Desktop', 'Claude Opus', 'Claude SDK'].map((w) => span(product, w, 'PER', 40));
    expect(people(product, products, [], ['Code'])).to.deep.equal([]);
    // An initial or a surname in capitals after it is no acronym.
    const initial = 'Claude E. Shannon wrote it.';
    expect(people(initial, [span(initial, 'Claude E. Shannon', 'PER', 40)], [], ['Code'])).to.deep.equal(['Claude E. Shannon']);
    const painter = 'Claude Monet painted it; Gemini Okafor signed.';
    expect(people(painter, [span(painter, 'Claude Monet', 'PER', 40), span(painter, 'Gemini Okafor', 'PER', 40)], [], ['Code'])).to.deep.equal([
      'Claude Monet',
      'Gemini Okafor',
    ]);
    // An operating system or architecture alone, however sure the tagger is ("Unter Linux hat sich …").
    const platform = 'Unter Linux hat sich das geändert, auf PowerPC und Xtensa nicht, unter Cygwin auch.';
    const platforms = ['Linux', 'PowerPC', 'Xtensa', 'Cygwin'].map((w) => span(platform, w, 'PER', 40));
    expect(people(platform, platforms)).to.deep.equal([]);
    // The placeholder text of templates and tests.
    // A French conjunction elided before a pronoun is one token with it; "O’Brien" stays a name.
    const elided = 'Lorsqu’elle prend une valeur vraie, Puisqu’il part.';
    expect(people(elided, [span(elided, 'Lorsqu’elle', 'PER', 40), span(elided, 'Puisqu’il', 'PER', 40)])).to.deep.equal([]);
    const irish = 'Then O’Brien left.';
    expect(people(irish, [span(irish, 'O’Brien', 'PER', 40)])).to.deep.equal(['O’Brien']);
    const filler = 'let s = "Lorem ipsum dolor sit amet"; <p>Lorem Ipsum is simply dummy text</p>';
    expect(people(filler, [span(filler, 'Lorem', 'PER', 40), span(filler, 'Lorem Ipsum', 'PER', 40)])).to.deep.equal([]);
    // A language alone: a translation's credit ("* Catalan (Guillem Jover)").
    const credit = '[ Updated translations ] * Catalan (Guillem Jover). Debian L10n Spanish team';
    expect(people(credit, [span(credit, 'Catalan', 'PER', 40), span(credit, 'Spanish', 'PER', 40)])).to.deep.equal([]);
    // Nor with another word: a distribution ("Gentoo Linux", "Arch Linux").
    const distro = 'Translations for Gentoo Linux and Arch Linux are kept.';
    expect(people(distro, [span(distro, 'Gentoo Linux', 'PER', 30), span(distro, 'Arch Linux', 'PER', 30)])).to.deep.equal([]);
    const heading = 'see Status Workflow below';
    expect(people(heading, [span(heading, 'Status Workflow', 'PER', 9, { commonWords: 2 })])).to.deep.equal([]);
    // A plural acronym is no word of a name, whatever the margin; a name of capitals is still one.
    const ids = 'Opus 4.8, and Haiku 4.5 Model IDs — Fable 5';
    expect(people(ids, [span(ids, 'Model IDs', 'PER', 30)])).to.deep.equal([]);
    const caps = 'Signed by ANNA JONES today';
    expect(people(caps, [span(caps, 'ANNA JONES', 'PER', 30)])).to.deep.equal(['ANNA JONES']);
    const letter = 'Can I withdraw cash?';
    expect(people(letter, [span(letter, 'I', 'PER', 30, { opensSentence: false })])).to.deep.equal([]);
    const code = "import { Thomas, Victoria } from './people';";
    expect(people(code, [span(code, 'Thomas', 'PER', 30), span(code, 'Victoria', 'PER', 30)])).to.deep.equal([]);
  });

  it('finds a known surname alone where the tagger reads it as a place, unless it is sure of the place', () => {
    const text = 'Ask Anna Kowalska. Kowalska wrote back.';
    const lone = (margin: number): TaggedSpan => ({ ...span(text, 'Kowalska', 'LOC', margin), start: 19, end: 27, opensSentence: true });
    expect(people(text, [span(text, 'Anna Kowalska', 'PER', 60), lone(24)])).to.deep.equal(['Anna Kowalska', 'Kowalska']);
    expect(people(text, [span(text, 'Anna Kowalska', 'PER', 60), lone(25)])).to.deep.equal(['Anna Kowalska']);
  });

  it('drops a lone word the text\'s code uses as a type, in its comments too, and keeps it where no code does', () => {
    const code = '/** A Grant without evidence. */\nfunction settle(grant: Grant, usage?: Usage): void {}';
    expect(people(code, [span(code, 'Grant', 'PER', 35)])).to.deep.equal([]);
    const prose = 'Note: Grant said the grant was approved.';
    expect(people(prose, [span(prose, 'Grant', 'PER', 35)])).to.deep.equal(['Grant']);
    // A prose line of a text whose code has the type keeps its person (who is then found alone everywhere, the
    // later-mention rule's choice, as for "Hugh Grant" below).
    const mixed = 'function settle(grant: Grant) {}\nGrant will review it.';
    const at = mixed.lastIndexOf('Grant');
    const candidates: Candidate[] = [];
    addTaggedNames(mixed, [{ ...span(mixed, 'Grant', 'PER', 35), start: at, end: at + 5 }], candidates, () => false);
    expect(candidates.some((c) => c.type === 'PERSON' && c.start === at)).to.equal(true);
    // A full name is no type name, whatever the code around it (and its surname is then found alone as well).
    const full = 'grant: Grant\nAsk Hugh Grant.';
    expect(people(full, [span(full, 'Hugh Grant', 'PER', 35)])).to.include('Hugh Grant');
  });

  it('keeps a sure name before a one- or two-digit score, and drops names beside house numbers', () => {
    const score = 'Wasim Akram b Croft 6 , Saqlain Mushtaq c Knight b Gough 46 .';
    expect(people(score, [span(score, 'Croft', 'PER', 30), span(score, 'Gough', 'PER', 30)])).to.deep.equal(['Croft', 'Gough']);
    // Unsure, the same number may be a house number.
    expect(people(score, [span(score, 'Croft', 'PER', 12)])).to.deep.equal([]);
    const street = 'He lives on the north side of Joaquin Suarez 2906.';
    expect(people(street, [span(street, 'Joaquin Suarez', 'PER', 40)])).to.deep.equal([]);
    const three = 'The bus station is on Peter Zuidhove 188';
    expect(people(three, [span(three, 'Peter Zuidhove', 'PER', 40)])).to.deep.equal([]);
    const before = 'Please return to 6639 Canónigo Valiño 70';
    expect(people(before, [span(before, 'Canónigo Valiño', 'PER', 40)])).to.deep.equal([]);
  });

  it('takes a name after a place word and a particle for the street or square it names', () => {
    // Europeana's French dev part: "rue de Rohan", "rue de Quin" read as people.
    for (const text of ['Marie Le Call , rue de Rohan .', 'Vivo en la Plaza de Colón desde mayo.', 'Negozio in via della Spiga 5.']) {
      const name = text.match(/(?:de|della) (\p{Lu}\p{Ll}+)/u)?.[1] as string;
      expect(people(text, [span(text, name, 'PER', 30)])).to.deep.equal([]);
    }
    // A particle after a given name is a surname's: the person stands.
    const person = 'Ce matin Jean de Rohan est arrivé.';
    expect(people(person, [span(person, 'Jean de Rohan', 'PER', 30)])).to.deep.equal(['Jean de Rohan']);
    const alone = 'Le duc parla avec de Rohan hier.';
    expect(people(alone, [span(alone, 'Rohan', 'PER', 30)])).to.deep.equal(['Rohan']);
  });

  it('reads the first two words of an organisation it opened surely as that organisation again, not a person', () => {
    // As the commercial model reads "Ford Motor Company" (ORG at 8.9, then 0.4) and "Ford" in "Ford Motor shares"
    // (PER at 9.5); invented names, so that no list or firm word decides.
    const text = 'Olsen Torvik Group reported profits; Olsen Torvik shares rose. Olsen said so.';
    const org = span(text, 'Olsen Torvik Group', 'ORG', 8.9, { restConfidence: 0.4 });
    const again = text.indexOf('Olsen Torvik shares');
    const olsen: TaggedSpan = { ...span(text, 'Olsen', 'PER', 9.5), start: again, end: again + 5, opensSentence: false };
    expect(people(text, [org, olsen])).to.deep.equal([]);
    // Unsure where it starts (first word 2), it marks nothing: the person stands.
    expect(people(text, [{ ...org, firstConfidence: 2 }, olsen])).to.deep.equal(['Olsen']);
    // A surname known from another text is not found inside the organisation nor where its words stand again,
    // but is found alone.
    const candidates: Candidate[] = [];
    addTaggedNames(text, [org], candidates, () => false, new Set(['Olsen']));
    expect(candidates.map((c) => [text.slice(c.start, c.end), c.start])).to.deep.equal([['Olsen', text.lastIndexOf('Olsen')]]);
  });

  it('lets a sure place or organisation overrule a list match inside it, but not a greeting read as one', () => {
    const bank = 'Banco Santander abrió una oficina.';
    const santander: Candidate = { type: 'PERSON', start: 6, end: 15, rank: RANK_FORMAT };
    expect(people(bank, [span(bank, 'Banco Santander', 'ORG', 40)], [santander])).to.deep.equal([]);
    // Unsure, it overrules nothing; the tagger's own reading decides ("Santander" a name here, both agree).
    expect(people(bank, [span(bank, 'Banco Santander', 'ORG', 2), span(bank, 'Santander', 'PER', 30, { opensSentence: false })], [santander]))
      .to.deep.equal(['Santander', 'Santander']);
    const thanks = 'Thanks Jane. Could you confirm?';
    const jane: Candidate = { type: 'PERSON', start: 7, end: 11, rank: RANK_FORMAT };
    expect(people(thanks, [span(thanks, 'Thanks Jane', 'ORG', 18)], [jane])).to.deep.equal(['Jane']);
  });

  it('splits a name at a title inside it: the name before it, or after one greeting word', () => {
    const signOff = 'Mit freundlichen Grüßen, Matti Teufel Dr. Madubuko';
    expect(people(signOff, [span(signOff, 'Matti Teufel Dr. Madubuko', 'PER', 40, { opensSentence: false })])).to.deep.equal(['Matti Teufel']);
    const dear = 'Szanowna Pani Baldwin, dziękuję.';
    expect(people(dear, [span(dear, 'Szanowna Pani Baldwin', 'PER', 20)])).to.deep.equal(['Baldwin']);
    const initial = 'Sein Vorgänger Richard M. Daley war Bürgermeister.';
    expect(people(initial, [span(initial, 'Richard M. Daley', 'PER', 30)])).to.deep.equal(['Richard M. Daley']);
  });

  it('drops a rule match that cuts across the names the tagger read, or sits after an initial inside one', () => {
    const pairs = 'Alexandra Fusai Nathalie Tauziat won the doubles.';
    const across: Candidate = { type: 'PERSON', start: 0, end: 'Alexandra Fusai Nathalie'.length, rank: RANK_FORMAT };
    expect(people(pairs, [span(pairs, 'Alexandra Fusai', 'PER', 40), span(pairs, 'Nathalie Tauziat', 'PER', 30, { opensSentence: false })], [across]))
      .to.deep.equal(['Alexandra Fusai', 'Nathalie Tauziat']);
    const text = 'Sein Vorgänger Richard M. Daley war Bürgermeister.';
    const afterTitle: Candidate = { type: 'PERSON', start: text.indexOf('Daley'), end: text.indexOf('Daley') + 5, rank: RANK_CONTEXT };
    expect(people(text, [span(text, 'Richard M. Daley', 'PER', 30, { opensSentence: false })], [afterTitle])).to.deep.equal(['Richard M. Daley']);
    // A list match running on past the tagger's name ("Mick Jagger Probleme"); not past one ending on a particle.
    const runOn = 'Sie hatten wie Mick Jagger Probleme mit ihrem Visum.';
    const long: Candidate = { type: 'PERSON', start: runOn.indexOf('Mick'), end: runOn.indexOf(' mit'), rank: RANK_FORMAT };
    expect(people(runOn, [span(runOn, 'Mick Jagger', 'PER', 50, { opensSentence: false })], [long])).to.deep.equal(['Mick Jagger']);
    const particle = 'Un libro di Julien de Lallande Poydras.';
    const whole: Candidate = { type: 'PERSON', start: particle.indexOf('Julien'), end: particle.indexOf('.'), rank: RANK_FORMAT };
    expect(people(particle, [span(particle, 'Julien de', 'PER', 30, { opensSentence: false })], [whole])).to.include('Julien de Lallande Poydras');
    const elided = 'Il figliuol prodigo di Gabriele D\' Annunzio.';
    const full: Candidate = { type: 'PERSON', start: elided.indexOf('Gabriele'), end: elided.indexOf('.'), rank: RANK_FORMAT };
    expect(people(elided, [span(elided, 'Gabriele', 'PER', 30, { opensSentence: false })], [full])).to.include("Gabriele D' Annunzio");
    // A title rule's match inside a longer tagger span, no initial before it, still stands: the overlap rules decide.
    const doctor = 'Yesterday Dr Okonkwo signed.';
    const title: Candidate = { type: 'PERSON', start: doctor.indexOf('Okonkwo'), end: doctor.indexOf('Okonkwo') + 7, rank: RANK_CONTEXT };
    expect(people(doctor, [span(doctor, 'Yesterday Dr Okonkwo', 'PER', 30, { opensSentence: false })], [title])).to.include('Okonkwo');
  });

  it('drops a lone list surname the tagger read as no name, and keeps given names and context matches', () => {
    const text = 'Kurse, die sich an Frauen richten, mit Anna.';
    const frauen: Candidate = { type: 'PERSON', start: text.indexOf('Frauen'), end: text.indexOf('Frauen') + 6, rank: RANK_FORMAT };
    const anna: Candidate = { type: 'PERSON', start: text.indexOf('Anna'), end: text.indexOf('Anna') + 4, rank: RANK_FORMAT };
    const cue: Candidate = { type: 'PERSON', start: 0, end: 5, rank: RANK_CONTEXT };
    expect(people(text, [span(text, 'Kurse', 'ORG', 1)], [frauen, anna, cue])).to.deep.equal(['Anna', 'Kurse']);
    expect(people(text, [span(text, 'Frauen', 'PER', 30, { opensSentence: false })], [frauen])).to.deep.equal(['Frauen', 'Frauen']);
    // Right after a capitalised word, a listed surname ends a name the tagger missed.
    const missed = 'I want to add Tünde Hoffmann as a beneficiary.';
    const hoffmann: Candidate = { type: 'PERSON', start: missed.indexOf('Hoffmann'), end: missed.indexOf('Hoffmann') + 8, rank: RANK_FORMAT };
    expect(people(missed, [], [hoffmann])).to.deep.equal(['Hoffmann']);
    expect(people(text, [], [frauen])).to.deep.equal([]);
  });

  it('drops a lone list given name that is also a common word, unless greeted or a speaker', () => {
    const at = listMatch;
    const then = 'Het regent. Dan is er nog de druk van de productie.';
    expect(people(then, [], [at(then, 'Dan')], ['Dan'])).to.deep.equal([]);
    expect(people(then, [], [at(then, 'Dan')], [])).to.deep.equal(['Dan']);
    expect(people(then, [span(then, 'Dan', 'PER', 30, { opensSentence: false })], [at(then, 'Dan')], ['Dan'])).to.deep.equal(['Dan', 'Dan']);
    const greeted = 'NIF-IVA ESB04077141 Hola Rosa,\n Dr. Casanova';
    expect(people(greeted, [], [at(greeted, 'Rosa')], ['Rosa'])).to.deep.equal(['Rosa']);
    const speaker = 'Ana: ¿Quién eres?\nElla: Una amiga.';
    expect(people(speaker, [], [at(speaker, 'Ella')], ['Ella'])).to.deep.equal(['Ella']);
  });

  it('keeps a sure lone given name that is also a dictionary word opening a sentence, unless the training text writes it in lower case', () => {
    // Each word is in COMMON_WORD_GIVEN_NAME_SET; the margin is the tagger's, the lexicon flag the model's.
    const cases: Array<[string, string]> = [
      ['Terry told the committee that he disagreed.', 'Terry'],
      ['Bruno hat gestern das Spiel verloren.', 'Bruno'],
      ['Albert a répondu à la lettre hier soir.', 'Albert'],
      ['César llegó tarde a la reunión del consejo.', 'César'],
      ['Lula cresceu e prosperou enquanto tudo dava certo.', 'Lula'],
    ];
    for (const [text, name] of cases) {
      expect(people(text, [span(text, name, 'PER', 50)]), text).to.deep.equal([name]);
      // The lexicon writes it in lower case ("Grace period", "Will you"): the word, however sure the tagger.
      expect(people(text, [span(text, name, 'PER', 50, { firstCommon: true })]), text).to.deep.equal([]);
      // Under the common-word margin it needs, as mid-sentence.
      expect(people(text, [span(text, name, 'PER', 20)]), text).to.deep.equal([]);
    }
  });

  it('keeps a list match over two names the tagger split', () => {
    const text = 'Pourriez-vous demander à Fleur Richard de relire le projet ?';
    const whole: Candidate = { type: 'PERSON', start: text.indexOf('Fleur'), end: text.indexOf(' de relire'), rank: RANK_FORMAT };
    const found = people(text, [span(text, 'Fleur', 'PER', 32, { opensSentence: false }), span(text, 'Richard', 'PER', 12, { opensSentence: false })], [whole]);
    expect(found).to.include('Fleur Richard');
  });

  it('keeps a list match going on with known surnames after a common-word given name the tagger read alone', () => {
    const text = 'Beste Grüße,\nMaren Weight\nSteuer-ID: 53916284';
    const whole: Candidate = { type: 'PERSON', start: text.indexOf('Maren'), end: text.indexOf('\nSteuer'), rank: RANK_FORMAT };
    expect(people(text, [span(text, 'Maren', 'PER', 45, { opensSentence: true })], [whole])).to.include('Maren Weight');
    // Not over a word the lists do not hold as a surname ("Mick Jagger Probleme" keeps the tagger's name).
    const more: Candidate = { type: 'PERSON', start: whole.start, end: text.indexOf(':'), rank: RANK_FORMAT };
    expect(people(text, [span(text, 'Maren', 'PER', 45, { opensSentence: true })], [more])).to.deep.equal(['Maren']);
  });

  it('reads Markdown links and emphasis and HTML elements around a name as markup, not code', () => {
    const md = '159. [Mark Beckwith](https://github.com/wythe) fixed a typo. * [__Matteo Collina__](https://github.com/mcollina)';
    expect(people(md, [span(md, 'Mark Beckwith', 'PER', 25), span(md, 'Matteo Collina', 'PER', 30)])).to.deep.equal(['Mark Beckwith', 'Matteo Collina']);
    const html = '<dt>Author:</dt> <dd>Matt Hickman (mhickman@palantir.com)</dd>';
    expect(people(html, [span(html, 'Matt Hickman', 'PER', 25)])).to.deep.equal(['Matt Hickman']);
    // Code stays code: a generic, a member, an index, an import list; a link to the word's own site is a project's.
    const code = 'List<Anna> a; user.Smith = 1; x = arr[Nowak]; import { Thomas } from "./x";';
    const spans = ['Anna', 'Smith', 'Nowak', 'Thomas'].map((w) => span(code, w, 'PER', 30));
    expect(people(code, spans)).to.deep.equal([]);
    const site = 'a mature replacement for [Babel](https://babeljs.io/), thanks to [Mike](https://github.com/Mike-Leo-Smith)';
    expect(people(site, [span(site, 'Babel', 'PER', 30), span(site, 'Mike', 'PER', 30)])).to.deep.equal(['Mike']);
  });

  it('keeps a surname that is a place word after a known given name the tagger is sure of, not a place or firm', () => {
    const ward = 'Dear Anna Ward, I hope you are well.';
    expect(people(ward, [span(ward, 'Anna Ward', 'PER', 25)])).to.deep.equal(['Anna Ward']);
    const hall = 'Yesterday Anna Hall wrote to the committee.';
    expect(people(hall, [span(hall, 'Anna Hall', 'PER', 40)])).to.deep.equal(['Anna Hall']);
    // Unsure, or a firm's or venue's word that is no surname, or a place word opening it: not a person.
    expect(people(hall, [span(hall, 'Anna Hall', 'PER', 12)])).to.deep.equal([]);
    const firm = 'Yesterday Russell Investments wrote; the Hall Orchestra played.';
    expect(people(firm, [span(firm, 'Russell Investments', 'PER', 40), span(firm, 'Hall Orchestra', 'PER', 40)])).to.deep.equal([]);
  });

  it('keeps a known given name and surname the tagger read, word for word, as a place it is unsure of', () => {
    const list = listMatch;
    const es = 'Gracias a Pearl Langrová por su ayuda.';
    expect(people(es, [span(es, 'Pearl Langrová', 'LOC', 5.9)], [list(es, 'Pearl Langrová')])).to.deep.equal(['Pearl Langrová']);
    // A sure reading overrules, and so does any over a longer place ("San Sebastián").
    expect(people(es, [span(es, 'Pearl Langrová', 'LOC', 26)], [list(es, 'Pearl Langrová')])).to.deep.equal([]);
    const city = 'Nos vemos en San Sebastián mañana.';
    expect(people(city, [span(city, 'San Sebastián', 'LOC', 6)], [list(city, 'Sebastián')])).to.deep.equal([]);
  });

  it('keeps a lone word the lexicon writes in lower case after a title, under the common-word margin', () => {
    const pl = 'Wczoraj pan Salas zadzwonił do biura.';
    expect(people(pl, [span(pl, 'Salas', 'PER', 17, { firstCommon: true })])).to.deep.equal(['Salas']);
    const bare = 'Wczoraj Salas zadzwonił do biura.';
    expect(people(bare, [span(bare, 'Salas', 'PER', 17, { firstCommon: true })])).to.deep.equal([]);
  });

  it('leaves a time adverb opening the sentence out of the name the tagger read on from it', () => {
    const text = 'Ieri Franco Ossowski ha scritto al comitato.';
    const read = { ...span(text, 'Ieri Franco Ossowski', 'PER', 20), opensSentence: true, secondStart: text.indexOf('Franco'), restConfidence: 12 };
    expect(people(text, [read])).to.deep.equal(['Franco Ossowski']);
    const dutch = 'Gisteren Anna de Vries schreef.';
    const readNl = { ...span(dutch, 'Gisteren Anna de Vries', 'PER', 20), opensSentence: true, secondStart: dutch.indexOf('Anna'), restConfidence: 12 };
    expect(people(dutch, [readNl])).to.deep.equal(['Anna de Vries']);
  });

  it('keeps a list match of one given name before a known surname the tagger read alone, but a modal opening a question', () => {
    const list = listMatch;
    // The tagger reads "Hope" (a common word) and "Elke" (Dutch "each") as no name, the surname as one.
    const hope = 'Yesterday Hope Thompson wrote to the committee.';
    expect(people(hope, [span(hope, 'Thompson', 'PER', 38)], [list(hope, 'Hope Thompson')])).to.include('Hope Thompson');
    const elke = 'Gisteren schreef Elke Lešević aan de commissie.';
    expect(people(elke, [span(elke, 'Lešević', 'PER', 20)], [list(elke, 'Elke Lešević')])).to.include('Elke Lešević');
    const serenity = 'Serenity Němcová wrote to the committee.';
    expect(people(serenity, [span(serenity, 'Němcová', 'PER', 30)], [list(serenity, 'Serenity Němcová')])).to.include('Serenity Němcová');
    // A modal opening a question is the verb; a surname no list holds is the tagger's alone.
    const will = 'Will Thompson come to the meeting?';
    expect(people(will, [span(will, 'Thompson', 'PER', 38)], [list(will, 'Will Thompson')])).to.deep.equal(['Thompson']);
    const unknown = 'Yesterday Hope Okafor wrote.';
    expect(people(unknown, [span(unknown, 'Okafor', 'PER', 38)], [list(unknown, 'Hope Okafor')])).to.deep.equal(['Okafor']);
  });

  it('keeps a list match going on with one word the tagger cannot tell a place from, after a given name it read alone', () => {
    // "Jack London wrote the novel.": five retrains read Jack as a person at 27-37 and London as a place at 0.8-4.2.
    const text = 'Jack London wrote the novel.';
    const whole: Candidate = { type: 'PERSON', start: 0, end: text.indexOf(' wrote'), rank: RANK_FORMAT };
    const read = (londonMargin: number): TaggedSpan[] => [span(text, 'Jack', 'PER', 35, { opensSentence: true }), span(text, 'London', 'LOC', londonMargin)];
    expect(people(text, read(0.8), [whole])).to.include('Jack London');
    // A sure place is the tagger's word: the given name stands alone ("Jack London kam": LOC at 16.7).
    expect(people(text, read(16.7), [whole])).to.deep.equal(['Jack']);
  });
});
