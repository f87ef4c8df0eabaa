import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { CountryCode, PhoneNumber } from 'libphonenumber-js/max';

// The libphonenumber half of phone detection. Which check applies depends on how the number is written:
//  - '+' prefix: possible for its country code;  '00' prefix: valid, or possible when grouped or in context;
//  - printed the way France, Italy, Spain, Poland or the Netherlands print their numbers (or a German mobile),
//    not in a byte dump,
//    and valid there: a phone, context or not (NATIONAL_SHAPES);
//  - trunk '0': valid in GB (the default region), or possible in GB when printed the UK way (Ofcom's drama
//    ranges such as 07700 900123 are only "possible"), or valid in a neighbouring region with context;
//  - otherwise: a North American shape valid in US, or valid in some region with phone context.
// A parse costs 30-80 µs (libphonenumber compiles its metadata regexes on every call), so parses are
// memoised per detect call, and context, which costs a slice and a regex, is only asked for when needed.

const NANP_SHAPE_RE = /^(?:\(\d{3}\)\s?|\d{3}[-.])\d{3}[-.]\d{4}$/;
// How UK numbers are printed: a 3-5 digit area code (maybe in brackets), then one or two groups.
const UK_GROUPING_RE = /^\(?0\d{2,4}\)?(?:[ -]\d{3,6}){1,2}$/;
const UK_MOBILE_RE = /^07\d{9}$/;
const SEPARATOR_RE = /[ .\-\/()]/;

// Regions tried when context says "phone" but the number is national and not valid in GB.
const FALLBACK_REGIONS: readonly CountryCode[] = [
  'GB', 'IE', 'US', 'FR', 'DE', 'ES', 'IT', 'NL', 'BE', 'PT', 'PL', 'SE', 'DK', 'NO', 'FI', 'AT', 'CH', 'CZ',
  'HU', 'GR', 'AU', 'CA',
];

/**
 * Numbers printed the way their own country prints them ("01 42 68 53 00", "338 5022016", "612 34 56 78",
 * "601-234-567", "020-1234567"): phones without a phone word when valid there; for Germany only mobiles (its
 * plan accepts most digit strings after a 0). "01 02 03 04 05" is a valid Paris number, so a shape is no phone in
 * a byte dump (PhoneContext.byteDump). Only grouped shapes a country really uses: MAC addresses and zero-padded
 * ids would pass a looser rule; three groups of three with spaces are how French, Polish and Spanish text writes amounts
 * ("612 345 678 visites"), and 3-3-4 with spaces is an NHS number's shape, so those need context. An ungrouped
 * ten-digit number with a trunk 0 is checked in France, Italy and the Netherlands, which all print them so.
 */
const NATIONAL_SHAPES: ReadonlyArray<readonly [CountryCode, RegExp, 'MOBILE' | 'ANY']> = [
  ['DE', /^01[5-7]\d(?:[ \/-]\d{7,8}| \d{3} \d{2} \d{2,3})$/, 'MOBILE'],
  ['FR', /^0[1-9](?:( |\.|-)\d{2}(?:\1\d{2}){3})$/, 'ANY'],
  ['NL', /^0(?:6[ -]\d{8}|6([ -])\d{4}\1\d{4}|[1-57-9]\d[ -]\d{7}|[1-57-9]\d[ -]\d{3}[ -]\d{4}|[1-57-9]\d{2}[ -]\d{6})$/, 'ANY'],
  ['IT', /^(?:3\d{2}[ -]\d{7}|0\d{1,3}(?:[ \/-]\d{6,8}| \d{4} \d{4}))$/, 'ANY'],
  ['ES', /^[6-9]\d{2}(?:( |\.|-)\d{2}\1\d{2}\1\d{2}|-\d{3}-\d{3})$/, 'ANY'],
  ['PL', /^(?:[1-9]\d{2}-\d{3}-\d{3}|[1-9]\d [1-9]\d{2} \d{2} \d{2})$/, 'ANY'],
];
/**
 * The starts of the NATIONAL_SHAPES that begin with a digit other than 0 (Spain, Poland, Italian mobiles), as one
 * regex source for the phone recognizer's fast path, which otherwise lets only '+', a trunk 0 or phone context
 * through. Kept here so a shape and its start change together. Its one group is the Spanish separator.
 */
