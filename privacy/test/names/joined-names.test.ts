import { expect } from 'chai';
import type { Candidate } from '../../src/recognizer.js';
import type { TaggedSpan } from '../../src/names/name-tagger.js';
import { personGoesOn } from '../../src/names/name-detector.js';
import { addOpeningNames } from '../../src/names/opening-names.js';
import { addTaggedNames } from '../../src/names/tagged-names.js';
import { listMatch, span } from './hand-spans.js';

// The rules that hold a name whatever the training draw gave the tagger's margins, on spans written by hand: a
// given name and the surname after it opening a sentence, read through the tagger's reading of the pair (the
// `goesOn` margin) where it tagged nothing; "according to" and a known surname the tagger reads as a place
// unsurely; a known given name opening a span the tagger is unsure of the kind of; a known surname "with" a sure
// person.

/** What addOpeningNames adds, the tagger having read `spans`, the lexicon knowing `common`, the pair read at `goesOn`. */
function opening(text: string, spans: TaggedSpan[] = [], goesOn = -Infinity, common: readonly string[] = []): string[] {
  const candidates: Candidate[] = [];
  addOpeningNames(text, spans, candidates, (w) => common.includes(w), () => goesOn);
  return candidates.map((c) => text.slice(c.start, c.end));
}

function tagged(text: string, spans: TaggedSpan[], listed: Candidate[] = []): string[] {
  const candidates = [...listed];
  addTaggedNames(text, spans, candidates, () => false);
  return candidates.filter((c) => c.type === 'PERSON').map((c) => text.slice(c.start, c.end));
}

describe('privacy: names held whatever the draw', () => {
  it('joins a given name that is a common word to the next word the tagger reads as its surname', () => {
    expect(opening('Will Hendricks called about the invoice.', [], 15)).to.deep.equal(['Will Hendricks']);
    expect(opening('Mark Dobson reviewed the patch.', [], 15)).to.deep.equal(['Mark Dobson']);
    // The tagger reads the pair as a place after a word, or is unsure.
    expect(opening('Will Hendricks called about the invoice.', [], 3)).to.deep.equal([]);
    expect(opening('Will Berlin survive the winter?', [], -30)).to.deep.equal([]);
  });

  it('leaves the pair alone in a question, after a rank, or where the text reads the word as a sure firm', () => {
    expect(opening('Will Hendricks call about the invoice?', [], 20)).to.deep.equal([]);
    expect(opening('King Birendra left Nepal on Friday.', [], 30)).to.deep.equal([]);
    expect(opening('Queen Mathilde opened the session.', [], 30)).to.deep.equal([]);
    const firm = 'Will Hendricks called about the invoice. Hendricks sells tyres.';
    const at = firm.lastIndexOf('Hendricks');
    expect(opening(firm, [{ ...span(firm, 'Hendricks', 'ORG', 20), start: at, end: at + 9 }], 15)).to.deep.equal([]);
    expect(opening(firm, [{ ...span(firm, 'Hendricks', 'ORG', 4), start: at, end: at + 9 }], 15)).to.deep.equal(['Will Hendricks']);
  });

  it("reads a listed given name as a name where only the model's lexicon, not the text, writes it in lower case", () => {
    expect(opening('Jan Utrecht kwam laat.', [], -Infinity, ['Jan'])).to.deep.equal(['Jan Utrecht']);
    expect(opening('Dan Utrecht kwam laat, dan gaan we.', [], -Infinity, ['Dan'])).to.deep.equal([]);
  });

  it('finds a known surname after "according to" that the tagger reads as a place only unsurely', () => {
    const en = 'According to Okonkwo, the figures were wrong.';
    expect(opening(en, [span(en, 'Okonkwo', 'LOC', 1.2)])).to.deep.equal(['Okonkwo']);
    expect(opening(en, [span(en, 'Okonkwo', 'LOC', 20)])).to.deep.equal([]);
    const nl = 'Volgens Jansen, het rapport is niet af.';
    expect(opening(nl, [span(nl, 'Jansen', 'LOC', 3)])).to.deep.equal(['Jansen']);
    const fr = 'Selon Reuters, le match était difficile.';
    expect(opening(fr, [span(fr, 'Reuters', 'ORG', 3)])).to.deep.equal([]);
  });

  it('keeps a known given name opening a name the tagger is unsure of the kind of', () => {
    const de = 'Hans Berlin kam spät.';
    expect(tagged(de, [span(de, 'Hans Berlin', 'PER', 1.7, { restConfidence: 16 })])).to.deep.equal(['Hans Berlin']);
    const it = 'Ieri Bianchi ha parlato.';
    expect(tagged(it, [span(it, 'Ieri Bianchi', 'PER', 1, { restConfidence: 25 })])).to.deep.equal(['Bianchi']);
  });

  it('keeps a known surname the tagger missed "with" a person it is sure of, not after an article or in a list', () => {
    const de = 'Gestern hat Scholz mit Wiśniewski telefoniert.';
    expect(tagged(de, [span(de, 'Wiśniewski', 'PER', 55)], [listMatch(de, 'Scholz')])).to.deep.equal(['Scholz', 'Wiśniewski']);
    expect(tagged(de, [span(de, 'Wiśniewski', 'PER', 8)], [listMatch(de, 'Scholz')])).to.deep.equal(['Wiśniewski']);
    const pl = 'Wczoraj Nowak z Wiśniewskim rozmawiał.';
    expect(tagged(pl, [span(pl, 'Wiśniewskim', 'PER', 40)], [listMatch(pl, 'Nowak')])).to.deep.equal(['Nowak', 'Wiśniewskim']);
    const noun = 'Ein Treffen der Frauen mit Angela Weber.';
    expect(tagged(noun, [span(noun, 'Angela Weber', 'PER', 40)], [listMatch(noun, 'Frauen')])).to.deep.equal(['Angela Weber']);
    const list = 'Rundfahrt der Frauen, Nicole Cooke siegte.';
    expect(tagged(list, [span(list, 'Nicole Cooke', 'PER', 40)], [listMatch(list, 'Frauen')])).to.deep.equal(['Nicole Cooke']);
  });

  it("reads through the shipped tagger a surname after a given name, and a place after a modal verb", () => {
    expect(personGoesOn('Will Hendricks called about the invoice.')).to.be.greaterThan(8);
    expect(personGoesOn('Will Berlin survive the winter?')).to.be.lessThan(0);
    expect(personGoesOn('Will you send it today?')).to.equal(-Infinity);
  });
});
