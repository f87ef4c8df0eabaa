import { expect } from 'chai';
import { NAME_TAGS } from '@gateway/privacy/internals';
import { parseCorpus } from '../src/index.js';
import { inventedSource } from './support/invented-source.js';

const tags = (t: Uint8Array): string[] => [...t].map((i) => NAME_TAGS[i] as string);

describe('names-model: reading corpora', () => {
  it('reads indexed CoNLL sentences, skipping document markers', () => {
    const s = parseCorpus(inventedSource('conll-indexed'), '0\t-DOCSTART-\tO\n\n0\tAnna\tB-PER\n1\tNowak\tI-PER\n2\tlacht\tO\n\n0\tIn\tO\n1\tGdańsk\tB-LOC\n');
    expect(s.map((x) => x.words)).to.deep.equal([['Anna', 'Nowak', 'lacht'], ['In', 'Gdańsk']]);
    expect(tags(s[0]!.tags)).to.deep.equal(['B-PER', 'I-PER', 'O']);
  });

  it('reads GermEval 2014 by its outer labels: OTH as MISC, derived and partial names as none', () => {
    const text = '#\thttp://example.org\t[2010-07-04]\n1\tKohl\tB-PER\tO\n2\tund\tO\tO\n3\tdie\tO\tO\n4\tKohlsche\tB-PERderiv\tO\n5\tÄra\tO\tO\n6\tin\tO\tO\n7\t"\tO\tO\n8\tEcce\tB-OTH\tO\n9\thomo\tI-OTH\tO\n10\tBonn\tB-LOC\tO\n\n#\tx\n1\tFC\tB-ORG\tO\n2\tKickers\tI-ORG\tO\n3\tDarmstadt\tI-ORG\tB-LOC\n';
    const s = parseCorpus(inventedSource('germeval-tsv'), text);
    expect(s.map((x) => x.words.length)).to.deep.equal([10, 3]);
    expect(tags(s[0]!.tags)).to.deep.equal(['B-PER', 'O', 'O', 'O', 'O', 'O', 'O', 'B-MISC', 'I-MISC', 'B-LOC']);
    expect(tags(s[1]!.tags)).to.deep.equal(['B-ORG', 'I-ORG', 'I-ORG']);
  });

  it('turns IOB1 spans into IOB2 and splits OCR words from their punctuation, the label on the letters', () => {
    const [s] = parseCorpus(inventedSource('bio-space'), 'Mijnheer O\nDekker, I-PER\nen O\nJ. I-PER\nThorbecke I-PER\nkwamen. O\n');
    expect(s!.words).to.deep.equal(['Mijnheer', 'Dekker', ',', 'en', 'J.', 'Thorbecke', 'kwamen', '.']);
    expect(tags(s!.tags)).to.deep.equal(['O', 'B-PER', 'O', 'O', 'B-PER', 'I-PER', 'O', 'O']);
  });

  it('reads Europeana\'s B- on every word of a name as one name; punctuation between keeps names apart', () => {
    const [s] = parseCorpus(inventedSource('bio-space'), 'heer O\nJ. B-PER\nM. B-PER\nvan B-PER\nDijk B-PER\nen O\nKalff, B-PER\nSichterman B-PER\nte O\nZwolle B-LOC\nkwamen. O\n');
    expect(s!.words).to.deep.equal(['heer', 'J.', 'M.', 'van', 'Dijk', 'en', 'Kalff', ',', 'Sichterman', 'te', 'Zwolle', 'kwamen', '.']);
    expect(tags(s!.tags)).to.deep.equal(['O', 'B-PER', 'I-PER', 'I-PER', 'I-PER', 'O', 'B-PER', 'O', 'B-PER', 'O', 'B-LOC', 'O', 'O']);
  });

  it('reads word-tab-tag running text (ZEFYS): cut after a full stop, a blank line ends a document, an empty tag is none', () => {
    const text = 'Herr\tO\nCarl\tB-PER\nMeyer\tI-PER\nreiste\tO\nnach\tO\nPotsdam\tB-LOC\n.\tO\nDie\tO\nStadt\t\nlag\tO\nstill\tO\n\nBerlin\tB-LOC\nschwieg\tO\n';
    const s = parseCorpus(inventedSource('bio-tab'), text);
    expect(s.map((x) => x.words)).to.deep.equal([
      ['Herr', 'Carl', 'Meyer', 'reiste', 'nach', 'Potsdam', '.'],
      ['Die', 'Stadt', 'lag', 'still'],
      ['Berlin', 'schwieg'],
    ]);
    expect(tags(s[0]!.tags)).to.deep.equal(['O', 'B-PER', 'I-PER', 'O', 'O', 'B-LOC', 'O']);
    expect(tags(s[1]!.tags)).to.deep.equal(['O', 'O', 'O', 'O']);
    expect(tags(s[2]!.tags)).to.deep.equal(['B-LOC', 'O']);
  });

  it("reads posts (BTC, WNUT 17): WNUT's types as the four, a user handle never a name", () => {
    const text = '@mika_v\tB-PER\nmet\tO\nSenator\tO\nJo\tB-person\nAlvarez\tI-person\nat\tO\nAcme\tB-corporation\nin\tO\nLeeds\tB-location\n\nloved\tO\nDune\tB-creative-work\nby\tO\nRina\tB-PER\n';
    const s = parseCorpus(inventedSource('social-tab'), text);
    expect(s.map((x) => x.words.length)).to.deep.equal([9, 4]);
    expect(tags(s[0]!.tags)).to.deep.equal(['O', 'O', 'O', 'B-PER', 'I-PER', 'O', 'B-ORG', 'O', 'B-LOC']);
    expect(tags(s[1]!.tags)).to.deep.equal(['O', 'B-MISC', 'O', 'B-PER']);
  });

  it('reads Universal NER\'s IOB2 columns (index, word, tag, annotators), skipping its comment lines', () => {
    const raw = '# sent_id = x-0001\n# text = Thanks Vince Kaminski\n1\tThanks\tO\t-\t-\n2\tVince\tB-PER\t-\tstephen\n3\tKaminski\tI-PER\t-\tstephen\n\n# sent_id = x-0002\n1\tHouston\tB-LOC\t-\tblvns\n2\tTexan\tB-OTH\t-\tblvns\n3\tsun\tO\n4\t.\tB-O\t-\tblvns\n';
    const s = parseCorpus(inventedSource('iob2-tsv'), raw);
    expect(s.map((x) => x.words)).to.deep.equal([['Thanks', 'Vince', 'Kaminski'], ['Houston', 'Texan', 'sun', '.']]);
    expect(tags(s[0]!.tags)).to.deep.equal(['O', 'B-PER', 'I-PER']);
    // OTH (nationalities, events) is CoNLL's MISC; the stray B-O some sentences end with is O.
    expect(tags(s[1]!.tags)).to.deep.equal(['B-LOC', 'B-MISC', 'O', 'O']);
  });

  it('reads bare types (KIND): a run of one type is one name, a change of type or an O ends it', () => {
    const s = parseCorpus(inventedSource('io-tsv'), 'Carissima\tO\nTania\tPER\nSchucht\tPER\nda\tO\nRoma\tLOC\nFiat\tORG\n\nGramsci\tPER\n');
    expect(s.map((x) => x.words)).to.deep.equal([['Carissima', 'Tania', 'Schucht', 'da', 'Roma', 'Fiat'], ['Gramsci']]);
    expect(tags(s[0]!.tags)).to.deep.equal(['O', 'B-PER', 'I-PER', 'O', 'B-LOC', 'B-ORG']);
    expect(tags(s[1]!.tags)).to.deep.equal(['B-PER']);
  });

  it("reads KPWr's fine classes as the four: people and characters PER, places and facilities LOC, a person's adjective none", () => {
    const text =
      'Jan B-nam_liv_person\nKowalski I-nam_liv_person\nz O\nPolitechniki B-nam_org_institution\nWrocławskiej I-nam_org_institution\n' +
      'jechał O\nulicą O\nPiłsudskiego B-nam_fac_road\n. O\n \nKopernikańska B-nam_adj_person\nteoria O\n, O\nBóg B-nam_liv_god\ni O\nZagłoba B-nam_liv_character\n';
    const s = parseCorpus(inventedSource('kpwr-space'), text);
    expect(s.map((x) => x.words.length)).to.deep.equal([9, 6]);
    expect(tags(s[0]!.tags)).to.deep.equal(['B-PER', 'I-PER', 'O', 'B-ORG', 'I-ORG', 'O', 'O', 'B-LOC', 'O']);
    expect(tags(s[1]!.tags)).to.deep.equal(['O', 'O', 'O', 'B-MISC', 'O', 'B-PER']);
  });

  it("narrows LitBank's person mentions to the names they open with; descriptions, a title or a deity alone are none", () => {
    const text =
      'Charles\tB-PER\tB-PER\tO\t\nMusgrove\tI-PER\tI-PER\tO\t\n,\tO\tI-PER\tO\t\nEsq.\tO\tI-PER\tO\t\nof\tO\tI-PER\tO\t\nUppercross\tB-GPE\tI-PER\tO\t\n' +
      'met\tO\tO\tO\t\nhis\tB-PER\tO\tO\t\nwife\tI-PER\tO\tO\t\nand\tO\tO\tO\t\nSir\tB-PER\tO\tO\t\nin\tO\tO\tO\t\nthe\tB-FAC\tO\tO\t\nHall\tI-FAC\tO\tO\t\n.\tO\tO\tO\t\n' +
      'God\tB-PER\tO\tO\t\nsaw\tO\tO\tO\t\nAnne\tB-PER\tO\tO\t\n.\tO\tO\tO\t\n';
    const s = parseCorpus(inventedSource('litbank-tsv'), text);
    expect(s.map((x) => x.words.length)).to.deep.equal([15, 4]);
    expect(tags(s[0]!.tags)).to.deep.equal(['B-PER', 'I-PER', 'O', 'O', 'O', 'B-LOC', 'O', 'O', 'O', 'O', 'O', 'O', 'O', 'O', 'O']);
    expect(tags(s[1]!.tags)).to.deep.equal(['O', 'O', 'B-PER', 'O']);
  });

  it('reads GUM: proper nouns of person, place and organisation mentions; titles, groups and nominals none', () => {
    // Invented rows in GUM's CoNLL-U layout: id, form, lemma, UPOS, XPOS, feats, head, deprel, deps, MISC.
    const row = (id: number, form: string, xpos: string, entity?: string): string =>
      `${id}\t${form}\t_\t_\t${xpos}\t_\t0\t_\t_\t${entity === undefined ? '_' : `Entity=${entity}`}`;
    const text = [
      '# sent_id = t-1',
      '# text = Professor Anna Weber of the Sydney Institute told Muslims that her mother met Peter the Great.',
      row(1, 'Professor', 'NNP', '(1-person-new-sgl-Anna_Weber'),
      row(2, 'Anna', 'NNP'),
      row(3, 'Weber', 'NNP'),
      row(4, 'of', 'IN'),
      row(5, 'the', 'DT', '(2-organization-new-sgl'),
      row(6, 'Sydney', 'NNP', '(3-place-new-sgl-Sydney)'),
      row(7, 'Institute', 'NNP', '2)1)'),
      row(8, 'told', 'VBD'),
      row(9, 'Muslims', 'NNPS', '(4-person-new-sgl)'),
      row(10, 'that', 'IN'),
      row(11, 'her', 'PRP$', '(5-person-new-sgl(6-person-giv-sgl)'),
      row(12, 'mother', 'NN', '5)'),
      row(13, 'met', 'VBD'),
      row(14, 'Peter', 'NNP', '(7-person-new-sgl-Peter_the_Great'),
      row(15, 'the', 'DT'),
      row(16, 'Great', 'NNP', '7)'),
      row(17, '.', '.'),
      '',
      '# sent_id = t-2',
      row(1, 'President', 'NNP', '(8-person-giv-sgl)'),
      row(2, 'spoke', 'VBD'),
      row(3, 'in', 'IN'),
      row(4, 'Warhol', 'NNP', '(9-place-new-sgl(10-person-giv-sgl-Andy_Warhol)'),
      row(5, "'s", 'POS'),
      row(6, 'studio', 'NN', '9)'),
      '',
    ].join('\n');
    const s = parseCorpus(inventedSource('gum-conllu'), text);
    expect(s.map((x) => x.words.length)).to.deep.equal([17, 6]);
    expect(tags(s[0]!.tags)).to.deep.equal([
      'O', 'B-PER', 'I-PER', 'O', 'O', 'B-ORG', 'I-ORG', 'O', 'O', 'O', 'O', 'O', 'O', 'B-PER', 'I-PER', 'I-PER', 'O',
    ]);
    expect(tags(s[1]!.tags)).to.deep.equal(['O', 'O', 'O', 'B-PER', 'O', 'O']);
  });

  it('refuses GUM mention brackets it cannot pair', () => {
    const text = '1\tAnna\t_\t_\tNNP\t_\t0\t_\t_\tEntity=(1-person-new\n\n';
    expect(() => parseCorpus(inventedSource('gum-conllu'), text)).to.throw(/never closed/);
    expect(() => parseCorpus(inventedSource('gum-conllu'), '1\tAnna\t_\t_\tNNP\t_\t0\t_\t_\tEntity=3)\n')).to.throw(/never opened/);
  });

  it('repairs Latin-1 text that was read as Windows-1251 upstream', () => {
    const [s] = parseCorpus(inventedSource('conll-indexed', 'latin1-read-as-cp1251'), '0\tErzдhlung\tO\n1\tlдЯt\tO\n');
    expect(s!.words).to.deep.equal(['Erzählung', 'läßt']);
  });
});
