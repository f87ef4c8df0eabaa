import { expect } from 'chai';
import { NAME_TAGS } from '@gateway/proxy/privacy/names/name-features';
import { parseCorpus, type CorpusSource } from '../src/index.js';

const source = (format: CorpusSource['format'], repair?: CorpusSource['repair']): CorpusSource => ({
  id: 't',
  name: 't',
  licence: 't',
  licenceClass: 'permissive',
  format,
  ...(repair === undefined ? {} : { repair }),
  files: [],
});
const tags = (t: Uint8Array): string[] => [...t].map((i) => NAME_TAGS[i] as string);

describe('names-model: reading corpora', () => {
  it('reads indexed CoNLL sentences, skipping document markers', () => {
    const s = parseCorpus(source('conll-indexed'), '0\t-DOCSTART-\tO\n\n0\tAnna\tB-PER\n1\tNowak\tI-PER\n2\tlacht\tO\n\n0\tIn\tO\n1\tGdańsk\tB-LOC\n');
    expect(s.map((x) => x.words)).to.deep.equal([['Anna', 'Nowak', 'lacht'], ['In', 'Gdańsk']]);
    expect(tags(s[0]!.tags)).to.deep.equal(['B-PER', 'I-PER', 'O']);
  });

  it('turns IOB1 spans into IOB2 and splits OCR words from their punctuation, the label on the letters', () => {
    const [s] = parseCorpus(source('bio-space'), 'Mijnheer O\nDekker, I-PER\nen O\nJ. I-PER\nThorbecke I-PER\nkwamen. O\n');
    expect(s!.words).to.deep.equal(['Mijnheer', 'Dekker', ',', 'en', 'J.', 'Thorbecke', 'kwamen', '.']);
    expect(tags(s!.tags)).to.deep.equal(['O', 'B-PER', 'O', 'O', 'B-PER', 'I-PER', 'O', 'O']);
  });

  it('repairs Latin-1 text that was read as Windows-1251 upstream', () => {
    const [s] = parseCorpus(source('conll-indexed', 'latin1-read-as-cp1251'), '0\tErzдhlung\tO\n1\tlдЯt\tO\n');
    expect(s!.words).to.deep.equal(['Erzählung', 'läßt']);
  });
});
