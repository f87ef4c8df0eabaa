import { composeIBAN, friendlyFormatIBAN, isValidBBAN } from 'ibantools';
import type { Prng } from '../support/prng.js';

// Valid values in the ways people write them. Check digits are computed here independently of the
// recognizers (only IBAN uses a library, ibantools), so a checksum bug in a recognizer shows up as misses.

const FIRST = [
  'james', 'olivia', 'amelia', 'harry', 'isla', 'noah', 'sophie', 'liam', 'chloe', 'oscar', 'maria', 'luca', 'anna',
  'jakub', 'zofia', 'pierre', 'camille', 'lukas', 'lena', 'sean', 'aoife', 'giulia', 'pablo', 'ines',
];
const LAST = [
  'smith', 'jones', 'taylor', 'brown', 'williams', 'wilson', 'evans', 'patel', 'khan', 'murphy', 'kowalski',
  'nowak', 'dubois', 'martin', 'muller', 'schmidt', 'rossi', 'bianchi', 'garcia', 'lopez', 'obrien', 'walsh',
];
const DOMAINS = [
  'gmail.com', 'outlook.com', 'yahoo.co.uk', 'btinternet.com', 'nhs.net', 'example.co.uk', 'acme-corp.com',
  'mail.gov.uk', 'firma.de', 'web.de', 'orange.fr', 'libero.it', 'wp.pl', 'uni.ac.uk', 'sales.eu.contoso.com',
  'proton.me',
];

export function email(r: Prng): string {
  const f = r.pick(FIRST);
  const l = r.pick(LAST);
  const local = r.pick([
    `${f}.${l}`,
    `${f.charAt(0)}${l}`,
    `${f}_${l}${r.int(1, 99)}`,
    `${f}+${r.pick(['news', 'work', 'test'])}`,
    `${l}.${f}${r.int(70, 99)}`,
    `${f.toUpperCase()}.${l}`,
  ]);
  return `${local}@${r.pick(DOMAINS)}`;
}

function ukMobile(r: Prng): string {
  const prefix = r.pick(['7700', '7911', '7412', '7520', '7803', '7954', '7377', '7469', '7838', '7590']);
  const rest = r.digits(6);
  return r.pick([
    `0${prefix} ${rest}`,
    `0${prefix}${rest}`,
    `+44 ${prefix} ${rest}`,
    `+44 (0)${prefix} ${rest}`,
    `+44${prefix}${rest}`,
    `0${prefix} ${rest.slice(0, 3)} ${rest.slice(3)}`,
    `0044 ${prefix} ${rest}`,
  ]);
}

function ukLandline(r: Prng): string {
  const kind = r.int(0, 4);
  if (kind === 0) {
    const n = `${r.pick(['7', '3', '8'])}${r.digits(3)} ${r.digits(4)}`;
    return r.pick([`020 ${n}`, `+44 20 ${n}`, `(020) ${n}`, `+44 (0)20 ${n}`]);
  }
  if (kind === 1) {
    const area = r.pick(['0161', '0121', '0113', '0141', '0131', '0117', '0114', '0115']);
    const n = `${r.int(2, 9)}${r.digits(2)} ${r.digits(4)}`;
    return r.pick([`${area} ${n}`, `(${area}) ${n}`, `+44 ${area.slice(1)} ${n}`]);
  }
  if (kind === 2) {
    const area = r.pick(['01223', '01865', '01392', '01603', '01904', '01225']);
    return r.pick([`${area} ${r.int(2, 8)}${r.digits(5)}`, `${area}-${r.int(2, 8)}${r.digits(5)}`]);
  }
  if (kind === 3) return `0${r.pick(['800', '300', '345'])} ${r.int(1, 9)}${r.digits(2)} ${r.digits(4)}`;
  return `029 20${r.digits(2)} ${r.digits(4)}`;
}

function euPhone(r: Prng): string {
  return r.pick([
    () => `+33 ${r.pick(['6', '7', '1'])} ${r.digits(2)} ${r.digits(2)} ${r.digits(2)} ${r.digits(2)}`,
    () => `+49 ${r.pick(['151', '160', '170', '176'])} ${r.digits(8)}`,
    () => `+49 30 ${r.int(2, 9)}${r.digits(7)}`,
    () => `+353 8${r.pick(['3', '5', '6', '7'])} ${r.digits(3)} ${r.digits(4)}`,
    () => `+34 6${r.digits(2)} ${r.digits(3)} ${r.digits(3)}`,
    () => `+39 3${r.pick(['20', '33', '47', '88'])} ${r.digits(3)} ${r.digits(4)}`,
    () => `+31 6 ${r.int(1, 9)}${r.digits(7)}`,
    () => `+48 ${r.pick(['50', '51', '60', '69', '79'])}${r.digits(1)} ${r.digits(3)} ${r.digits(3)}`,
    () => `+32 4${r.pick(['70', '75', '85', '96'])} ${r.digits(2)} ${r.digits(2)} ${r.digits(2)}`,
  ])();
}

export function phone(r: Prng): string {
  const k = r.next();
  return k < 0.45 ? ukMobile(r) : k < 0.8 ? ukLandline(r) : euPhone(r);
}

const NINO_FIRST = 'ABCEGHJKLMNOPRSTWXYZ';
const NINO_SECOND = 'ABCEGHJKLMNPRSTWXYZ';
const NINO_BANNED = new Set(['BG', 'GB', 'KN', 'NK', 'NT', 'TN', 'ZZ']);

