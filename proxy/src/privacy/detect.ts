import { digitWindows } from './digit-windows.js';
import { isInsideLookalike } from './lookalike.js';
import { findTaggedNames, isCommonWord } from './names/name-detector.js';
import { addTaggedNames } from './names/tagged-names.js';
import type { Finding } from './pii-types.js';
import type { Candidate } from './recognizer.js';
import { DIGIT_RECOGNIZERS, TEXT_RECOGNIZERS } from './recognizers/all-recognizers.js';
import { namesBeforeContacts } from './recognizers/person.js';
import { resolveOverlaps } from './resolve-overlaps.js';

/**
 * No-break, narrow no-break, figure and thin spaces, as French, German and Polish typography writes phone
 * numbers and IBANs: each becomes a plain space for the recognizers. One UTF-16 unit for one, so offsets hold.
 */
const SPACE_LIKE_RE = /[\u00a0\u2007\u2009\u202f]/g;

/** All PII in `text`: sorted by start, non-overlapping; values as written. Never logs what it finds. */
export function detect(original: string): Finding[] {
  const text = original.replace(SPACE_LIKE_RE, ' ');
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
  // Even when the tagger finds no name: its silence overrules a lone list surname ("Frauen", "Vater") or a given
  // name that is a common word ("Dan", "Elke").
  addTaggedNames(text, findTaggedNames(text), candidates, isCommonWord);
  if (candidates.length === 0) return [];
  namesBeforeContacts(text, candidates.slice(), candidates);
  const kept = candidates.filter((c) => c.type === 'EMAIL' || !isInsideLookalike(text, c.start, c.end));
  return resolveOverlaps(kept).map((s) => ({
    type: s.type,
    start: s.start,
    end: s.end,
    value: original.slice(s.start, s.end),
  }));
}
