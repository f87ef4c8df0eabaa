import { expect } from 'chai';
import { tokeniseForNames } from '../../src/names/name-tokens.js';

// The tagger's tokens must be the corpora's: a different cut gives the model words it never saw.
function tokens(text: string): { words: string[]; opening: string[] } {
  const t = tokeniseForNames(text);
  const words = t.starts.map((s, i) => text.slice(s, t.ends[i]));
  return { words, opening: words.filter((_, i) => t.sentenceStart[i] === 1) };
}

describe('privacy: the name tagger’s tokens', () => {
  it('keeps capital letters with their full stops as one token, ending no sentence', () => {
    expect(tokens('He withdrew from the U.S. Open on Monday.')).to.deep.equal({
      words: ['He', 'withdrew', 'from', 'the', 'U.S.', 'Open', 'on', 'Monday', '.'],
      opening: ['He'],
    });
    expect(tokens('Alan John Percivale ( A.J.P. ) Taylor died.').words).to.include('A.J.P.');
  });

  it('still splits initials with spaces, and a sentence’s full stop', () => {
    expect(tokens('J. R. Tolkien wrote it. Then he left.')).to.deep.equal({
      words: ['J.', 'R.', 'Tolkien', 'wrote', 'it', '.', 'Then', 'he', 'left', '.'],
      opening: ['J.', 'Then'],
    });
  });
});