export function nino(r: Prng): string {
  let prefix = '';
  do prefix = r.letters(1, NINO_FIRST) + r.letters(1, NINO_SECOND);
  while (NINO_BANNED.has(prefix));
  const d = r.digits(6);
  const suffix = r.letters(1, 'ABCD');
  return r.pick([
    `${prefix}${d}${suffix}`,
    `${prefix} ${d.slice(0, 2)} ${d.slice(2, 4)} ${d.slice(4)} ${suffix}`,
    `${prefix} ${d} ${suffix}`,
  ]);
}

/** A 10-digit string with a valid NHS mod 11 check digit, first digit in an issued range. */
export function nhsDigits(r: Prng): string {
  for (;;) {
    const body = `${r.pick(['4', '6', '7', '9'])}${r.digits(8)}`;
    let sum = 0;
    for (let i = 0; i < 9; i++) sum += Number(body[i]) * (10 - i);
    const check = (11 - (sum % 11)) % 11;
    if (check !== 10) return `${body}${check}`;
  }
}

export function nhsFormatted(r: Prng): string {
  const d = nhsDigits(r);
  const sep = r.chance(0.75) ? ' ' : '-';
  return `${d.slice(0, 3)}${sep}${d.slice(3, 6)}${sep}${d.slice(6)}`;
}

const IBAN_BBAN: Readonly<Record<string, string>> = {
  GB: 'aaaannnnnnnnnnnnnn', DE: 'nnnnnnnnnnnnnnnnnn', FR: 'nnnnnnnnnncccccccccccnn', ES: 'nnnnnnnnnnnnnnnnnnnn',
  IT: 'annnnnnnnnncccccccccccc', NL: 'aaaannnnnnnnnn', IE: 'aaaannnnnnnnnnnnnn',
  BE: 'nnnnnnnnnnnn',
  PL: 'nnnnnnnnnnnnnnnnnnnnnnnn', PT: 'nnnnnnnnnnnnnnnnnnnnn',
};

/** A valid IBAN of `country`, compact ("GB82WEST12345698765432"). */
export function compactIban(r: Prng, country: string): string {
  const pattern = IBAN_BBAN[country];
  if (pattern === undefined) throw new Error(`no BBAN pattern for ${country}`);
  for (;;) {
    let bban = '';
    for (const p of pattern) {
      bban += p === 'n' ? r.digits(1) : p === 'a' ? r.letters(1) : r.letters(1, '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ');
    }
    if (!isValidBBAN(bban, country)) continue;
    const compact = composeIBAN({ countryCode: country, bban });
    if (compact !== null) return compact;
  }
}

/** An IBAN as it is printed: in groups of four ("GB82 WEST 1234 …"). */
export function printedIban(compact: string): string {
  return friendlyFormatIBAN(compact) ?? compact;
}

export function iban(r: Prng): string {
  const compact = compactIban(r, r.pick(['GB', 'GB', 'GB', 'DE', 'FR', 'ES', 'IT', 'NL', 'IE', 'BE', 'PL', 'PT']));
  return r.chance(0.5) ? compact : printedIban(compact);
}

function withLuhn(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}

export function card(r: Prng): string {
  const kind = r.int(0, 3);
  if (kind === 3) {
    const d = withLuhn(`3${r.pick(['4', '7'])}${r.digits(12)}`);
    return r.chance(0.5) ? d : `${d.slice(0, 4)} ${d.slice(4, 10)} ${d.slice(10)}`;
  }
  const prefix =
    kind === 0 ? `4${r.digits(5)}` : kind === 1 ? `5${r.int(1, 5)}${r.digits(4)}` : `2${r.int(221, 720)}${r.digits(2)}`;
  const d = withLuhn(`${prefix}${r.digits(9)}`);
  const sep = r.pick(['', ' ', ' ', '-']);
  return sep === '' ? d : [d.slice(0, 4), d.slice(4, 8), d.slice(8, 12), d.slice(12)].join(sep);
}

const OUTWARD = [
  'SW1A', 'EC1A', 'W1A', 'M1', 'M14', 'B33', 'CR2', 'DN55', 'LS1', 'LS6', 'G2', 'EH1', 'CF10', 'BT1', 'NE1', 'BS8',
  'OX1', 'CB2', 'L1', 'S10', 'NG7', 'LE1', 'E14', 'N1C', 'SE1', 'NW3', 'YO1', 'AB10', 'KY16', 'TR1', 'PL4', 'BN1',
  'GU1', 'RG1', 'MK9',
];

export function postcode(r: Prng): string {
  const inward = `${r.int(0, 9)}${r.letters(2, 'ABDEFGHJLNPQRSTUWXYZ')}`;
  return `${r.pick(OUTWARD)}${r.chance(0.9) ? ' ' : ''}${inward}`;
}

export function ipv4Address(r: Prng): string {
  const first = r.pick([31, 51, 62, 81, 86, 92, 109, 145, 151, 176, 185, 193, 212, 217]);
  return `${first}.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(1, 254)}`;
}

export function ipAddress(r: Prng): string {
  if (r.chance(0.7)) return ipv4Address(r);
  const g = (): string => r.int(1, 0xffff).toString(16);
  return r.chance(0.5) ? `2a02:${g()}:${g()}:${g()}:${g()}:${g()}:${g()}:${g()}` : `2001:${g()}:${g()}::${g()}`;
}
