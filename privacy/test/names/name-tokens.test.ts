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

  it('opens a line after a diff’s hunk header, as after a line break, and nowhere else after "@@"', () => {
    expect(tokens('@@ -45,8 +55,9 @@ Linear.\n \n ## See also').opening).to.deep.equal(['@', 'Linear', '#']);
    expect(tokens('x @@ Linear and @@ -1 @@ Anna').opening).to.deep.equal(['x']);
    // The header's own "@@" after its ranges only: a second "@@" in the context line opens nothing.
    expect(tokens('@@ -1,2 +1,3 @@ a @@ Anna').opening).to.deep.equal(['@', 'a']);
  });
});
