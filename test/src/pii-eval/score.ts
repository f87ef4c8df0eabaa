import type { Finding, PiiType } from '@gateway/privacy';
import type { GoldSpan } from './labelled-text.js';

// Span-level scoring. A prediction matches a gold span of the same type when they overlap (primary
// figures) or are identical (exact figures); each gold span is matched at most once. Only `types` are
// scored: predictions and gold spans of other types are ignored.

export interface Tally {
  tp: number;
  fp: number;
  fn: number;
  exactTp: number;
}

export type Scores = Map<PiiType, Tally>;

export function emptyScores(types: readonly PiiType[]): Scores {
  return new Map(types.map((t) => [t, { tp: 0, fp: 0, fn: 0, exactTp: 0 }]));
}

export interface ScoredError {
  kind: 'fp' | 'fn';
  type: PiiType;
  start: number;
  end: number;
}

/** Adds one text's outcome to `scores`; returns its errors (for --show-errors). */
export function scoreText(gold: readonly GoldSpan[], predicted: readonly Finding[], scores: Scores): ScoredError[] {
  const errors: ScoredError[] = [];
  const used = new Set<GoldSpan>();
  for (const p of predicted) {
    const tally = scores.get(p.type);
    if (tally === undefined) continue;
    let match: GoldSpan | undefined;
    for (const g of gold) {
      if (g.type !== p.type || used.has(g) || g.end <= p.start || p.end <= g.start) continue;
      // Prefer the exact span when several overlap.
      if (match === undefined || (g.start === p.start && g.end === p.end)) match = g;
    }
    if (match === undefined) {
      tally.fp++;
      errors.push({ kind: 'fp', type: p.type, start: p.start, end: p.end });
      continue;
    }
    used.add(match);
    tally.tp++;
    if (match.start === p.start && match.end === p.end) tally.exactTp++;
  }
  for (const g of gold) {
    const tally = scores.get(g.type);
    if (tally === undefined || used.has(g)) continue;
    tally.fn++;
    errors.push({ kind: 'fn', type: g.type, start: g.start, end: g.end });
  }
  return errors;
}

export interface Metrics {
  precision: number | null;
  recall: number | null;
  f1: number | null;
  exactF1: number | null;
}

function ratio(a: number, b: number): number | null {
  return b === 0 ? null : a / b;
}

function harmonic(p: number | null, r: number | null): number | null {
  if (p === null || r === null) return null;
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
}

export function metricsOf(t: Tally): Metrics {
  const precision = ratio(t.tp, t.tp + t.fp);
  const recall = ratio(t.tp, t.tp + t.fn);
  const exactF1 = harmonic(ratio(t.exactTp, t.tp + t.fp), ratio(t.exactTp, t.tp + t.fn));
  return { precision, recall, f1: harmonic(precision, recall), exactF1 };
}
