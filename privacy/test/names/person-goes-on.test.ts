import { expect } from 'chai';
import { detect } from '../../src/index.js';
import { NameFeatureContext, TAG_B_PER, TAG_COUNT, TAG_I_PER, TAG_O, wordInfo, type NameLexicon, type WordInfo } from '../../src/names/name-features.js';
import { tagWords, type TagScorer } from '../../src/names/name-tagger.js';
import { NO_CLUSTERS } from '../../src/names/word-clusters.js';

// The greedy decoder's `goesOn` (the detector's personGoesOn margin): a capitalised word right after a person's
// name, read as no name by less than the margin over the name going on, is the name going on. A stand-in scorer
// gives each word fixed scores, so the rule is tested apart from any trained model's reading.
const NO_LEXICON: NameLexicon = { common: new Uint32Array(0), clusters: NO_CLUSTERS };

/** A scorer reading `person` as B-PER by 40, and every other capitalised word as O ahead of I-PER by `behind[word]`. */
function standIn(person: string, behind: Readonly<Record<string, number>>): TagScorer {
  const byHash = new Map<number, string>([person, ...Object.keys(behind)].map((w) => [wordInfo(w, NO_LEXICON).lowerHash, w]));
  return {
    lexicon: NO_LEXICON,
    scale: 1,
    score(info: WordInfo, _context: Uint32Array, _n: number, out: Float64Array): void {
      out.fill(-100, 0, TAG_COUNT);
      const word = byHash.get(info.lowerHash) ?? '';
      if (word === person) {
        out[TAG_B_PER] = 40;
        out[TAG_O] = 0;
        return;
      }
      out[TAG_O] = 0;
      out[TAG_I_PER] = -(behind[word] ?? 100);
    },
  };
}

function tags(scorer: TagScorer, words: string[], goesOn: number): number[] {
  const ctx = new NameFeatureContext(words, Uint8Array.from(words, (_, i) => (i === 0 ? 1 : 0)));
  return [...tagWords(scorer, ctx, new Float64Array(words.length), goesOn)];
}

describe('privacy: a person\'s name going on past the tagger\'s O by a small margin', () => {
  const scorer = standIn('Cres', { Eastman: 2.8, Institute: 9, W: 1, Karta: 1 });

  it('takes the next word as the name going on when O leads by less than the margin', () => {
    expect(tags(scorer, ['met', 'Cres', 'Eastman', 'today'], 6)).to.deep.equal([TAG_O, TAG_B_PER, TAG_I_PER, TAG_O]);
  });

  it('leaves it when O leads by more, when the margin is 0 (as training decodes), or after no person', () => {
    expect(tags(scorer, ['met', 'Cres', 'Institute'], 6)).to.deep.equal([TAG_O, TAG_B_PER, TAG_O]);
    expect(tags(scorer, ['met', 'Cres', 'Eastman'], 0)).to.deep.equal([TAG_O, TAG_B_PER, TAG_O]);
    expect(tags(scorer, ['met', 'the', 'Eastman'], 6)).to.deep.equal([TAG_O, TAG_O, TAG_O]);
  });

  it('never takes a letter alone, a field label, or a word opening the next sentence', () => {
    expect(tags(scorer, ['Cres', 'W', 'maju'], 6)).to.deep.equal([TAG_B_PER, TAG_O, TAG_O]);
    expect(tags(scorer, ['Cres', 'Karta', ':', '5388'], 6)).to.deep.equal([TAG_B_PER, TAG_O, TAG_O, TAG_O]);
    const ctx = new NameFeatureContext(['met', 'Cres', 'Eastman'], Uint8Array.from([1, 0, 1]));
    expect([...tagWords(scorer, ctx, new Float64Array(3), 6)]).to.deep.equal([TAG_O, TAG_B_PER, TAG_O]);
  });

  it('redacts the whole name the shipped model reads only half of', () => {
    // The shipped model reads "Eastman" here as O by 2.8 over I-PER; without the rule "Cres" alone was found.
    const text = 'Professor Cres Eastman of the Sydney Institute met the minister.';
    expect(detect(text).filter((f) => f.type === 'PERSON').map((f) => f.value)).to.deep.equal(['Cres Eastman']);
  });
});
