import { expect } from 'chai';
import { addToLexiconSet, decodeNameModel, emptyLexiconSet, encodeNameModel, fnv1a, lexiconMask, NameFeatureContext, TAG_COUNT, wordInfo } from '@gateway/privacy/internals';
import type { NameModel } from '@gateway/privacy';
import { decodeLexiconSet, encodeLexiconSet, rankedNames, sourceNameCounts, sourceWords, takes, type LexiconSource } from '../src/index.js';

// Word lists as features (issue 32, point 4): the Bloom filters, their committed file, their place in the model
// file (PTAG5, PTAG4 still written and read without them), and the readers that take words from each source.
const source = (reader: LexiconSource['reader']): LexiconSource =>
  ({ id: 'x', name: 'x', licence: 'x', spdx: 'MIT', commercialUse: true, licenceCheck: 'x', obligations: { attribution: null, shareAlike: false }, origin: 'x', version: '1', reader, files: [] }) as LexiconSource;

function listOf(id: string, words: readonly string[]) {
  const set = emptyLexiconSet(id, 16, 4);
  for (const w of words) addToLexiconSet(set, fnv1a(w));
  return set;
}

function modelWith(sets: ReturnType<typeof listOf>[]): NameModel {
  const clusters = {
    keys: Uint32Array.from([1, 2]),
    fine: Uint16Array.from([0, 0]),
    coarseOf: Uint8Array.from([0]),
    fineCount: 1,
    wideFine: Uint16Array.from([0, 0]),
    wideCoarseOf: Uint8Array.from([0]),
    wideCount: 1,
    wordClass: Uint8Array.from([0, 0]),
    clusterClass: Uint8Array.from([0]),
  };
  return {
    buckets: 16,
    scale: 1,
    weights: new Int16Array(16 * TAG_COUNT),
    lexicon: { common: new Uint32Array(1 << 16), clusters, ...(sets.length > 0 ? { sets } : {}) },
    info: {},
  };
}

