import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { CountryCode, PhoneNumber } from 'libphonenumber-js/max';
import { hasContextAfter, hasContextBefore } from '../context.js';
import { RANK_FORMAT } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';

// A regex proposes phone-shaped runs (digit groups with separators; the separator is mandatory between
// two digit groups, so a digit run can be split one way only and backtracking stays bounded); cheap
// checks (digit count, dates, id context) run before libphonenumber, which decides:
//  - '+' prefix: possible for its country code;  '00' prefix: valid, or possible with phone context;
//  - trunk '0': valid in GB (the default region), or possible in GB when written in groups (Ofcom's
//    drama ranges such as 07700 900123 are "possible" only), or valid in a neighbour region with context;
//  - otherwise: a North American shape valid in US, or valid in some region with phone context.
// A bare digit run without '+', '0' or context (order ids, timestamps) is never a phone.

const GROUP = String.raw`(?:\(\d{1,5}\)|\d{1,12})`;
const SEP = String.raw`(?:[ .\-\/]{1,2}|\s?\(0\)\s?|(?<=\)))`;
const EXT = String.raw`(?:\s{0,2}(?:x|ext\.?|extn\.?|extension)\s{0,2}\d{1,5})`;
const PHONE_RE = new RegExp(
  String.raw`(?<![\w+@.\/\-]|\d[ .\-])\+?${GROUP}(?:${SEP}${GROUP}){0,7}${EXT}?(?![\w@]|[.,\-\/]?\d)`,
  'g',
);
const EXT_RE = new RegExp(`${EXT}$`);
const GROUP_RE = /\(\d{1,5}\)|\d+/g;
const TRUNK_RE = /\(0\)/g;
const DATE_PREFIX_RE = /^(?:(\d{4})[-./](\d{1,2})[-./](\d{1,2})|(\d{1,2})[-./](\d{1,2})[-./](\d{4}|\d{2}))(?!\d)/;
const IPV4_SHAPE_RE = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const NANP_SHAPE_RE = /^(?:\(\d{3}\)\s?|\d{3}[-.])\d{3}[-.]\d{4}$/;
// How UK numbers are printed: a 3-5 digit area code (maybe in brackets), then one or two groups.
const UK_GROUPING_RE = /^\(?0\d{2,4}\)?(?:[ -]\d{3,6}){1,2}$/;
const UK_MOBILE_RE = /^07\d{9}$/;
const SEPARATOR_RE = /[ .\-\/()]/;

const CONTEXT_BEFORE_RE =
  /\b(?:phone|telephone|tel|mobile|mob|cell|cellphone|fax|call|calls|called|calling|ring|dial|sms|text me|whatsapp|contact|landline|desk|voicemail|answering|messages? (?:to|on)|reach (?:me|us|him|her|them))\b/i;
