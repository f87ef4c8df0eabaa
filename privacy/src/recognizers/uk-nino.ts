import { forEachValueAfterContext } from '../context.js';
import { RANK_FORMAT } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';

// National Insurance number: two prefix letters, six digits, suffix A-D (HMRC NIM39110). The first
// letter is never D F I Q U V, the second never D F I O Q U V, and BG GB KN NK NT TN ZZ are not
// allocated. Written "QQ123456C", "QQ 12 34 56 C" or with dashes; the suffix is required, since without it
// the shape is shared with many product codes. Lower or mixed case only right after NI context.

const NINO_RE =
  /\b(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z](?:[ -]?\d{2}){3}[ -]?[A-D]\b/g;
const CONTEXT_RE = /\b(?:national insurance|NI (?:number|no)|NINO)\b/gi;
const ANY_CASE_RE = new RegExp(NINO_RE.source, 'gi');

function find(text: string, out: Candidate[]): void {
  NINO_RE.lastIndex = 0;
  for (let m = NINO_RE.exec(text); m !== null; m = NINO_RE.exec(text)) {
    out.push({ type: 'UK_NINO', start: m.index, end: m.index + m[0].length, rank: RANK_FORMAT });
  }
  // Upper-case values found again here are duplicates of the same span, which overlap resolution merges.
  forEachValueAfterContext(text, CONTEXT_RE, ANY_CASE_RE, 24, 14, (start, m) => {
    if (m[0] !== m[0].toUpperCase()) out.push({ type: 'UK_NINO', start, end: start + m[0].length, rank: RANK_FORMAT });
  });
}

export const ukNinoRecognizer: Recognizer = { name: 'uk-nino', find };
