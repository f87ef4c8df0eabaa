import type { PiiType } from '@gateway/privacy';
import { COMMON_WORD_GIVEN_NAME_SET, GIVEN_NAME_SET, SURNAME_SET } from '@gateway/privacy/internals';
// The full metadata: the numbers are ones a country has allocated, not only of a plausible length.
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { Prng } from '../support/prng.js';
import * as extra from './extra-value-generators.js';
import { HELD_OUT_NAMES, KITS, negativesOf, packageNames, UNSEEN_NAME_SENTENCES, UNSEEN_PHONE_SENTENCES } from './languages.js';
import type { Language, LanguageKit } from './languages.js';
import { LabelledTextBuilder } from './labelled-text.js';
import type { LabelledText } from './labelled-text.js';
import * as v from './value-generators.js';

// The multilingual labelled set: per language, samples of one to three segments, each a sentence in that language
// carrying one kind of value the way its speakers write it (context words, national formats, no-break spaces),
// or an unlabelled look-alike. Deterministic for a seed.

export type NameSource = 'package' | 'held-out';

export interface LanguageSample extends LabelledText {
  lang: Language;
}

const NBSP = ['\u00a0', '\u202f'];
const ASCII_FOLD: Readonly<Record<string, string>> = { ł: 'l', Ł: 'L', ß: 'ss', ø: 'o', æ: 'ae', œ: 'oe', đ: 'd' };

function asciiFold(s: string): string {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[łŁßøæœđ]/g, (c) => ASCII_FOLD[c] ?? c);
}

/** Replaces some spaces with no-break or narrow no-break spaces, as word processors and web forms do. */
function withHardSpaces(r: Prng, s: string): string {
  return r.chance(0.12) ? s.replace(/ /g, () => r.pick(NBSP)) : s;
}

interface Names {
  given: readonly string[];
  surnames: readonly string[];
}

function knownWord(w: string): boolean {
  return GIVEN_NAME_SET.has(w) || COMMON_WORD_GIVEN_NAME_SET.has(w) || SURNAME_SET.has(w);
}

/** The held-out names the detector's lists really lack: a name with a known word in it is dropped. */
export function heldOutNames(lang: Language): Names {
  const unknown = (n: string): boolean => !n.split(/[ -]/).some(knownWord);
  return { given: HELD_OUT_NAMES[lang].given.filter(unknown), surnames: HELD_OUT_NAMES[lang].surnames.filter(unknown) };
}

function phone(r: Prng, kit: LanguageKit): string {
  for (;;) {
    const digits = kit.nationalNumber(r);
    if (parsePhoneNumberFromString(digits, kit.region)?.isValid() !== true) continue;
    return withHardSpaces(r, r.pick(kit.phoneFormats)(digits));
  }
}

function iban(r: Prng, country: string): string {
  const compact = v.compactIban(r, country);
  return r.chance(0.4) ? compact : withHardSpaces(r, v.printedIban(compact));
}

type Part = string | [PiiType, string];
type Segment = Part[];

/** Appends a segment's text and labelled values to `b`. */
function addSegment(b: LabelledTextBuilder, segment: Segment): void {
  for (const part of segment) {
    if (typeof part === 'string') b.add(part);
    else b.value(part[0], part[1]);
  }
}

function fill(template: string, value: [PiiType, string]): Segment {
  const at = template.indexOf('{}');
  return [template.slice(0, at), value, template.slice(at + 2)];
}

function nationalId(r: Prng, lang: Language): Segment {
  switch (lang) {
    case 'en':
      return r.pick<() => Segment>([
        () => ['NI number: ', ['UK_NINO', v.nino(r)]],
        () => ['NHS number ', ['UK_NHS', v.nhsFormatted(r)], '.'],
        () => ['Postcode: ', ['UK_POSTCODE', v.postcode(r)]],
      ])();
    case 'de':
      return [r.pick(['Steuer-ID: ', 'Steuerliche Identifikationsnummer ', 'IdNr. ']), ['DE_TAX_ID', extra.deTaxId(r)]];
    case 'fr':
      return [r.pick(['Numéro de sécurité sociale : ', 'NIR ', 'N° SS : ']), ['FR_NIR', extra.frNir(r)]];
    case 'es':
      return r.chance(0.5) ? ['DNI: ', ['ES_NIF', extra.esNif(r)]] : ['NIE ', ['ES_NIE', extra.esNie(r)]];
    case 'it':
      return ['Codice fiscale: ', ['IT_CODICE_FISCALE', extra.itCodiceFiscale(r)]];
    case 'pl':
      return ['PESEL: ', ['PL_PESEL', extra.plPesel(r)]];
    case 'nl':
      // The detector has no Dutch national number (BSN); a date of birth stands in.
      return ['Geboortedatum: ', ['DATE_OF_BIRTH', KITS.nl.dateOf(r.int(1, 28), r.int(1, 12), r.int(1940, 2006))]];
  }
}

