import type { Finding } from './pii-types.js';
import type { Candidate } from './recognizer.js';
import { DIGIT_RECOGNIZERS, TEXT_RECOGNIZERS } from './recognizers/all-recognizers.js';
import { resolveOverlaps } from './resolve-overlaps.js';

const HAS_DIGIT_RE = /\d/;

/** All PII in `text`: sorted by start, non-overlapping. Never logs what it finds. */
export function detect(text: string): Finding[] {
  const candidates: Candidate[] = [];
  for (const r of TEXT_RECOGNIZERS) r.find(text, candidates);
  // Most recognizers need a digit; prose without one costs a single scan for them all.
  if (HAS_DIGIT_RE.test(text)) for (const r of DIGIT_RECOGNIZERS) r.find(text, candidates);
  if (candidates.length === 0) return [];
  return resolveOverlaps(candidates).map((s) => ({ type: s.type, start: s.start, end: s.end, value: text.slice(s.start, s.end) }));
}
