import { hasContextBefore } from '../context.js';
import { RANK_CHECKSUM } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';

// Polish PESEL: 11 digits encoding the birth date (month +80/+20/+40/+60 for the 1800s/2000s/2100s/
// 2200s) and a weighted mod 10 check digit. Unformatted 11-digit runs are common (UK mobiles written
// without spaces), and about 2% pass both checks, so "PESEL" must precede it.

const CONTEXT_RE = /\bPESEL\b/i;
const VALUE_RE = /(?<![\w+@.\/\-]|\d[ .\-])\d{11}(?![\w@]|[.,\-\/]?\d)/g;
const WEIGHTS = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3];
const CENTURY_BY_MONTH_OFFSET: Readonly<Record<number, number>> = { 80: 1800, 0: 1900, 20: 2000, 40: 2100, 60: 2200 };

export function isValidPesel(digits: string): boolean {
  if (!/^\d{11}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (digits.charCodeAt(i) - 48) * (WEIGHTS[i] ?? 0);
  if ((10 - (sum % 10)) % 10 !== digits.charCodeAt(10) - 48) return false;
  const rawMonth = Number(digits.slice(2, 4));
  const offset = rawMonth - ((rawMonth - 1) % 20) - 1;
  const century = CENTURY_BY_MONTH_OFFSET[offset];
  if (century === undefined) return false;
  const year = century + Number(digits.slice(0, 2));
  const month = rawMonth - offset;
  const day = Number(digits.slice(4, 6));
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

// Value first, then context: an 11-digit run is rarer in prose than the letters of a context word.
function find(text: string, out: Candidate[]): void {
  VALUE_RE.lastIndex = 0;
  for (let m = VALUE_RE.exec(text); m !== null; m = VALUE_RE.exec(text)) {
    if (!isValidPesel(m[0]) || !hasContextBefore(text, m.index, 32, CONTEXT_RE, 'line')) continue;
    out.push({ type: 'PL_PESEL', start: m.index, end: m.index + 11, rank: RANK_CHECKSUM });
  }
}

export const plPeselRecognizer: Recognizer = { name: 'pl-pesel', find };
