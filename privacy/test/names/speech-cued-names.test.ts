import { expect } from 'chai';
import type { TaggedSpan } from '../../src/names/name-tagger.js';
import { speechCuedNames } from '../../src/names/speech-cued-names.js';

// A speaker a verb of saying names after reported speech, where the tagger read nothing (speech-cued-names.ts).
function cued(text: string, options: { places?: readonly string[]; common?: readonly string[] } = {}): string[] {
  const tagged: TaggedSpan[] = (options.places ?? []).map((p) => {
    const start = text.indexOf(p);
    return { kind: 'LOC', start, end: start + p.length, words: 1, firstConfidence: 3, restConfidence: 3, secondStart: -1, opensSentence: false, firstCommon: false, commonWords: 0 };
  });
  return speechCuedNames(text, tagged, [], (w) => (options.common ?? []).includes(w)).map((c) => text.slice(c.start, c.end));
}

describe('privacy: a speaker named alone after reported speech', () => {
  it('finds the word after a verb of saying that closes reported speech, in each language', () => {
    const cases: [string, string, string][] = [
      ['en', '"The audit was clean," said Thornbury on Monday.', 'Thornbury'],
      ['de', 'Das sei falsch, sagte Lippelt dem Nachrichtenmagazin.', 'Lippelt'],
      ['fr', '« Le projet avance », explique Lefèvre.', 'Lefèvre'],
      ['es', 'El plan sigue adelante, dijo Etxeberria.', 'Etxeberria'],
      ['it', 'Il progetto è pronto, dichiarò Bertolucci ieri.', 'Bertolucci'],
      ['nl', 'Het gaat goed, aldus Verhaegen.', 'Verhaegen'],
      ['pl', 'Projekt jest gotowy, powiedział Kowalczyk wczoraj.', 'Kowalczyk'],
    ];
    for (const [lang, text, name] of cases) expect(cued(text), lang).to.deep.equal([name]);
  });

  it('leaves an object after the verb, a role before a name, a common word, a place and a stop word', () => {
    // No reported speech before the verb: its object may follow, in German a capitalised noun.
    expect(cued('-h, --help\n              fordert Hilfeinformationen an.')).to.deep.equal([]);
    expect(cued('Er sagte Lippelt nichts.')).to.deep.equal([]);
    // A capitalised word after it: a role or a longer name, for the tagger and the lists.
    expect(cued('Das sei falsch, sagte Ministeriumssprecher Müller.')).to.deep.equal([]);
    expect(cued('Das sei gut, sagte Danke und ging.', { common: ['Danke'] })).to.deep.equal([]);
    expect(cued('It was fine, said Reuters in a note.', { places: ['Reuters'] })).to.deep.equal([]);
    expect(cued('It was fine, said Monday.')).to.deep.equal([]);
  });
});