describe('names-model: word lists as tagger features', () => {
  it('finds the words put in a list and, for a few hundred others, almost none', () => {
    const soft = listOf('software', ['docker', 'brotli', 'bazel', 'jackson']);
    const dict = listOf('nl-lower', ['toon', 'gebruiker']);
    expect(lexiconMask([soft, dict], fnv1a('docker'))).to.equal(1);
    expect(lexiconMask([soft, dict], fnv1a('toon'))).to.equal(2);
    let stray = 0;
    for (let i = 0; i < 500; i++) stray += lexiconMask([soft, dict], fnv1a(`kowalski${i}`)) === 0 ? 0 : 1;
    expect(stray).to.be.lessThan(3);
  });

  it('round-trips a list through its committed file and through the model file, which says PTAG5 only with lists', () => {
    const soft = listOf('software', ['docker', 'brotli']);
    const back = decodeLexiconSet(encodeLexiconSet(soft, 2));
    expect(back.id).to.equal('software');
    expect(Buffer.from(back.bits.buffer).equals(Buffer.from(soft.bits.buffer))).to.equal(true);
    const withLists = encodeNameModel(modelWith([soft]));
    expect(withLists.subarray(0, 6).toString('latin1')).to.equal('PTAG5\n');
    const decoded = decodeNameModel(withLists);
    expect(decoded.lexicon.sets?.map((s) => s.id)).to.deep.equal(['software']);
    expect(lexiconMask(decoded.lexicon.sets ?? [], fnv1a('brotli'))).to.equal(1);
    // A model without lists is the format before them, byte for byte, and reads back without any.
    const without = encodeNameModel(modelWith([]));
    expect(without.subarray(0, 6).toString('latin1')).to.equal('PTAG4\n');
    expect(decodeNameModel(without).lexicon.sets).to.equal(undefined);
  });

  it('gives a word its lists as features only when the model has lists', () => {
    const soft = listOf('software', ['docker']);
    const lexicon = modelWith([soft]).lexicon;
    expect(wordInfo('Docker', lexicon).lists).to.equal(1);
    expect(wordInfo('Kowalski', lexicon).lists).to.equal(0);
    const plain = modelWith([]).lexicon;
    expect(wordInfo('Docker', plain).lists).to.equal(0);
    // Two more lexical features and one more contextual one for a word in a list; none without lists.
    expect(wordInfo('Docker', lexicon).lexical.length).to.equal(wordInfo('Docker', plain).lexical.length + 2);
    const out = new Uint32Array(64);
    const words = ['run', 'Docker', 'now'];
    const start = Uint8Array.from([1, 0, 0]);
    const n = new NameFeatureContext(words, start, lexicon).contextFeatures(1, 0, 0, out);
    expect(n).to.equal(new NameFeatureContext(words, start, plain).contextFeatures(1, 0, 0, out) + 1);
    // A word in no list has the features it has without lists.
    expect(wordInfo('Kowalski', lexicon).lexical).to.deep.equal(wordInfo('Kowalski', plain).lexical);
    const names = ['Jan', 'Kowalski', 'said'];
    expect(new NameFeatureContext(names, start, lexicon).contextFeatures(1, 1, 0, out)).to.equal(new NameFeatureContext(names, start, plain).contextFeatures(1, 1, 0, out));
  });

  it('reads product names from the Debian index and Linguist, and dictionary words by case', () => {
    const packages = 'Package: libbrotli-dev\nVersion: 1\n\nPackage: libjackson2-core-java\n\nPackage: docker.io\n';
    const words = sourceWords(source('debian-packages'), packages);
    expect(words).to.include.members(['libbrotli-dev', 'brotli', 'jackson', 'docker']);
    const yml = 'Shell:\n  type: programming\n  aliases:\n  - sh\n  - bash\n  color: "#89e051"\nVisual Basic .NET:\n  type: programming\n';
    expect(sourceWords(source('linguist-languages'), yml)).to.deep.equal(['Shell', 'sh', 'bash']);
    expect(sourceWords(source('word-list'), 'toon\nToon\nAmsterdam/XY\n')).to.deep.equal(['toon', 'Toon', 'Amsterdam']);
    expect(takes('lower', 'toon')).to.equal(true);
    expect(takes('lower', 'Toon')).to.equal(false);
    expect(takes('capitalised', 'Kowalskiej')).to.equal(true);
    expect(takes('capitalised', 'PKP')).to.equal(false);
    expect(takes('capitalised', '06-nummer')).to.equal(false);
  });

  it('reads name statistics with their counts, and ranks a source by the counts summed over its files', () => {
    // SSA yobYYYY.txt: no header; a name given to boys and girls is one name.
    const ssa = sourceNameCounts(source('ssa-names'), 'Olivia,F,17535\nEmma,F,15581\nAvery,F,6000\nAvery,M,1500\n');
    expect(ssa).to.deep.equal([['Olivia', 17535], ['Emma', 15581], ['Avery', 6000], ['Avery', 1500]]);
    // Berlin's files: a header, with or without the position column; a name with a space is no one token.
    const berlin = sourceNameCounts(source('berlin-first-names'), 'vorname,anzahl,geschlecht,position\nNoah,35,m,1\nMarie Sophie,3,w,2\nEmma,2,w,1\n');
    expect(berlin).to.deep.equal([['Noah', 35], ['Emma', 2]]);
    // The Census table: capitals; the total row and a row cut short mid line (the copy read stops at 64 KB) are out.
    const census = sourceNameCounts(
      source('census-surnames'),
      'name,rank,count,prop100k,cum_prop100k,pctwhite,pctblack,pctapi,pctaian,pct2prace,pcthispanic\nSMITH,1,2442977,828.19,828.19,70.9,23.11,0.5,0.89,2.19,2.4\nALL OTHER NAMES,0,29312001,9936.97,9936.97,66.65,8.53,4.7,0.85,1.59,17.68\nMCKNIGHT,1023,34055,11.54,41237.86',
    );
    expect(census).to.deep.equal([['SMITH', 2442977]]);
    expect(sourceWords(source('census-surnames'), 'name,rank,count,a,b,c,d,e,f,g,h\nJONES,5,1,2,3,4,5,6,7,8,9\n')).to.deep.equal(['JONES']);
    // Summed over files and case (Emma 20,581; Avery 6,000 + 1,500), most frequent first, ties (7,500) in spelling
    // order: the same files, the same ranks.
    expect(rankedNames([...ssa, ['emma', 5000], ['Zoe', 7500], ['Ada', 7500]])).to.deep.equal(['emma', 'olivia', 'ada', 'avery', 'zoe']);
  });
});
