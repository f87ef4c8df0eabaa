import { RANK_FORMAT } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';

// UK postcode: outward code (area + district) and inward code (sector digit + two unit letters), as
// published by Royal Mail. The area must be one of the 121 real postcode areas, which rules out most
// look-alikes such as part numbers ("X1 2AB"); the inward letters never include C I K M O V.

const POSTCODE_RE =
  /\b([A-PR-UWYZ][A-HK-Y]?)(\d[A-Z\d]?) ?(\d[ABD-HJLNP-UW-Z]{2})\b|\bGIR ?0AA\b/g;

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

function find(text: string, out: Candidate[]): void {
  POSTCODE_RE.lastIndex = 0;
  for (let m = POSTCODE_RE.exec(text); m !== null; m = POSTCODE_RE.exec(text)) {
    const area = m[1];
    const district = m[2];
    if (area !== undefined && district !== undefined && !isValidOutward(area, district)) continue;
    out.push({ type: 'UK_POSTCODE', start: m.index, end: m.index + m[0].length, rank: RANK_FORMAT });
  }
}

export const ukPostcodeRecognizer: Recognizer = { name: 'uk-postcode', find };
