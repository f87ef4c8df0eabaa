import { RANK_CHECKSUM } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';

// French NIR (numéro de sécurité sociale): sex (1/2), year, month (01-12, or 20 / 30-42 / 50-99 when
// unknown), department (01-95, 2A, 2B, 96-99), commune, order number, and a 2-digit key
// 97 - (13 digits mod 97), with 2A/2B counted as 19/18. 15 characters, compact or in its printed groups.

const NIR_RE =
  /(?<![\w+@.\/\-]|\d[ .\-])([12]) ?(\d{2}) ?(\d{2}) ?(\d{2}|2[AB]) ?(\d{3}) ?(\d{3}) ?(\d{2})(?![\w@]|[.,\-\/]?\d)/g;

function isMonth(mm: number): boolean {
  return (mm >= 1 && mm <= 12) || mm === 20 || (mm >= 30 && mm <= 42) || mm >= 50;
}

export function isValidNir(sex: string, yy: string, mm: string, dept: string, rest: string, key: string): boolean {
  if (!isMonth(Number(mm)) || dept === '00') return false;
  const deptDigits = dept === '2A' ? '19' : dept === '2B' ? '18' : dept;
  const number = Number(`${sex}${yy}${mm}${deptDigits}${rest}`); // 13 digits < 2^53
  return 97 - (number % 97) === Number(key);
}

function find(text: string, out: Candidate[]): void {
  NIR_RE.lastIndex = 0;
  for (let m = NIR_RE.exec(text); m !== null; m = NIR_RE.exec(text)) {
    const [, sex = '', yy = '', mm = '', dept = '', commune = '', order = '', key = ''] = m;
    if (!isValidNir(sex, yy, mm, dept, `${commune}${order}`, key)) continue;
    out.push({ type: 'FR_NIR', start: m.index, end: m.index + m[0].length, rank: RANK_CHECKSUM });
  }
}

export const frNirRecognizer: Recognizer = { name: 'fr-nir', find };
