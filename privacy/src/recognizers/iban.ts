import { countrySpecs, isValidIBAN } from 'ibantools';
import { RANK_CHECKSUM } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';

// IBAN: country code, two check digits, then the country's BBAN; printed compact or in groups of four.
// The greedy candidate may run into the next word ("… 32 THEN"), so it is cut to the length the
// country's specification requires before ibantools checks the BBAN format and mod 97. Lowercase is
// accepted ("my iban is gb42…") and normalised before validation.

const IBAN_RE = /(?<![\w@.\/-])[A-Za-z]{2}\d{2}(?:[ -]?[A-Za-z0-9]{4}){2,7}(?:[ -]?[A-Za-z0-9]{1,4})?(?![\w@])/g;

function ibanLength(country: string): number {
  return countrySpecs[country]?.chars ?? 0;
}

function find(text: string, out: Candidate[]): void {
  IBAN_RE.lastIndex = 0;
  for (let m = IBAN_RE.exec(text); m !== null; m = IBAN_RE.exec(text)) {
    const raw = m[0];
    const country = raw.slice(0, 2).toUpperCase();
    const want = ibanLength(country);
    if (want === 0) continue;
    // Walk the raw text until `want` alphanumerics are taken; the span ends there.
    let taken = 0;
    let end = 0;
    while (end < raw.length && taken < want) {
      const c = raw.charCodeAt(end);
      if (c !== 32 && c !== 45) taken++;
      end++;
    }
    if (taken < want) continue;
    // A cut inside a group of the printed form means the rest belongs to another token.
    if (end < raw.length && raw.charCodeAt(end) !== 32 && raw.charCodeAt(end) !== 45) continue;
    const compact = raw.slice(0, end).replace(/[ -]/g, '').toUpperCase();
    if (!isValidIBAN(compact)) continue;
    out.push({ type: 'IBAN', start: m.index, end: m.index + end, rank: RANK_CHECKSUM });
  }
}

export const ibanRecognizer: Recognizer = { name: 'iban', find };
