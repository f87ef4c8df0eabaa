import { RANK_FORMAT } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';

// National Insurance number: two prefix letters, six digits, suffix A-D (HMRC NIM39110). The first
// letter is never D F I Q U V, the second never D F I O Q U V, and BG GB KN NK NT TN ZZ are not
// allocated. Written "QQ123456C", "QQ 12 34 56 C" or with dashes; the suffix is required, since without it
// the shape is shared with many product codes.

const NINO_RE =
  /\b(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z](?:[ -]?\d{2}){3}[ -]?[A-D]\b/g;

function find(text: string, out: Candidate[]): void {
  NINO_RE.lastIndex = 0;
  for (let m = NINO_RE.exec(text); m !== null; m = NINO_RE.exec(text)) {
    out.push({ type: 'UK_NINO', start: m.index, end: m.index + m[0].length, rank: RANK_FORMAT });
  }
}

export const ukNinoRecognizer: Recognizer = { name: 'uk-nino', find };
