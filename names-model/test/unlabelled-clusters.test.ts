import * as zlib from 'node:zlib';
import { expect } from 'chai';
import { CAP_GRADES, clusterIndexOf, fnv1a, NAME_GRADES, NO_CLUSTERS } from '@gateway/privacy/internals';
import {
  capitalisationGrades,
  clusterVocabulary,
  decodeLanguageClusters,
  encodeLanguageClusters,
  languageClusters,
  mergeClusters,
  nameGrades,
  sentencesOf,
  teiParagraphs,
  type ClusterOptions,
} from '../src/index.js';

// The pipeline from unlabelled TEI text to the cluster table the tagger reads: text out of the markup, sentences
// as the tagger's tokeniser cuts them, the grades, the committed file format, and the merge of languages.

const NOVEL = `<TEI><teiHeader><title>Not text</title></teiHeader><text><front><p>Front matter</p></front><body>
<div><head>Chapter I</head><p>Anna Kowalska said: <hi>no</hi>.<note>An editor's note.</note> Then &amp; there&#x2019;s more.</p>
<lg><l>First line of a verse</l><l>and its second</l></lg></div></body></TEI>`;
const PLAY = `<TEI><text><body><div><sp who="#a"><speaker>ANNA.</speaker><p>Good day, Herr Brandt.</p><stage>(leaves)</stage><l>A line</l></sp></div></body></text></TEI>`;

// Invented text: given names before surnames, surnames before verbs, towns after "in"; "Grace" also in lower case.
const GIVEN = ['Anna', 'Maria', 'Peter', 'Thomas'];
const SURNAMES = ['Kowalski', 'Okonkwo', 'Lindqvist', 'Moreau'];
function corpus(): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < 400; i++) {
    const g = GIVEN[i % 4] as string;
    const s = SURNAMES[Math.floor(i / 4) % 4] as string;
    out.push(['Yesterday', g, s, 'said', 'that', 'the', 'office', 'in', 'Leeds', 'was', 'closed', '.']);
    out.push(['Then', 'the', 'grace', 'of', s, 'was', 'seen', '.']);
    out.push(['Grace', 'was', 'seen', 'in', 'Porto', '.']);
  }
  return out;
}
const OPTIONS: ClusterOptions = { seed: 3, fine: 6, coarse: 2, minCount: 3, contextWords: 40, iterations: 20, rowTop: 20 };

describe('names-model: word clusters from unlabelled text', () => {
  it('takes the running text of a TEI novel and a play: paragraphs, verse groups and speeches, without header, notes, headings, speakers or stage directions', () => {
    expect(teiParagraphs(NOVEL)).to.deep.equal(['Anna Kowalska said: no. Then & there’s more.', 'First line of a verse and its second']);
    expect(teiParagraphs(PLAY)).to.deep.equal(['Good day, Herr Brandt. A line']);
  });

  it('cuts sentences and words as the tagger does', () => {
    expect(sentencesOf('Dr. Anna Kowalska came. She said dell\'Italia!')).to.deep.equal([
      ['Dr.', 'Anna', 'Kowalska', 'came', '.'],
      ['She', 'said', "dell'", 'Italia', '!'],
    ]);
  });

  it('grades capitalisation (always capital mid sentence, also lower case, only at starts) and clusters by the name lists', () => {
    const sentences = corpus();
    const v = clusterVocabulary(sentences, OPTIONS);
    const caps = capitalisationGrades(sentences, v.words);
    const grade = (w: string): number => caps[v.words.indexOf(w)] as number;
    expect(grade('Kowalski')).to.equal(6);
    // "Grace" opens sentences only, and the text writes "grace" mid sentence: a common word's grade.
    expect(grade('Grace')).to.equal(2);
    expect(grade('Yesterday')).to.equal(1);
    expect(grade('said')).to.equal(0);
    const names = nameGrades(v, caps);
    const nameGrade = (w: string): number => names[v.fine[v.words.indexOf(w)] as number] as number;
    // Given names' cluster: a high given-name share; the surnames' cluster: a high surname share; verbs: none.
    expect(nameGrade('Anna') >> 2).to.equal(3);
    expect(nameGrade('Okonkwo') & 3).to.be.greaterThan(0);
    expect(nameGrade('said')).to.equal(0);
    for (const g of caps) expect(g).to.be.lessThan(CAP_GRADES);
    for (const g of names) expect(g).to.be.lessThan(NAME_GRADES);
  });

  it('is deterministic for the seed, and the file round-trips', () => {
    const sentences = corpus();
    const build = (): Buffer => {
      const v = clusterVocabulary(sentences, OPTIONS);
      const caps = capitalisationGrades(sentences, v.words);
      return encodeLanguageClusters(languageClusters('en', v, caps, nameGrades(v, caps), 4800));
    };
    const bytes = build();
    expect(build().equals(bytes)).to.equal(true);
    const c = decodeLanguageClusters(bytes);
    expect(c.language).to.equal('en');
    expect(c.tokens).to.equal(4800);
    expect(clusterIndexOf({ ...NO_CLUSTERS, keys: c.keys }, fnv1a('Kowalski'))).to.be.greaterThan(-1);
    const eol = bytes.indexOf(0x0a, 5);
    const { gunzipSync, gzipSync } = zlib;
    const short = Buffer.concat([bytes.subarray(0, eol + 1), gzipSync(gunzipSync(bytes.subarray(eol + 1)).subarray(1))]);
    expect(() => decodeLanguageClusters(short)).to.throw(/wrong size/);
  });

  it('merges languages: cluster ids numbered after the previous language, a shared word to the language that uses it more', () => {
    const part = (language: string, words: [string, number, number][], fineCount: number): ReturnType<typeof decodeLanguageClusters> => {
      const sorted = [...words].sort((a, b) => fnv1a(a[0]) - fnv1a(b[0]));
      return {
        language,
        keys: Uint32Array.from(sorted, (w) => fnv1a(w[0])),
        fine: Uint16Array.from(sorted, (w) => w[1]),
        capGrade: Uint8Array.from(sorted, () => 6),
        frequency: Uint8Array.from(sorted, (w) => w[2]),
        coarseOf: new Uint8Array(fineCount),
        nameGrade: Uint8Array.from({ length: fineCount }, (_, i) => i),
        fineCount,
        coarseCount: 1,
        tokens: 100,
      };
    };
    const merged = mergeClusters([
      part('de', [['Anna', 0, 50], ['sagte', 1, 90]], 2),
      part('it', [['Anna', 2, 80], ['disse', 0, 90]], 3),
    ]);
    expect(merged.fineCount).to.equal(5);
    const fineOf = (w: string): number => merged.fine[clusterIndexOf({ ...NO_CLUSTERS, keys: merged.keys }, fnv1a(w))] as number;
    expect(fineOf('sagte')).to.equal(1);
    expect(fineOf('disse')).to.equal(2);
    expect(fineOf('Anna')).to.equal(4);
    expect([...merged.coarseOf]).to.deep.equal([0, 0, 1, 1, 1]);
    expect([...merged.clusterClass]).to.deep.equal([0, 1, 0, 1, 2]);
  });
});
