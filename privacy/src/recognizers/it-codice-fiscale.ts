import { RANK_CHECKSUM } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';

// Italian codice fiscale: 6 letters (surname, name), 2-digit year, month letter, 2-digit day (+40 for
// women), 4-character municipality code, check letter (DM 23/12/1976). Digits may be replaced by the
// letters LMNPQRSTUV ("omocodia") when two people would share a code.

const D = '[0-9LMNPQRSTUV]';
const CF_RE = new RegExp(`\\b[A-Z]{6}${D}{2}[ABCDEHLMPRST]${D}{2}[A-Z]${D}{3}[A-Z]\\b`, 'g');
const OMOCODE = 'LMNPQRSTUV';
// Values of characters in odd (1st, 3rd, …) positions, for 0-9 then A-Z.
const ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];

function charValue(code: number): number {
  return code <= 57 ? code - 48 : code - 65;
}

export function isValidCodiceFiscale(cf: string): boolean {
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const code = cf.charCodeAt(i);
    const v = charValue(code);
    sum += i % 2 === 0 ? (ODD[v] ?? 0) : v;
  }
  if (String.fromCharCode(65 + (sum % 26)) !== cf.charAt(15)) return false;
  const day = Number(decodeDigits(cf.slice(9, 11)));
  return (day >= 1 && day <= 31) || (day >= 41 && day <= 71);
}

function decodeDigits(s: string): string {
  let out = '';
  for (const c of s) out += OMOCODE.includes(c) ? String(OMOCODE.indexOf(c)) : c;
  return out;
}

function find(text: string, out: Candidate[]): void {
  CF_RE.lastIndex = 0;
  for (let m = CF_RE.exec(text); m !== null; m = CF_RE.exec(text)) {
    if (!isValidCodiceFiscale(m[0])) continue;
    out.push({ type: 'IT_CODICE_FISCALE', start: m.index, end: m.index + 16, rank: RANK_CHECKSUM });
  }
}

export const itCodiceFiscaleRecognizer: Recognizer = { name: 'it-codice-fiscale', find };
