import { forEachValueAfterContext, wordsRe } from '../context.js';
import { RANK_CONTEXT } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';

// A date is only personal data here when it is a date of birth, so the date must follow a birth word
// ("DOB:", "born on", "date of birth") within a short window. Numeric (dd/mm/yyyy, mm/dd/yyyy, ISO) and
// written forms ("3rd March 1985", "March 3, 1985") are accepted when the calendar date exists.

const CONTEXT_RE = wordsRe(
  [
    'd\\.?o\\.?b', 'date of birth', 'birth ?date', 'birthday', 'born(?: on| in)?', 'geburtsdatum', 'geboren(?: am)?',
    'fecha de nacimiento', 'data di nascita', 'date de naissance', 'data urodzenia',
    // The other six languages' "born (on)" and their abbreviations ("geb. 12-03-1985", "Geb.-Datum").
    'née? le', 'nacid[oa](?: el)?', 'nat[oa] il', 'urodzon[ya]', 'ur(?=\\.)', 'geboortedatum', 'geboren op',
    'geb(?=\\.)',
  ],
  'gi',
  true,
);
const MONTHS = 'jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec';
const MONTH_NAME = `(?:${MONTHS})[a-z]{0,6}\\.?`;
const DATE_RE = new RegExp(
  [
    String.raw`(?<![\w\/.\-])(\d{4})-(\d{1,2})-(\d{1,2})(?![\w\/\-]|\.\d)`,
    String.raw`(?<![\w\/.\-])(\d{1,2})[\/.\-](\d{1,2})[\/.\-](\d{4}|\d{2})(?![\w\/\-]|\.\d)`,
    String.raw`\b(\d{1,2})(?:st|nd|rd|th)?\s(?:of\s)?(${MONTH_NAME}),?\s(\d{4})\b`,
    String.raw`\b(${MONTH_NAME})\s(\d{1,2})(?:st|nd|rd|th)?,?\s(\d{4})\b`,
  ].join('|'),
  'gi',
);
const MONTH_INDEX: Readonly<Record<string, number>> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12,
};

function daysIn(month: number, year: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function isDate(year: number, month: number, day: number): boolean {
  return year >= 1900 && year <= 2100 && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(month, year);
}

function fullYear(y: string): number {
  const n = Number(y);
  return y.length === 2 ? (n > 30 ? 1900 + n : 2000 + n) : n;
}

function monthOf(name: string): number {
  return MONTH_INDEX[name.slice(0, 3).toLowerCase()] ?? 0;
}

/** Whether a DATE_RE match is a real calendar date (numeric forms may be day-first or month-first). */
function isValidMatch(m: RegExpExecArray): boolean {
  const g = (i: number): string => m[i] ?? '';
  if (m[1] !== undefined) return isDate(Number(g(1)), Number(g(2)), Number(g(3)));
  if (m[4] !== undefined) {
    const a = Number(g(4));
    const b = Number(g(5));
    const y = fullYear(g(6));
    return isDate(y, b, a) || isDate(y, a, b);
  }
  if (m[7] !== undefined) return isDate(Number(g(9)), monthOf(g(8)), Number(g(7)));
  return isDate(Number(g(12)), monthOf(g(10)), Number(g(11)));
}

function find(text: string, out: Candidate[]): void {
  forEachValueAfterContext(text, CONTEXT_RE, DATE_RE, 24, 32, (start, m) => {
    if (isValidMatch(m)) out.push({ type: 'DATE_OF_BIRTH', start, end: start + m[0].length, rank: RANK_CONTEXT });
  });
}

export const dateOfBirthRecognizer: Recognizer = { name: 'date-of-birth', find };
