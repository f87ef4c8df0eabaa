import { RANK_LOOKALIKE } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';

// UUIDs and lowercase hex digests are full of digit runs that pass Luhn or mod 11 by chance. They are
// reported as LOOKALIKE spans, which outrank every type and are dropped after overlap resolution, so
// nothing inside them is reported. Lowercase only for digests: an uppercase run like a German IBAN
// (DE89370400440532013000) is all hex characters too.

const UUID_RE = /(?<![\w-])[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(?![\w-])/g;
const DIGEST_RE = /(?<![\w-])[0-9a-f]{20,128}(?![\w-])/g;
const HAS_LETTER_RE = /[a-f]/;

function find(text: string, out: Candidate[]): void {
  UUID_RE.lastIndex = 0;
  for (let m = UUID_RE.exec(text); m !== null; m = UUID_RE.exec(text)) {
    out.push({ type: 'LOOKALIKE', start: m.index, end: m.index + m[0].length, rank: RANK_LOOKALIKE });
  }
  DIGEST_RE.lastIndex = 0;
  for (let m = DIGEST_RE.exec(text); m !== null; m = DIGEST_RE.exec(text)) {
    if (!HAS_LETTER_RE.test(m[0])) continue;
    out.push({ type: 'LOOKALIKE', start: m.index, end: m.index + m[0].length, rank: RANK_LOOKALIKE });
  }
}

export const lookalikeRecognizer: Recognizer = { name: 'lookalike', find };