export const NON_TRUNK_NATIONAL_START =
  String.raw`[6-9]\d{2}([ .-])\d{2}\1\d{2}\1\d{2}(?!\d)|[1-9]\d{2}-\d{3}-\d{3}(?!\d)|3\d{2}[ -]\d{7}(?!\d)|[1-9]\d [1-9]\d{2} \d{2} \d{2}(?!\d)`;
const TRUNK_TEN_RE = /^0[1-9]\d{8}$/;
const TRUNK_TEN_REGIONS: readonly CountryCode[] = ['FR', 'IT', 'NL'];

/** What the text around a candidate says; each answer computed at most once per candidate. */
export interface PhoneContext {
  /** Phone words before the number, or (when `wholeRun`) also right after the whole run. */
  phoneWords(wholeRun: boolean): boolean;
  /** A label right before the number says it is something else ("Order #", "ts=", an IBAN). */
  otherLabel(): boolean;
  /** A currency or unit right after the number makes it an amount ("612 34 56 78 Euro"). */
  amountAfter(): boolean;
  /** The number is bytes printed in decimal ("<Buffer 01 02 03 04 05>", "bytes: 01 02 …"). */
  byteDump(): boolean;
}

export class PhoneValidator {
  // Lives for one detect call only: a longer-lived cache would keep personal data in memory.
  private readonly parsed = new Map<string, PhoneNumber | null>();

  /**
   * Whether `main` (the number as written, extension removed) with these `digits` is a phone number.
   * `wholeRun` is false for a number retried without trailing groups, whose after-context is not its
   * own. Labels are asked before any parse, except for '+' numbers, which no id label overrides.
   */
  accepts(main: string, digits: string, around: PhoneContext, wholeRun: boolean): boolean {
    if (digits.length < 7 || digits.length > 15) return false;
    // "+48 …" and "(+48) …": an international number, possible for its country code.
    if (main.charCodeAt(0) === 43 /* + */ || main.startsWith('(+')) return this.parse(`+${digits}`)?.isPossible() === true;
    // A shorter part of a longer run ("01 02 03 04 05" of a byte dump) is no national number by its shape.
    if (wholeRun && this.nationalShape(main, digits) && !around.otherLabel() && !around.amountAfter() && !around.byteDump()) return true;
    const context = (): boolean => around.phoneWords(wholeRun);
    const nanpShaped = NANP_SHAPE_RE.test(main);
    const strong = digits.charCodeAt(0) === 48 /* 0 */ || nanpShaped;
    if ((!strong && !context()) || around.otherLabel()) return false;
    if (digits.startsWith('00') && !digits.startsWith('000')) {
      const p = this.parse(`+${digits.slice(2)}`);
      return p !== null && (p.isValid() || (p.isPossible() && (SEPARATOR_RE.test(main) || context())));
    }
    if (digits.charCodeAt(0) === 48 /* 0 */) {
      const p = this.parse(digits, 'GB');
      if (p?.isValid() === true) return true;
      const ukShaped = digits.length >= 10 && (UK_GROUPING_RE.test(main) || UK_MOBILE_RE.test(main));
      if (ukShaped && p?.isPossible() === true) return true;
      return context() && this.validInSomeRegion(digits);
    }
    if (nanpShaped && this.parse(digits, 'US')?.isValid() === true) return true;
    return context() && this.validInSomeRegion(digits);
  }

  private nationalShape(main: string, digits: string): boolean {
    for (const [region, shape, type] of NATIONAL_SHAPES) {
      if (!shape.test(main)) continue;
      const p = this.parse(digits, region);
      if (p?.isValid() === true && (type === 'ANY' || p.getType() === 'MOBILE')) return true;
    }
    if (!TRUNK_TEN_RE.test(main)) return false;
    return TRUNK_TEN_REGIONS.some((region) => this.parse(digits, region)?.isValid() === true);
  }

  private parse(number: string, region?: CountryCode): PhoneNumber | null {
    const key = region === undefined ? number : `${region}${number}`;
    let p = this.parsed.get(key);
    if (p === undefined) {
      const parsed = region === undefined ? parsePhoneNumberFromString(number) : parsePhoneNumberFromString(number, region);
      p = parsed ?? null;
      this.parsed.set(key, p);
    }
    return p;
  }

  private validInSomeRegion(digits: string): boolean {
    for (const region of FALLBACK_REGIONS) if (this.parse(digits, region)?.isValid() === true) return true;
    return false;
  }
}
