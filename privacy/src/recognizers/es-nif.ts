import { RANK_CHECKSUM } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';

// Spanish personal tax ids. DNI/NIF: 8 digits and a control letter; NIE (foreigners): X, Y or Z, 7 digits
// and a control letter, X/Y/Z counting as 0/1/2. The letter is TRWAGMYFPDXBNJZSQVHLCKE[number mod 23].

const NIF_RE = /(?<![\w+@.\/\-]|\d[ .\-])(\d{8})[ -]?([A-Z])(?![\w@])/g;
const NIE_RE = /(?<![\w@.\/\-])([XYZ])[ -]?(\d{7})[ -]?([A-Z])(?![\w@])/g;
const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

export function nifLetter(number: number): string {
  return LETTERS.charAt(number % 23);
}

function find(text: string, out: Candidate[]): void {
  NIF_RE.lastIndex = 0;
  for (let m = NIF_RE.exec(text); m !== null; m = NIF_RE.exec(text)) {
    if (nifLetter(Number(m[1])) !== m[2]) continue;
    out.push({ type: 'ES_NIF', start: m.index, end: m.index + m[0].length, rank: RANK_CHECKSUM });
  }
  NIE_RE.lastIndex = 0;
  for (let m = NIE_RE.exec(text); m !== null; m = NIE_RE.exec(text)) {
    const number = Number(`${'XYZ'.indexOf(m[1] ?? 'X')}${m[2] ?? ''}`);
    if (nifLetter(number) !== m[3]) continue;
    out.push({ type: 'ES_NIE', start: m.index, end: m.index + m[0].length, rank: RANK_CHECKSUM });
  }
}

export const esNifRecognizer: Recognizer = { name: 'es-nif', find };