const CONTEXT_AFTER_RE = /^[ \t\-,(]{0,3}(?:office|mobile|mob|fax|home|work|cell|tel|phone|desk|landline)\b/i;
// An id label right before the number ("Order #", "PO number", "ISBN") outweighs any phone context.
const ID_CONTEXT_RE =
  /\b(?:order|invoice|inv|ref|reference|id|account|acct|tracking|transaction|txn|ticket|case|serial|sku|batch|po|isbn|utr|ssn|nhs|nino|iban|card|policy|customer|booking|claim|version|passport|licen[cs]e|pesel|code|vat)(?:[ _-]?(?:number|no\.?|num|id|#))?\W{0,4}$/i;

// Regions tried when context says "phone" but the number is national and not valid in GB.
const FALLBACK_REGIONS: readonly CountryCode[] = [
  'GB', 'IE', 'US', 'FR', 'DE', 'ES', 'IT', 'NL', 'BE', 'PT', 'PL', 'SE', 'DK', 'NO', 'FI', 'AT', 'CH', 'CZ',
  'HU', 'GR', 'AU', 'CA',
];

function parse(number: string, region?: CountryCode): PhoneNumber | undefined {
  return region === undefined ? parsePhoneNumberFromString(number) : parsePhoneNumberFromString(number, region);
}

function validInSomeRegion(digits: string): boolean {
  for (const region of FALLBACK_REGIONS) if (parse(digits, region)?.isValid() === true) return true;
  return false;
}

function digitsOf(main: string): string {
  return main.replace(TRUNK_RE, '').replace(/\D/g, '');
}

function isDay(n: number): boolean {
  return n >= 1 && n <= 31;
}

function isMonth(n: number): boolean {
  return n >= 1 && n <= 12;
}

/** Whether the text starts with a real calendar-looking date (2024-01-15, 15/01/2024, 1.2.24). */
function startsWithDate(main: string): boolean {
  const m = DATE_PREFIX_RE.exec(main);
  if (m === null) return false;
  if (m[1] !== undefined) return isMonth(Number(m[2])) && isDay(Number(m[3]));
  const a = Number(m[4]);
  const b = Number(m[5]);
  return (isDay(a) && isMonth(b)) || (isMonth(a) && isDay(b));
}

function accepts(main: string, digits: string, context: boolean): boolean {
  if (digits.length < 7 || digits.length > 15) return false;
  if (main.charCodeAt(0) === 43 /* + */) return parse(`+${digits}`)?.isPossible() === true;
  if (digits.startsWith('00') && !digits.startsWith('000')) {
    const p = parse(`+${digits.slice(2)}`);
    return p !== undefined && (p.isValid() || (p.isPossible() && (context || SEPARATOR_RE.test(main))));
  }
  if (digits.charCodeAt(0) === 48 /* 0 */) {
    const p = parse(digits, 'GB');
    if (p?.isValid() === true) return true;
    // Unallocated but well-formed UK numbers (Ofcom's drama ranges, 07700 900123) are still phone numbers.
    const ukShaped = (UK_GROUPING_RE.test(main) || UK_MOBILE_RE.test(main)) && digits.length >= 10;
    if (ukShaped && p?.isPossible() === true) return true;
    return context && validInSomeRegion(digits);
  }
  if (NANP_SHAPE_RE.test(main) && parse(digits, 'US')?.isValid() === true) return true;
  return context && validInSomeRegion(digits);
}

/** End (relative to `raw`) of the longest acceptable prefix of whole groups, or -1. */
function acceptedLength(raw: string, contextBefore: boolean, contextAfter: boolean): number {
  const ext = EXT_RE.exec(raw);
  const main = ext === null ? raw : raw.slice(0, ext.index);
  if (startsWithDate(main) || IPV4_SHAPE_RE.test(main)) return -1;
  if (accepts(main, digitsOf(main), contextBefore || contextAfter)) return raw.length;
  // The regex is greedy, so a phone followed by an unrelated number ("020 7946 0958 2 times") is retried
  // without its trailing groups; only at a space: "978-0-306" or "10.0.19045" are one token, not a phone.
  GROUP_RE.lastIndex = 0;
  const groupEnds: number[] = [];
  for (let g = GROUP_RE.exec(main); g !== null; g = GROUP_RE.exec(main)) groupEnds.push(g.index + g[0].length);
  for (let k = groupEnds.length - 2; k >= 0; k--) {
    const end = groupEnds[k] ?? 0;
    if (main.charCodeAt(end) !== 32) continue;
    const sub = main.slice(0, end);
    const digits = digitsOf(sub);
    if (digits.length < 7) break;
    if (accepts(sub, digits, contextBefore)) return sub.length;
  }
  return -1;
}

function find(text: string, out: Candidate[]): void {
  PHONE_RE.lastIndex = 0;
  for (let m = PHONE_RE.exec(text); m !== null; m = PHONE_RE.exec(text)) {
    const raw = m[0];
    // Cheap rejections first: libphonenumber costs tens of microseconds per parse.
    if (raw.length < 7) continue;
    const start = m.index;
    if (raw.charCodeAt(0) !== 43 && hasContextBefore(text, start, 24, ID_CONTEXT_RE)) continue;
    const length = acceptedLength(
      raw,
      hasContextBefore(text, start, 40, CONTEXT_BEFORE_RE),
      hasContextAfter(text, start + raw.length, 16, CONTEXT_AFTER_RE),
    );
    if (length > 0) out.push({ type: 'PHONE', start, end: start + length, rank: RANK_FORMAT });
  }
}

export const phoneRecognizer: Recognizer = { name: 'phone', find };
