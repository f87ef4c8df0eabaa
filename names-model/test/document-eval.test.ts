import { expect } from 'chai';
import { readDocuments, scoreDocuments } from '../src/document-eval.js';
import { namesAfterTitles, precision, recall } from '../src/score-names.js';
import { inventedSource } from './support/invented-source.js';

const conll = inventedSource('conll-indexed');
const rows = (sentence: string): string =>
  sentence
    .split(' ')
    .map((w, i) => {
      const [word, tag] = w.split('/');
      return `${i}\t${word}\t${tag ?? 'O'}`;
    })
    .join('\n');

describe('names-model: scoring whole articles', () => {
  const file = [
    '0\t-DOCSTART-\tO',
    rows('Schuldezernent Werner/B-PER Emde/I-PER widersprach .'),
    rows('Männer wirft Emde/B-PER vor , er wolle das Modell .'),
    '0\t-DOCSTART-\tO',
    rows('Ngozi/B-PER Okonkwo/I-PER joined the board in May .'),
    rows('According to Okonkwo/B-PER , the deal is done .'),
  ].join('\n\n');

  it('reads a file\'s articles at its -DOCSTART- lines, and none from a file without them', () => {
    const docs = readDocuments(conll, file);
    expect(docs.map((d) => d.map((s) => s.words.length))).to.deep.equal([[5, 10], [8, 9]]);
    expect(readDocuments(conll, rows('Anna/B-PER lacht .'))).to.deep.equal([]);
  });

  it('counts every gold name once either way, and read whole finds each: the surnames alone after the full names', () => {
    const docs = readDocuments(conll, file);
    const alone = scoreDocuments(docs, false);
    const whole = scoreDocuments(docs, true);
    expect(alone.truePositives + alone.falseNegatives).to.equal(4);
    expect(whole.truePositives + whole.falseNegatives).to.equal(4);
    expect(precision(whole)).to.equal(1);
    expect(recall(whole)).to.equal(1);
  });

  it("scores a titled name by the name after its honorific, as the detector leaves the title readable; a one-letter title and a title alone stay", () => {
    const words = ['Mr.', 'Utterson', 'met', 'Miss', 'Bates', ',', 'M.', 'Jansen', 'and', 'Lady', 'Russell', 'and', 'Dr'];
    const spans = [
      { start: 0, end: 2 },
      { start: 3, end: 5 },
      { start: 6, end: 8 },
      { start: 9, end: 11 },
      { start: 12, end: 13 },
    ];
    expect(namesAfterTitles(words, spans)).to.deep.equal([
      { start: 1, end: 2 },
      { start: 4, end: 5 },
      { start: 6, end: 8 },
      { start: 9, end: 11 },
      { start: 12, end: 13 },
    ]);
    const titled = readDocuments(conll, ['0\t-DOCSTART-\tO', rows('Yesterday Mr./B-PER Utterson/I-PER met Ngozi/B-PER Okonkwo/I-PER .')].join('\n\n'));
    const score = scoreDocuments(titled, false);
    expect([score.truePositives, score.falsePositives, score.falseNegatives]).to.deep.equal([2, 0, 0]);
  });
});
