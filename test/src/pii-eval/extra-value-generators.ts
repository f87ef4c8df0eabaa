import type { Prng } from '../support/prng.js';

// Valid values of the extra (context-dependent or EU) types; check digits computed independently of
// the recognizers.

const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
];

/** `n` with leading zeros to `width` digits. */
export function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

export function dateOfBirth(r: Prng): string {
  const y = r.int(1935, 2006);
  const m = r.int(1, 12);
  const d = r.int(1, 28);
  return r.pick([
    `${pad(d)}/${pad(m)}/${y}`,
    `${d}/${m}/${y}`,
    `${y}-${pad(m)}-${pad(d)}`,
    `${d} ${MONTHS[m - 1] ?? 'May'} ${y}`,
    `${MONTHS[m - 1] ?? 'May'} ${d}, ${y}`,
    `${pad(d)}.${pad(m)}.${y}`,
  ]);
}

export function ukPassport(r: Prng): string {
  return `${r.int(1, 9)}${r.digits(8)}`;
}

export function ukDrivingLicence(r: Prng): string {
  const surname = r.letters(r.int(2, 5)).padEnd(5, '9');
  const year = r.int(1940, 2005);
  const month = r.int(1, 12) + (r.chance(0.5) ? 50 : 0);
  const day = r.int(1, 28);
  const yy = pad(year % 100);
  const initials = r.chance(0.3) ? `${r.letters(1)}9` : r.letters(2);
  return `${surname}${yy.charAt(0)}${pad(month)}${pad(day)}${yy.charAt(1)}${initials}9${r.letters(2)}`;
}

const NIF_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

export function esNif(r: Prng): string {
  const n = r.int(1000000, 99999999);
  return `${pad(n, 8)}${r.chance(0.2) ? '-' : ''}${NIF_LETTERS[n % 23] ?? 'T'}`;
}

export function esNie(r: Prng): string {
  const lead = r.int(0, 2);
  const n = r.digits(7);
  return `${'XYZ'[lead] ?? 'X'}${n}${NIF_LETTERS[Number(`${lead}${n}`) % 23] ?? 'T'}`;
}

const CF_ODD: Readonly<Record<string, number>> = {
  0: 1, 1: 0, 2: 5, 3: 7, 4: 9, 5: 13, 6: 15, 7: 17, 8: 19, 9: 21,
  A: 1, B: 0, C: 5, D: 7, E: 9, F: 13, G: 15, H: 17, I: 19, J: 21, K: 2, L: 4, M: 18, N: 20, O: 11, P: 3,
  Q: 6, R: 8, S: 12, T: 14, U: 16, V: 10, W: 22, X: 25, Y: 24, Z: 23,
};

export function itCodiceFiscale(r: Prng): string {
  const day = r.int(1, 28) + (r.chance(0.5) ? 40 : 0);
  const name = r.letters(6, 'BCDFGLMNPRSTVZ');
  const month = r.letters(1, 'ABCDEHLMPRST');
  const body = `${name}${r.digits(2)}${month}${pad(day)}${r.letters(1, 'ABCDEFGHILM')}${r.digits(3)}`;
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const c = body.charAt(i);
    const even = /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 65;
    sum += i % 2 === 0 ? (CF_ODD[c] ?? 0) : even;
  }
  return `${body}${String.fromCharCode(65 + (sum % 26))}`;
}

export function plPesel(r: Prng): string {
  const year = r.int(1940, 2010);
  const month = r.int(1, 12) + (year >= 2000 ? 20 : 0);
  const body = `${pad(year % 100)}${pad(month)}${pad(r.int(1, 28))}${r.digits(4)}`;
  const w = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3];
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += Number(body[i]) * (w[i] ?? 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

export function frNir(r: Prng): string {
  const sex = r.pick(['1', '2']);
  const yy = pad(r.int(0, 99));
  const mm = pad(r.int(1, 12));
  const dept = pad(r.int(1, 95));
  const commune = pad(r.int(1, 999), 3);
  const order = pad(r.int(1, 999), 3);
  const key = pad(97 - (Number(`${sex}${yy}${mm}${dept}${commune}${order}`) % 97));
  const parts = [sex, yy, mm, dept, commune, order, key];
  return parts.join(r.chance(0.5) ? '' : ' ');
}

export function deTaxId(r: Prng): string {
  for (;;) {
    // Ten digits where exactly one digit occurs twice: shuffle nine distinct digits plus one repeat.
    const pool = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
    for (let i = pool.length - 1; i > 0; i--) {
      const j = r.int(0, i);
      [pool[i], pool[j]] = [pool[j] ?? '0', pool[i] ?? '0'];
    }
    const digits = pool.slice(0, 9);
    digits.splice(r.int(0, 9), 0, digits[r.int(0, 8)] ?? '1');
    const body = digits.join('');
    if (body.startsWith('0')) continue;
    let product = 10;
    for (const c of body) {
      const s = (Number(c) + product) % 10 || 10;
      product = (s * 2) % 11;
    }
    return `${body}${(11 - product) % 10}`;
  }
}