function positive(r: Prng, lang: Language, names: Names): Segment {
  const kit = KITS[lang];
  const given = (): string => r.pick(names.given);
  const surname = (): string => r.pick(names.surnames);
  const full = (): string => `${given()} ${surname()}`;
  const dob = (): string => kit.dateOf(r.int(1, 28), r.int(1, 12), r.int(1940, 2006));
  return r.pick<() => Segment>([
    () => fill(r.pick(kit.nameSentences), ['PERSON', full()]),
    () => fill(r.pick(kit.nameSentences), ['PERSON', full()]),
    () => [`${r.pick(kit.titles)} `, ['PERSON', surname()], ','],
    () => [`${r.pick(kit.greetings)} `, ['PERSON', given()], ',\n'],
    () => [`${r.pick(kit.signOffs)},\n`, ['PERSON', full()]],
    () => fill(r.pick(kit.addressSentences), ['STREET_ADDRESS', kit.street(r)]),
    () => fill(r.pick(kit.addressSentences), ['STREET_ADDRESS', kit.street(r)]),
    () => [`${r.pick(kit.phoneWords)} `, ['PHONE', phone(r, kit)], '.'],
    () => [`${r.pick(kit.phoneWords)} `, ['PHONE', phone(r, kit)]],
    () => [['PERSON', full()], ' – ', ['PHONE', phone(r, kit)]],
    // With no phone word: a number in brackets after a name, and a signature's own line.
    () => [['PERSON', full()], ' (', ['PHONE', phone(r, kit)], ')'],
    () => [`${r.pick(kit.signOffs)},\n`, ['PERSON', full()], '\n', ['PHONE', phone(r, kit)]],
    () => {
      const g = given();
      const s = surname();
      const local = asciiFold(`${g}.${s}`).toLowerCase().replace(/[^a-z.]/g, '');
      return [`${r.pick(kit.emailWords)} `, ['EMAIL', `${local}@${r.pick(kit.emailDomains)}`], '.'];
    },
    () => [`${r.pick(kit.ibanWords)} `, ['IBAN', iban(r, kit.ibanCountry)]],
    () => [`${r.pick(kit.cardWords)} `, ['CARD', v.card(r)], '.'],
    () => [`${r.pick(kit.dobWords)} `, ['DATE_OF_BIRTH', dob()]],
    () => [`${r.pick(kit.loginWords)} `, ['IP_ADDRESS', v.ipAddress(r)], ` ${extra.pad(r.int(0, 23))}:${extra.pad(r.int(0, 59))}`],
    () => nationalId(r, lang),
  ])();
}


export const DEFAULT_MULTILINGUAL_SEED = 20261125;
export const DEFAULT_PER_LANGUAGE = 600;

/**
 * `perLanguage` samples for each of `langs`, each written by the language's writer with the language's own PRNG
 * (seeded from `seed`, `salt` and the language, so one language's samples do not depend on the others').
 */
function samplesPerLanguage(
  seed: number,
  salt: number,
  perLanguage: number,
  langs: readonly Language[],
  writerFor: (lang: Language) => (r: Prng, b: LabelledTextBuilder) => void,
): LanguageSample[] {
  const samples: LanguageSample[] = [];
  for (const lang of langs) {
    const r = new Prng(seed ^ salt ^ lang.charCodeAt(0) ^ (lang.charCodeAt(1) << 8));
    const write = writerFor(lang);
    for (let i = 0; i < perLanguage; i++) {
      const b = new LabelledTextBuilder();
      write(r, b);
      samples.push({ ...b.build(), lang });
    }
  }
  return samples;
}

const ALL_LANGUAGES = Object.keys(KITS) as Language[];

/** `perLanguage` samples for each of `langs`, names from the package's lists or held out. */
export function generateMultilingualSet(
  seed = DEFAULT_MULTILINGUAL_SEED,
  perLanguage = DEFAULT_PER_LANGUAGE,
  langs: readonly Language[] = ALL_LANGUAGES,
  nameSource: NameSource = 'package',
): LanguageSample[] {
  return samplesPerLanguage(seed, 0, perLanguage, langs, (lang) => {
    const names = nameSource === 'package' ? packageNames(lang) : heldOutNames(lang);
    const negatives = negativesOf(lang);
    if (names.given.length === 0 || names.surnames.length === 0) throw new Error(`no ${nameSource} names for ${lang}`);
    return (r, b) => {
      const segments = r.int(1, 3);
      for (let s = 0; s < segments; s++) {
        if (s > 0) b.add(r.pick([' ', '\n', '\n\n']));
        if (r.chance(0.6)) addSegment(b, positive(r, lang, names));
        else b.add(r.pick(negatives)(r));
      }
    };
  });
}

/**
 * PERSON only: per language, `perLanguage` texts of one or two sentences the name rules were not written against
 * (UNSEEN_NAME_SENTENCES), each with a full name from `nameSource`, sometimes beside a look-alike.
 */
export function generateUnseenSentenceSet(
  seed = DEFAULT_MULTILINGUAL_SEED,
  perLanguage = 200,
  langs: readonly Language[] = ALL_LANGUAGES,
  nameSource: NameSource = 'package',
): LanguageSample[] {
  return samplesPerLanguage(seed, 0x5eed, perLanguage, langs, (lang) => {
    const names = nameSource === 'package' ? packageNames(lang) : heldOutNames(lang);
    const negatives = negativesOf(lang);
    return (r, b) => {
      const sentences = r.int(1, 2);
      for (let s = 0; s < sentences; s++) {
        if (s > 0) b.add(r.pick([' ', '\n']));
        addSegment(b, fill(r.pick(UNSEEN_NAME_SENTENCES[lang]), ['PERSON', `${r.pick(names.given)} ${r.pick(names.surnames)}`]));
      }
      if (r.chance(0.3)) b.add(` ${r.pick(negatives)(r)}`);
    };
  });
}

/** PHONE only: per language, `perLanguage` texts of one sentence the phone rules were not written against. */
export function generateUnseenPhoneSet(
  seed = DEFAULT_MULTILINGUAL_SEED,
  perLanguage = 200,
  langs: readonly Language[] = ALL_LANGUAGES,
): LanguageSample[] {
  return samplesPerLanguage(seed, 0xca11, perLanguage, langs, (lang) => (r, b) => {
    addSegment(b, fill(r.pick(UNSEEN_PHONE_SENTENCES[lang]), ['PHONE', phone(r, KITS[lang])]));
  });
}
