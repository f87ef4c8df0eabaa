import { TITLE_SET } from '@gateway/privacy/internals';

/** PERSON precision, recall and F1 by exact span, and how often a place or organisation is called a person. */
export interface NameScore {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  /** Gold LOC or ORG spans, and how many of them a predicted PERSON span overlaps. */
  placeOrgSpans: number;
  placeOrgFlagged: number;
}

export interface Span {
  readonly start: number;
  readonly end: number;
}

export function emptyScore(): NameScore {
  return { truePositives: 0, falsePositives: 0, falseNegatives: 0, placeOrgSpans: 0, placeOrgFlagged: 0 };
}

export function addScore(into: NameScore, gold: readonly Span[], goldPlaceOrg: readonly Span[], predicted: readonly Span[]): void {
  const key = (s: Span): string => `${s.start}:${s.end}`;
  const goldKeys = new Set(gold.map(key));
  const predKeys = new Set(predicted.map(key));
  for (const k of predKeys) if (goldKeys.has(k)) into.truePositives += 1;
  else into.falsePositives += 1;
  for (const k of goldKeys) if (!predKeys.has(k)) into.falseNegatives += 1;
  for (const g of goldPlaceOrg) {
    into.placeOrgSpans += 1;
    if (predicted.some((p) => p.start < g.end && g.start < p.end)) into.placeOrgFlagged += 1;
  }
}

export function mergeScores(a: NameScore, b: NameScore): NameScore {
  return {
    truePositives: a.truePositives + b.truePositives,
    falsePositives: a.falsePositives + b.falsePositives,
    falseNegatives: a.falseNegatives + b.falseNegatives,
    placeOrgSpans: a.placeOrgSpans + b.placeOrgSpans,
    placeOrgFlagged: a.placeOrgFlagged + b.placeOrgFlagged,
  };
}

export function precision(s: NameScore): number {
  const d = s.truePositives + s.falsePositives;
  return d === 0 ? 1 : s.truePositives / d;
}

export function recall(s: NameScore): number {
  const d = s.truePositives + s.falseNegatives;
  return d === 0 ? 1 : s.truePositives / d;
}

export function f1(s: NameScore): number {
  const p = precision(s);
  const r = recall(s);
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
}

/** A sentence's words joined by single spaces, and its word spans as character spans of that text. */
export function sentenceText(words: readonly string[]): { text: string; chars: (spans: readonly Span[]) => Span[] } {
  const starts: number[] = [];
  const ends: number[] = [];
  let text = '';
  for (const w of words) {
    if (text !== '') text += ' ';
    starts.push(text.length);
    text += w;
    ends.push(text.length);
  }
  return { text, chars: (spans) => spans.map((x) => ({ start: starts[x.start] as number, end: ends[x.end - 1] as number })) };
}

/** Spans of one kind in BIO tags over token indexes (end exclusive). */
export function tagSpans(tags: Uint8Array, kindIndex: number): Span[] {
  const out: Span[] = [];
  const b = kindIndex * 2 + 1;
  let i = 0;
  while (i < tags.length) {
    if (tags[i] !== b && !(tags[i] === b + 1 && (i === 0 || (tags[i - 1] !== b && tags[i - 1] !== b + 1)))) {
      i += 1;
      continue;
    }
    let j = i + 1;
    while (j < tags.length && tags[j] === b + 1) j += 1;
    out.push({ start: i, end: j });
    i = j;
  }
  return out;
}

/**
 * Gold names as the detector is to find them: after an honorific that opens the span ("Mr. Utterson", "Miss
 * Bates" in LitBank's labels). The detector leaves titles readable by design ("Mr [REDACTED_PERSON]"), as CoNLL,
 * GermEval, KPWr and the other sources label names; scoring LitBank's spans whole counted every titled name
 * found as one miss and one false alarm. One-letter titles ("M.") stay: there they may be a given name's initial.
 * For the detector's score only: the tagger is trained and scored on the labels as read.
 */
export function namesAfterTitles(words: readonly string[], spans: readonly Span[]): Span[] {
  return spans.map((x) => {
    const first = (words[x.start] as string).replace(/\.$/, '');
    return x.end - x.start > 1 && first.length > 1 && TITLE_SET.has(first) ? { start: x.start + 1, end: x.end } : x;
  });
}
