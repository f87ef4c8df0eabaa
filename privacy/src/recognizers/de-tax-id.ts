import { hasContextBefore } from '../context.js';
import { RANK_CHECKSUM } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';

// German Steuerliche Identifikationsnummer: 11 digits, no leading zero; among the first ten exactly one
// digit repeats (twice, or three times but not three in a row) and the last is an ISO 7064 MOD 11,10
// check digit. An unformatted 11-digit run is too common to report without "Steuer-ID"-like context.

const CONTEXT_RE =
  /\b(?:steuer-?id(?:entifikationsnummer)?|steuerliche identifikationsnummer|identifikationsnummer|idnr|tax id|tin)\b/i;
const VALUE_RE = /(?<![\w+@.\/\-]|\d[ .\-])\d{2} ?\d{3} ?\d{3} ?\d{3}(?![\w@]|[.,\-\/]?\d)/g;

export function isValidDeTaxId(digits: string): boolean {
  if (!/^[1-9]\d{10}$/.test(digits)) return false;
  const counts = new Array<number>(10).fill(0);
  for (let i = 0; i < 10; i++) counts[digits.charCodeAt(i) - 48] += 1;
  let repeated = 0;
  for (const c of counts) {
    if (c === 2 || c === 3) repeated++;
    else if (c > 3) return false;
  }
  if (repeated !== 1) return false;
  if (/(\d)\1\1/.test(digits.slice(0, 10))) return false;
  let product = 10;
  for (let i = 0; i < 10; i++) {
    let sum = (digits.charCodeAt(i) - 48 + product) % 10;
    if (sum === 0) sum = 10;
    product = (sum * 2) % 11;
  }
  const check = (11 - product) % 10;
  return check === digits.charCodeAt(10) - 48;
}

// Value first, then context: an 11-digit run is rarer in prose than the letters of a context word.
function find(text: string, out: Candidate[]): void {
  VALUE_RE.lastIndex = 0;
  for (let m = VALUE_RE.exec(text); m !== null; m = VALUE_RE.exec(text)) {
    if (!isValidDeTaxId(m[0].replace(/ /g, '')) || !hasContextBefore(text, m.index, 40, CONTEXT_RE, 'line')) continue;
    out.push({ type: 'DE_TAX_ID', start: m.index, end: m.index + m[0].length, rank: RANK_CHECKSUM });
  }
}

export const deTaxIdRecognizer: Recognizer = { name: 'de-tax-id', find };
