import { digitWindows } from './digit-windows.js';
import { isInsideLookalike } from './lookalike.js';
import type { Finding } from './pii-types.js';
import type { Candidate } from './recognizer.js';
import { DIGIT_RECOGNIZERS, TEXT_RECOGNIZERS } from './recognizers/all-recognizers.js';
import { resolveOverlaps } from './resolve-overlaps.js';

/** All PII in `text`: sorted by start, non-overlapping. Never logs what it finds. */
export function detect(text: string): Finding[] {
  const candidates: Candidate[] = [];
  for (const r of TEXT_RECOGNIZERS) r.find(text, candidates);
  // Recognizers that need a digit scan only the windows around digits.
  const windows = digitWindows(text);
  if (windows !== null) {
    const local: Candidate[] = [];
    for (const r of DIGIT_RECOGNIZERS) r.find(windows.text, local);
    for (const c of local) {
      const original = windows.toOriginal(c);
      if (original !== null) candidates.push(original);
    }
  }
  if (candidates.length === 0) return [];
  const kept = candidates.filter((c) => c.type === 'EMAIL' || !isInsideLookalike(text, c.start, c.end));
  return resolveOverlaps(kept).map((s) => ({
    type: s.type,
    start: s.start,
    end: s.end,
    value: text.slice(s.start, s.end),
  }));
}
