import { expect } from 'chai';
import { RANK_CHECKSUM, RANK_CONTEXT, RANK_FORMAT } from '../src/recognizer.js';
import type { Candidate } from '../src/recognizer.js';
import { resolveOverlaps } from '../src/resolve-overlaps.js';

describe('privacy/resolve-overlaps', () => {
  const c = (type: Candidate['type'], start: number, end: number, rank: number): Candidate => ({ type, start, end, rank });

  it('keeps disjoint spans, sorted by start', () => {
    expect(resolveOverlaps([c('PHONE', 20, 30, RANK_FORMAT), c('EMAIL', 0, 10, RANK_FORMAT)])).to.deep.equal([
      { type: 'EMAIL', start: 0, end: 10 },
      { type: 'PHONE', start: 20, end: 30 },
    ]);
  });

  it('prefers the higher rank, then the longer span', () => {
    expect(resolveOverlaps([c('PHONE', 0, 14, RANK_FORMAT), c('UK_NHS', 2, 12, RANK_CHECKSUM)])).to.deep.equal([
      { type: 'UK_NHS', start: 2, end: 12 },
    ]);
    expect(resolveOverlaps([c('PHONE', 0, 9, RANK_FORMAT), c('UK_PASSPORT', 0, 9, RANK_CONTEXT)])).to.deep.equal([
      { type: 'UK_PASSPORT', start: 0, end: 9 },
    ]);
    expect(resolveOverlaps([c('IP_ADDRESS', 5, 15, RANK_FORMAT), c('IP_ADDRESS', 0, 30, RANK_FORMAT)])).to.deep.equal([
      { type: 'IP_ADDRESS', start: 0, end: 30 },
    ]);
  });

  it('settles chains of overlaps without dropping spans that no longer overlap a winner', () => {
    // A overlaps B, B overlaps C; B wins by rank, so A and C both lose.
    const winners = resolveOverlaps([
      c('PHONE', 0, 10, RANK_FORMAT),
      c('CARD', 8, 20, RANK_CHECKSUM),
      c('PHONE', 18, 30, RANK_FORMAT),
      c('EMAIL', 40, 50, RANK_FORMAT),
    ]);
    expect(winners).to.deep.equal([
      { type: 'CARD', start: 8, end: 20 },
      { type: 'EMAIL', start: 40, end: 50 },
    ]);
    // If the middle one loses, both ends survive.
    expect(
      resolveOverlaps([c('CARD', 0, 10, RANK_CHECKSUM), c('PHONE', 8, 20, RANK_FORMAT), c('IBAN', 18, 30, RANK_CHECKSUM)]),
    ).to.deep.equal([
      { type: 'CARD', start: 0, end: 10 },
      { type: 'IBAN', start: 18, end: 30 },
    ]);
  });

  it('does not depend on the order of its input', () => {
    const input = [c('PHONE', 0, 12, RANK_FORMAT), c('UK_NHS', 0, 12, RANK_CHECKSUM), c('CARD', 30, 46, RANK_CHECKSUM)];
    const expected = resolveOverlaps([...input]);
    expect(resolveOverlaps([...input].reverse())).to.deep.equal(expected);
  });
});
