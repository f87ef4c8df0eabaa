import {
  hasContextAfter,
  hasContextBefore,
  ID_LABEL_WORDS,
  idLabelRe,
  textBefore,
  textBeforeSinceNumber,
  wordsRe,
} from '../context.js';
import { RANK_FORMAT } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';
import { NON_TRUNK_NATIONAL_START, PhoneValidator } from './phone-validation.js';
import type { PhoneContext } from './phone-validation.js';

// A regex proposes phone-shaped runs: digit groups with separators, the separator mandatory between two
// digit groups so a digit run splits one way only and backtracking stays bounded. Cheap checks (length,
// dates, IPv4 shapes) come first, then PhoneValidator (libphonenumber), then labels that say the number
// is something else ("Order #", "ts=", an IBAN). A bare digit run without '+', a trunk '0' or phone
// context (order ids, timestamps) is never a phone.

const GROUP = String.raw`(?:\(\d{1,5}\)|\d{1,12})`;
const SEP = String.raw`(?:[ .\-\/]{1,2}|\s?\(0\)\s?|(?<=\)))`;
const EXT = String.raw`(?:\s{0,2}(?:x|ext\.?|extn\.?|extension)\s{0,2}\d{1,5})`;
const PHONE_RE = new RegExp(
  String.raw`(?<![\w+@.\/\-]|\d[ .\-])(?:\+|\(\+\d{1,3}\)\s?)?${GROUP}(?:${SEP}${GROUP}){0,7}${EXT}?(?![\w@]|[.,\-\/]?\d)`,
  'g',
);
const EXT_RE = new RegExp(`${EXT}$`);
const GROUP_RE = /\(\d{1,5}\)|\d+/g;
const TRUNK_RE = /\(0\)/g;
// A date is not followed by a further group in the same style: "06.12.34.56.78" is a French phone number.
const DATE_PREFIX_RE = /^(?:(\d{4})[-./](\d{1,2})[-./](\d{1,2})|(\d{1,2})[-./](\d{1,2})[-./](\d{4}|\d{2}))(?!\d|[-./]\d)/;
const IPV4_SHAPE_RE = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
// Two years, the second no earlier: a lifespan or a term ("Bach (1685-1750)", "Acme Widgets (2015-2019)"), which
// the contact-line rule had read as a name and its number.
const YEAR_RANGE_RE = /^(\d{4}) ?- ?(\d{4})$/;
// What may be a phone without context: '+', a trunk 0, North American shapes, and the national shapes of
// Spain, Italy and Poland that start with another digit (NON_TRUNK_NATIONAL_START; the only capturing group).
const STRONG_START_RE = new RegExp(
  String.raw`^(?:\+|\(\+|0|\(0|\d{3}[-.]\d{3}[-.]\d{4}(?!\d)|\(\d{3}\)\s?\d{3}[-.]\d{4}(?!\d)|${NON_TRUNK_NATIONAL_START})`,
);
/** Words that introduce a phone number, in the seven languages (the NHS recognizer defers to them too). */
export const PHONE_WORDS_RE = wordsRe([
  'phone', 'telephone', 'tel', 'mobile', 'mob', 'cell', 'cellphone', 'fax', 'call', 'calls', 'called', 'calling',
  'ring', 'dial', 'sms', 'text me', 'whatsapp', 'contact', 'landline', 'desk', 'voicemail', 'answering',
  'messages? (?:to|on)', 'reach (?:me|us|him|her|them)',
  // German, French, Spanish, Italian, Polish and Dutch, as people introduce a number in each.
  'telefon', 'telefonnummer', 'rufnummer', 'handy', 'handynummer', 'mobil', 'mobilnummer', 'festnetz', 'unter',
  'erreichbar', 'anrufen', 'téléphone', 'tél', 'portable', 'fixe', 'joignable', 'joindre', 'appelez', 'appeler',
  'au', 'teléfono', 'telefono', 'tfno', 'tlf', 'móvil', 'movil', 'llámame', 'llámanos', 'llamar', 'llama',
  'cellulare', 'chiamami', 'chiamaci', 'chiamare', 'numero di telefono', 'kom', 'komórka', 'komórkowy',
  'pod numerem', 'numer telefonu', 'dzwonić', 'telefoon', 'telefoonnummer', 'mobiel', 'mobiele', 'gsm', 'bel',
  'bellen', 'belt', 'bereikbaar',
  // "My number is" in each language: a possessive makes "number" a phone's.
  'my number', 'meine nummer', 'mon numéro', 'mi número', 'mio numero', 'mój numer', 'mijn nummer',
]);
// A contact line: a name (two to four capitalised words) then a dash or bracket right before the number ("Jan
// Kowalski – 601 234 567", "Anna de Vries (020 123 4567)"), or a signature: a sign-off line ending in a comma, a
// line that holds only a name, then the number alone on its line (a title-case heading above a figure is no
// signature). Colons and commas are left out: "Numéro Client:" is a label, "Anna Nowak, 45" an age.
const NAME = String.raw`\p{Lu}[\p{L}'’]*\p{Ll}(?:[ -](?:(?:de|van|von|der|den|la|le|di|da|del|dos|du|ter|ten) )*\p{Lu}[\p{L}'’]*\p{Ll}){1,3}`;
const NAME_BEFORE_RE = new RegExp(String.raw`(?<![\p{L}\p{N}_])${NAME}[ \t]?[–—(-][ \t]?$`, 'u');
const AMOUNT_AFTER_RE = /^[ \t\u00a0]?(?:[€$£%]|(?:eur|euros?|zł|zl|złotych|pln|gbp|usd|chf|pièces|stück|szt|pcs|units?)(?![\p{L}\p{N}]))/iu;
// Bytes printed in decimal: a Node Buffer, a "bytes:" or "hex" dump, a MAC address (its hex groups go on after
// the digits), an array or a tag around the digits.
const BYTE_DUMP_BEFORE_RE = /(?:buffer|bytes?|hex|dump|payload|mac|[<[{])[:=]?[ \t]*$/i;
const BYTE_DUMP_AFTER_RE = /^(?:[ \t]*[>\]}]|[-:.][0-9a-f]{2}(?![0-9a-z]))/i;
const LINE_END_RE = /^[ \t]*(?:\r?\n|$)/;
const NAME_LINE_ABOVE_RE = new RegExp(String.raw`,[ \t]*\n[ \t]*${NAME}[ \t]*\n[ \t]*$`, 'u');
const CONTEXT_AFTER_RE = /^[ \t\-,(]{0,3}(?:office|mobile|mob|fax|home|work|cell|tel|phone|desk|landline)\b/i;
// An id label right before the number ("Order #", "PO number", "ISBN") outweighs any phone context.
const ID_CONTEXT_RE = idLabelRe([
  ...ID_LABEL_WORDS, 'utr', 'ssn', 'nhs', 'nino', 'iban', 'card', 'version', 'build', 'commit', 'passport',
  'licen[cs]e', 'pesel', 'vat',
  // Company and tax numbers, which national formats make look like phones (PL NIP 123-456-78-90, FR SIREN).
  'company', 'registered in england(?: and wales)?', 'companies house', 'steuernummer', 'st\\.?-?nr', 'hrb', 'hra',
  'handelsregister', 'siren', 'siret', 'rcs', 'tva', 'cif', 'nif', 'partita iva', 'p\\.? ?iva', 'rea', 'nip', 'regon',
  'krs', 'kvk(?:-nummer)?', 'btw', 'rsin', 'ust-idnr', 'vat reg', 'vat reg\\.? gb', 'vat gb',
  // Invoices and orders in the other six languages.
  'rechnung', 'bestellung', 'facture', 'commande', 'factura', 'pedido', 'fattura', 'ordine', 'faktura',
  'zamówienie', 'factuur', 'bestelling',
]);
// Digits continuing an IBAN-like group run ("GB00 WEST 0065 5101 …", a mistyped IBAN) are no phone.
const IBAN_PREFIX_RE = /\b[A-Z]{2}\d{2}(?:[ -][A-Z0-9]{4}){0,7}[ -]$/;
// A key=value or JSON key right before the number ("ts=", "\"order_id\": ") names what it is. Plain
// "Word:" labels are prose ("Ring me: 0121…") and only count through ID_CONTEXT_RE.
const KEY_BEFORE_RE = /(?:^|[\s,{;&?])(?:"([A-Za-z_][\w-]{0,30})"\s?:|([A-Za-z_][\w-]{0,30})=)\s?"?$/;
const PHONE_KEY_RE = /phone|tel|mobile|mob|cell|fax|desk|office|home|work|landline|whatsapp|sms|contact|number|^no$/i;

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

function isYearRange(main: string): boolean {
  const m = YEAR_RANGE_RE.exec(main);
  if (m === null) return false;
  const from = Number(m[1]);
  const to = Number(m[2]);
  return from >= 1000 && from <= to && to <= 2199;
}

/** End (relative to `raw`) of the longest acceptable prefix of whole groups, or -1. */
function acceptedLength(validator: PhoneValidator, raw: string, around: PhoneContext): number {
  // Fast path for digit-heavy text: without '+', a trunk '0' or a North American start, only phone
  // context can make a number (or any shorter prefix of it) a phone.
  if (!STRONG_START_RE.test(raw) && !around.phoneWords(true)) return -1;
  const ext = EXT_RE.exec(raw);
  const main = ext === null ? raw : raw.slice(0, ext.index);
  if (startsWithDate(main) || IPV4_SHAPE_RE.test(main) || isYearRange(main)) return -1;
  if (validator.accepts(main, digitsOf(main), around, true)) return raw.length;
  // The regex is greedy, so a phone followed by an unrelated number ("020 7946 0958 2 times") is retried
  // without its trailing groups; only at a space (or ". " / ", "): "978-0-306" or "10.0.19045" are one
  // token, not a phone.
  GROUP_RE.lastIndex = 0;
  const groupEnds: number[] = [];
  for (let g = GROUP_RE.exec(main); g !== null; g = GROUP_RE.exec(main)) groupEnds.push(g.index + g[0].length);
  for (let k = groupEnds.length - 2; k >= 0; k--) {
    const end = groupEnds[k] ?? 0;
    const next = main.charCodeAt(end);
    if (next !== 32 && !((next === 46 || next === 44) && main.charCodeAt(end + 1) === 32)) continue;
    const sub = main.slice(0, end);
    const digits = digitsOf(sub);
    if (digits.length < 7) break;
    if (validator.accepts(sub, digits, around, false)) return sub.length;
  }
  return -1;
}

/**
 * Whether the number at `start`..`end` stands in a contact line: right after a name and a dash or bracket, or
 * alone on its line under a sign-off and a name (NAME_BEFORE_RE, NAME_LINE_ABOVE_RE). The NHS recognizer asks it
 * too: "Salomone Panico – 349 255 7988" is an Italian mobile, though it passes the NHS check.
 */
export function contactLine(text: string, start: number, end: number): boolean {
  // The character before the number says which form can apply; most numbers have neither.
  let i = start - 1;
  while (i >= 0 && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i--;
  const c = text.charCodeAt(i);
  if (c === 0x2013 || c === 0x2014 || c === 40 /* ( */ || c === 45 /* - */) {
    return NAME_BEFORE_RE.test(textBefore(text, start, 60));
  }
  return c === 10 && LINE_END_RE.test(text.slice(end, end + 8))
    && NAME_LINE_ABOVE_RE.test(text.slice(Math.max(0, start - 80), start));
}

/** The context of the current candidate: one object reused for all, each answer computed at most once. */
class CandidateContext implements PhoneContext {
  private text = '';
  private start = 0;
  private end = 0;
  private before: boolean | undefined;
  private after: boolean | undefined;
  private label: boolean | undefined;

  reset(text: string, start: number, end: number): void {
    this.text = text;
    this.start = start;
    this.end = end;
    this.before = undefined;
    this.after = undefined;
    this.label = undefined;
  }

  phoneWords(wholeRun: boolean): boolean {
    this.before ??= PHONE_WORDS_RE.test(textBeforeSinceNumber(this.text, this.start, 32)) || contactLine(this.text, this.start, this.end);
    if (this.before || !wholeRun) return this.before;
    this.after ??= hasContextAfter(this.text, this.end, 16, CONTEXT_AFTER_RE);
    return this.after;
  }

  amountAfter(): boolean {
    return AMOUNT_AFTER_RE.test(this.text.slice(this.end, this.end + 12));
  }

  byteDump(): boolean {
    return BYTE_DUMP_BEFORE_RE.test(textBefore(this.text, this.start, 24, 'line'))
      || BYTE_DUMP_AFTER_RE.test(this.text.slice(this.end, this.end + 4));
  }

  otherLabel(): boolean {
    this.label ??= hasOtherLabel(this.text, this.start);
    return this.label;
  }
}

/** Whether the label right before the number says it is something else (an id, a key, an IBAN). */
function hasOtherLabel(text: string, start: number): boolean {
  if (hasContextBefore(text, start, 24, ID_CONTEXT_RE)) return true;
  if (hasContextBefore(text, start, 40, IBAN_PREFIX_RE, 'line')) return true;
  const key = KEY_BEFORE_RE.exec(text.slice(Math.max(0, start - 36), start));
  return key !== null && !PHONE_KEY_RE.test(key[1] ?? key[2] ?? '');
}

function find(text: string, out: Candidate[]): void {
  const validator = new PhoneValidator();
  const around = new CandidateContext();
  PHONE_RE.lastIndex = 0;
  for (let m = PHONE_RE.exec(text); m !== null; m = PHONE_RE.exec(text)) {
    const raw = m[0];
    if (raw.length < 7) continue;
    around.reset(text, m.index, m.index + raw.length);
    const length = acceptedLength(validator, raw, around);
    if (length > 0) out.push({ type: 'PHONE', start: m.index, end: m.index + length, rank: RANK_FORMAT });
  }
}

export const phoneRecognizer: Recognizer = { name: 'phone', find };
