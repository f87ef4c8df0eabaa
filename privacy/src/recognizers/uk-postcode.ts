import { forEachValueAfterContext } from '../context.js';
import { RANK_FORMAT } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';

// UK postcode: outward code (area + district) and inward code (sector digit + two unit letters), as
// published by Royal Mail. The area must be one of the 121 real postcode areas, which rules out most
// look-alikes such as part numbers ("X1 2AB"); the inward letters never include C I K M O V.
// The regexes start at the district digit (a letter-led scan of prose is several times slower) and the
// one or two area letters before it are checked in code. Lower case ("sw1a 1aa", as typed in chat) is
// accepted with the space, which keeps it rare in other lower-case text, or compact right after the word
// "postcode".

const UPPER_RE = /\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{2}\b/g;
const LOWER_RE = /\d[a-z\d]? \d[abd-hjlnp-uw-z]{2}\b/g;
const CONTEXT_RE = /\b(?:post ?code|postal code)\b/gi;
const COMPACT_AFTER_CONTEXT_RE = /\b[a-z]{1,2}\d[a-z\d]?\d[abd-hjlnp-uw-z]{2}\b/gi;

const AREAS = new Set(
  (
    'AB AL B BA BB BD BH BL BN BR BS BT CA CB CF CH CM CO CR CT CV CW DA DD DE DG DH DL DN DT DY E EC EH EN ' +
    'EX FK FY G GL GU GY HA HD HG HP HR HS HU HX IG IM IP IV JE KA KT KW KY L LA LD LE LL LN LS LU M ME MK ' +
    'ML N NE NG NN NP NR NW OL OX PA PE PH PL PO PR RG RH RM S SA SE SG SK SL SM SN SO SP SR SS ST SW SY TA ' +
    'TD TF TN TQ TR TS TW UB W WA WC WD WF WN WR WS WV YO ZE'
  ).split(' '),
);

// District suffix letters: A9A areas (E1W, W1A, N1C…) use A-HJKPSTUW; AA9A areas (SW1A, EC1A…) ABEHMNPRVWXY.
const ONE_LETTER_AREA_SUFFIX = /^\d[A-HJKPSTUW]$/;
const TWO_LETTER_AREA_SUFFIX = /^\d[ABEHMNPRVWXY]$/;

function isValidOutward(area: string, district: string): boolean {
  if (!AREAS.has(area)) return false;
  if (district.length === 1 || /^\d\d$/.test(district)) return true;
  return area.length === 1 ? ONE_LETTER_AREA_SUFFIX.test(district) : TWO_LETTER_AREA_SUFFIX.test(district);
}

function isLetter(code: number, lower: boolean): boolean {
  return lower ? code >= 97 && code <= 122 : code >= 65 && code <= 90;
}

function isAlnum(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

function findWith(re: RegExp, lower: boolean, text: string, out: Candidate[]): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const digit = m.index;
    let start = digit;
    while (start > 0 && digit - start < 2 && isLetter(text.charCodeAt(start - 1), lower)) start--;
    if (start === digit || (start > 0 && isAlnum(text.charCodeAt(start - 1)))) continue;
    // The inward code is always the last three characters; the district is what precedes it.
    const district = m[0].replace(' ', '').slice(0, -3).toUpperCase();
    if (!isValidOutward(text.slice(start, digit).toUpperCase(), district)) continue;
    out.push({ type: 'UK_POSTCODE', start, end: digit + m[0].length, rank: RANK_FORMAT });
  }
}

function find(text: string, out: Candidate[]): void {
  findWith(UPPER_RE, false, text, out);
  findWith(LOWER_RE, true, text, out);
  forEachValueAfterContext(text, CONTEXT_RE, COMPACT_AFTER_CONTEXT_RE, 16, 7, (start, m) => {
    const value = m[0].toUpperCase();
    const digit = value.search(/\d/);
    if (!isValidOutward(value.slice(0, digit), value.slice(digit, -3))) return;
    out.push({ type: 'UK_POSTCODE', start, end: start + value.length, rank: RANK_FORMAT });
  });
}

export const ukPostcodeRecognizer: Recognizer = { name: 'uk-postcode', find };
