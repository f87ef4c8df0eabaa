import { expect } from 'chai';
import { fnv1a } from '@gateway/privacy/internals';
import { coarseClusterOf, fineClusterOf } from '@gateway/privacy/internals';
import { trainWordClusters, type ClusterOptions } from '../src/index.js';

// Invented text where surnames, verbs and towns each keep their own company: the clusters must find those groups
// from the neighbours alone, the same way run after run.
const SURNAMES = ['Kowalski', 'Okonkwo', 'Lindqvist', 'Moreau', 'Brandt', 'Varga'];
const VERBS = ['said', 'added', 'replied', 'wrote', 'argued', 'noted'];
const TOWNS = ['Leeds', 'Gdańsk', 'Porto', 'Lyon', 'Utrecht', 'Bari'];

function corpus(): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < 648; i++) {
    const s = SURNAMES[i % SURNAMES.length] as string;
    const v = VERBS[Math.floor(i / 6) % VERBS.length] as string;
    const t = TOWNS[Math.floor(i / 36) % TOWNS.length] as string;
    out.push(['Mr', s, v, 'that', 'the', 'office', 'in', t, 'was', 'closed', '.']);
    out.push(['In', t, ',', 'Ms', s, v, 'on', 'Monday', '.']);
  }
  out.push(['Once', 'seen', 'Zbigniew', '.']);
  return out;
}

const OPTIONS: ClusterOptions = { seed: 7, fine: 8, coarse: 3, minCount: 3, contextWords: 50, iterations: 20 };
const fine = (c: ReturnType<typeof trainWordClusters>, w: string): number => fineClusterOf(c, fnv1a(w));

describe('names-model: word clusters from the neighbours', () => {
  it('puts words of one company together and apart from the others', () => {
    const clusters = trainWordClusters(corpus(), OPTIONS);
    for (const group of [SURNAMES, VERBS, TOWNS]) {
      const ids = new Set(group.map((w) => fine(clusters, w)));
      expect(ids.size, group.join(' ')).to.equal(1);
      expect(ids.has(0)).to.equal(false);
    }
    expect(fine(clusters, 'Kowalski')).to.not.equal(fine(clusters, 'Leeds'));
    expect(fine(clusters, 'Kowalski')).to.not.equal(fine(clusters, 'said'));
    expect(coarseClusterOf(clusters, fine(clusters, 'Kowalski'))).to.be.within(1, 3);
  });

  it('gives no cluster to a word seen fewer than minCount times, nor to one never seen', () => {
    const clusters = trainWordClusters(corpus(), OPTIONS);
    expect(fine(clusters, 'Zbigniew')).to.equal(0);
    expect(fine(clusters, 'Nowhere')).to.equal(0);
    expect(coarseClusterOf(clusters, 0)).to.equal(0);
  });

  it('refuses cluster counts its tables cannot hold', () => {
    expect(() => trainWordClusters(corpus(), { ...OPTIONS, fine: 70_000 })).to.throw(/fine 70000/);
    expect(() => trainWordClusters(corpus(), { ...OPTIONS, coarse: 300 })).to.throw(/coarse 300/);
  });

  it('is the same table for the same text and seed', () => {
    const a = trainWordClusters(corpus(), OPTIONS);
    const b = trainWordClusters(corpus(), OPTIONS);
    expect(Buffer.from(a.keys.buffer).equals(Buffer.from(b.keys.buffer))).to.equal(true);
    expect(Buffer.from(a.fine.buffer).equals(Buffer.from(b.fine.buffer))).to.equal(true);
    expect(Buffer.from(a.coarseOf.buffer).equals(Buffer.from(b.coarseOf.buffer))).to.equal(true);
  });
});
