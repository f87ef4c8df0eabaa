import { forEachValueAfterContext } from '../context.js';
import { RANK_CONTEXT } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';

// GB driving licence number (DVLA): 5 characters of surname padded with 9s, the birth date encoded as
// decade digit, month (+50 for women), day and year digit, two initials padded with 9, a digit and two
// check letters, optionally a 2-digit issue number. Reported after licence context; the encoded month and
// day must be possible.

const CONTEXT_RE = /\b(?:driving licen[cs]e|driver'?s licen[cs]e|DVLA|licen[cs]e (?:no|number))\b/gi;
const VALUE_RE = /\b[A-Z][A-Z9]{4}\d[0156]\d[0-3]\d\d[A-Z9]{2}\d[A-Z]{2}(?: ?\d{2})?\b/g;
const SURNAME_RE = /^[A-Z]+9*$/;

function isValid(value: string): boolean {
  if (!SURNAME_RE.test(value.slice(0, 5))) return false;
  const month = Number(value.slice(6, 8)) % 50;
  const day = Number(value.slice(8, 10));
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

function find(text: string, out: Candidate[]): void {
  forEachValueAfterContext(text, CONTEXT_RE, VALUE_RE, 32, 19, (start, m) => {
    if (isValid(m[0])) out.push({ type: 'UK_DRIVING_LICENCE', start, end: start + m[0].length, rank: RANK_CONTEXT });
  });
}

export const ukDrivingLicenceRecognizer: Recognizer = { name: 'uk-driving-licence', find };
