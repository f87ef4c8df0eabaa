import { PII_TYPES } from './pii-types.js';
import type { PiiType } from './pii-types.js';
import type { Candidate } from './recognizer.js';

// Overlapping candidates are settled per cluster (a maximal run of transitively overlapping spans):
// higher rank first (checksummed types, then context-confirmed ones, then the rest), then the longer span, then the
// earlier start, then the type's position in PII_TYPES, so the result never depends on recognizer order.
// Clusters are almost always one or two spans; an occupancy array keeps the rare large one linear.

const TYPE_ORDER = new Map<string, number>(PII_TYPES.map((t, i) => [t, i]));

function compareByStart(a: { start: number; end: number }, b: { start: number; end: number }): number {
  return a.start - b.start || a.end - b.end;
}

function compareByPreference(a: Candidate, b: Candidate): number {
  return (
    b.rank - a.rank ||
    b.end - b.start - (a.end - a.start) ||
    a.start - b.start ||
    (TYPE_ORDER.get(a.type) ?? -1) - (TYPE_ORDER.get(b.type) ?? -1)
  );
}

export interface ResolvedSpan {
  type: PiiType;
  start: number;
  end: number;
}

function settleCluster(cluster: Candidate[], from: number, to: number, out: ResolvedSpan[]): void {
  if (cluster.length === 1) {
    const only = cluster[0];
    if (only !== undefined) out.push({ type: only.type, start: only.start, end: only.end });
    return;
  }
  const occupied = new Uint8Array(to - from);
  const kept: ResolvedSpan[] = [];
  cluster.sort(compareByPreference);
  for (const c of cluster) {
    let free = true;
    for (let i = c.start - from; i < c.end - from; i++) {
      if (occupied[i] === 1) {
        free = false;
        break;
      }
    }
    if (!free) continue;
    occupied.fill(1, c.start - from, c.end - from);
    kept.push({ type: c.type, start: c.start, end: c.end });
  }
  kept.sort(compareByStart);
  for (const k of kept) out.push(k);
}

/** Non-overlapping spans sorted by start. */
export function resolveOverlaps(candidates: Candidate[]): ResolvedSpan[] {
  const out: ResolvedSpan[] = [];
  if (candidates.length === 0) return out;
  candidates.sort(compareByStart);
  let cluster: Candidate[] = [];
  let from = 0;
  let to = -1;
  for (const c of candidates) {
    if (c.end <= c.start) continue;
    if (c.start >= to) {
      if (cluster.length > 0) settleCluster(cluster, from, to, out);
      cluster = [c];
      from = c.start;
      to = c.end;
    } else {
      cluster.push(c);
      if (c.end > to) to = c.end;
    }
  }
  if (cluster.length > 0) settleCluster(cluster, from, to, out);
  return out;
}
