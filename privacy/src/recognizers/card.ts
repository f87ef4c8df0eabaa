import { hasContextBefore, ID_LABEL_WORDS, idLabelRe } from '../context.js';
import { RANK_CHECKSUM } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';

// Payment card number (PAN): 12-19 digits, compact or grouped with one kind of separator (4-4-4-4[-3],
// Amex/Diners 4-6-5 and 4-6-4), a known issuer prefix for its length, and a valid Luhn check digit.
// Each loop iteration of the regex consumes exactly one digit, so it cannot backtrack ambiguously.

// A space then more digits may follow (an expiry date "12/25"), so only an adjacent digit stops a match.
const CARD_RE = /(?<![\w+@.\/\-]|\d[ .\-])\d(?:[ -]?\d){11,18}(?![\w@]|[.,\-\/]?\d)/g;
// Printed layouts: 4-4-4 (12), 4-4-4-4 (16), 4-4-4-4-1..3 (17-19), 4-6-4 (14), 4-6-5 (15).
const GROUPED_RE = /^(?:\d{4}([ -])\d{4}\1\d{4}(?:\1\d{4}(?:\1\d{1,3})?)?|\d{4}([ -])\d{6}\2\d{4,5})$/;
const COMPACT_RE = /^\d+$/;
const CARD_CONTEXT_RE = /\b(?:card|cc|credit|debit|maestro|visa|mastercard|amex|pan)\b/i;
const ID_CONTEXT_RE = idLabelRe(ID_LABEL_WORDS);

/** Luhn (mod 10) check over a digit string. */
export function isLuhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

function between(digits: string, prefixLength: number, low: number, high: number): boolean {
  const p = Number(digits.slice(0, prefixLength));
  return p >= low && p <= high;
}

/** Whether an issuer uses this prefix with this length (ISO/IEC 7812 ranges of the major schemes). */
export function isPlausibleCard(digits: string): boolean {
  const n = digits.length;
  const c = digits.charCodeAt(0) - 48;
  switch (c) {
    case 1: // JCB legacy 1800
      return n === 15 && digits.startsWith('1800');
    case 2: // Mastercard 2221-2720; JCB legacy 2131; Mir 2200-2204
      return (
        (n === 16 && between(digits, 4, 2221, 2720)) ||
        (n === 15 && digits.startsWith('2131')) ||
        (n >= 16 && n <= 19 && between(digits, 4, 2200, 2204))
      );
    case 3: // Amex 34/37; Diners 300-305, 36, 38, 39; JCB 3528-3589 (whole 35 block: no other scheme uses it)
      if (n === 15) return digits.startsWith('34') || digits.startsWith('37');
      if (digits.startsWith('35')) return n >= 16 && n <= 19;
      return n >= 14 && n <= 19 && (between(digits, 3, 300, 305) || /^3[689]/.test(digits));
    case 4: // Visa
      return n === 13 || n === 16 || n === 19;
    case 5: // Mastercard 51-55; Maestro 50, 56-59
      if (between(digits, 2, 51, 55)) return n === 16;
      return n >= 12 && n <= 19;
    case 6: // Discover 6011, 644-649, 65; UnionPay 62; Maestro 60-69
      return n >= 12 && n <= 19;
    default:
      return false;
  }
}

/** Length of the card number at the start of `raw`, or 0: the whole run, or the run cut at a space. */
function cardLength(raw: string): number {
  let candidate = raw;
  for (;;) {
    if (COMPACT_RE.test(candidate) || GROUPED_RE.test(candidate)) {
      const digits = candidate.replace(/[ -]/g, '');
      if (isPlausibleCard(digits) && isLuhnValid(digits)) return candidate.length;
    }
    // A number after the card ("PAN: 4111 1111 1111 1111 148 High Street") joins the greedy match.
    const space = candidate.lastIndexOf(' ');
    if (space < 12) return 0;
    candidate = candidate.slice(0, space);
  }
}

function find(text: string, out: Candidate[]): void {
  CARD_RE.lastIndex = 0;
  for (let m = CARD_RE.exec(text); m !== null; m = CARD_RE.exec(text)) {
    const length = cardLength(m[0]);
    if (length === 0) continue;
    // 12-digit Maestro and the retired 13-digit Visa look like ids: they need "card" context. An id label
    // right before ("order_id": …) rules a number out unless card context is there too.
    const digitCount = length - (m[0].slice(0, length).match(/[ -]/g)?.length ?? 0);
    const cardContext = hasContextBefore(text, m.index, 48, CARD_CONTEXT_RE, 'line');
    if (!cardContext && (digitCount <= 13 || hasContextBefore(text, m.index, 24, ID_CONTEXT_RE))) continue;
    out.push({ type: 'CARD', start: m.index, end: m.index + length, rank: RANK_CHECKSUM });
  }
}

export const cardRecognizer: Recognizer = { name: 'card', find };
