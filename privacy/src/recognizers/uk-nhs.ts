import { textBeforeSinceNumber } from '../context.js';
import { RANK_CHECKSUM } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';
import { contactLine, PHONE_WORDS_RE } from './phone.js';

// NHS number: 10 digits, the last a mod 11 check digit. About 1 in 11 random 10-digit runs passes the
// check, and 10-digit ids and Unix timestamps are everywhere, so a candidate must be written the way NHS
// numbers are (3-3-4 with one kind of separator, "943 476 5919") or have "NHS", "patient" (or CHI / H&C,
// the Scottish and Northern Irish equivalents) just before it. A 3-3-4 run starting with 0 or introduced
// as a phone number (in any of the seven languages: "Chiamami al 335 921 3874", or in a contact line: "Salomone
// Panico – 349 255 7988") is treated as a phone unless NHS context says otherwise.

const NHS_RE = /(?<![\w+@.\/\-]|\d[ .\-])(\d{3})([ -]?)(\d{3})\2(\d{4})(?![\w@]|[.,\-\/]?\d)/g;
// Without NHS context, a printed 3-3-4 followed by " 12" is likely part of a longer grouped number.
const MORE_GROUPS_RE = /^[ -]\d/;
const NHS_CONTEXT_RE = /\b(?:NHS|CHI|H&C|patient|health (?:and care |& care )?(?:service )?(?:number|no))\b/i;

const WEIGHTS = [10, 9, 8, 7, 6, 5, 4, 3, 2] as const;

/** Mod 11 check of a 10-digit string (NHS Data Dictionary). */
export function isValidNhsNumber(digits: string): boolean {
  if (!/^\d{10}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (digits.charCodeAt(i) - 48) * (WEIGHTS[i] ?? 0);
  const check = 11 - (sum % 11);
  if (check === 10) return false;
  return (check === 11 ? 0 : check) === digits.charCodeAt(9) - 48;
}

function find(text: string, out: Candidate[]): void {
  NHS_RE.lastIndex = 0;
  for (let m = NHS_RE.exec(text); m !== null; m = NHS_RE.exec(text)) {
    const digits = `${m[1] ?? ''}${m[3] ?? ''}${m[4] ?? ''}`;
    if (!isValidNhsNumber(digits)) continue;
    const end = m.index + m[0].length;
    const before = textBeforeSinceNumber(text, m.index, 40);
    if (!NHS_CONTEXT_RE.test(before)) {
      if (m[2] === '' || digits.charCodeAt(0) === 48) continue;
      if (PHONE_WORDS_RE.test(before) || contactLine(text, m.index, end) || MORE_GROUPS_RE.test(text.slice(end, end + 2))) continue;
    }
    out.push({ type: 'UK_NHS', start: m.index, end, rank: RANK_CHECKSUM });
  }
}

export const ukNhsRecognizer: Recognizer = { name: 'uk-nhs', find };
