import { expect } from 'chai';
import { NAME_TAGS, NO_CLUSTERS, TAG_O } from '@gateway/privacy/internals';
import { AveragedPerceptron } from '../src/perceptron.js';
import type { LabelledSentence } from '../src/read-corpus.js';

// Training that guesses as the proxy decodes (issue 32): no I-PER after a guessed O, and O learnt where a missed
// B-PER has made the gold I-PER impossible (one miss, not a miss and a false half-span).
const TAG_I_PER = NAME_TAGS.indexOf('I-PER');
const lexicon = { common: new Uint32Array(0), clusters: NO_CLUSTERS };
const sentence = (tags: number[]): LabelledSentence => ({ words: ['Gestern', 'Anna', 'Kowalska'], tags: Uint8Array.from(tags) });

describe('names-model: constrained training', () => {
  it('does not chase a gold I-PER that follows a guessed O: it learns O there, where the unconstrained trainer errs', () => {
    // Zero weights guess O everywhere: "Kowalska" (gold I-PER after a guessed O) is an error to the unconstrained
    // trainer, which then learns I-PER from it, and O, the loss-minimising tag, to the constrained one.
    const broken = sentence([TAG_O, TAG_O, TAG_I_PER]);
    const free = new AveragedPerceptron(16, lexicon);
    expect(free.trainEpoch([broken], Uint32Array.from([0]))).to.equal(1);
    free.trainEpoch([broken], Uint32Array.from([0]));
    expect(free.averagedWeights().some((w) => w !== 0)).to.equal(true);
    const constrained = new AveragedPerceptron(16, lexicon, true);
    expect(constrained.trainEpoch([broken], Uint32Array.from([0]))).to.equal(0);
    expect(constrained.trainEpoch([broken], Uint32Array.from([0]))).to.equal(0);
    expect(constrained.averagedWeights().every((w) => w === 0)).to.equal(true);
  });
});
