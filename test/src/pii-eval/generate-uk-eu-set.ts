import type { PiiType } from '@gateway/privacy';
import * as extra from './extra-value-generators.js';
import { LabelledTextBuilder } from './labelled-text.js';
import type { LabelledText } from './labelled-text.js';
import { hardNegative } from './negative-generators.js';
import { Prng } from '../support/prng.js';
import * as v from './value-generators.js';

// The generated UK/EU evaluation set: each sample joins one to three segments, each either a sentence
// carrying labelled values in the ways UK/EU text writes them (support mail, forms, logs, JSON) or an
// unlabelled hard negative. Deterministic for a seed, so scores are comparable between runs.

export const DEFAULT_SEED = 20240611;
export const DEFAULT_SIZE = 3000;

type Segment = (r: Prng, b: LabelledTextBuilder) => void;

const NAMES = [
  'Sarah Jones', 'Tom Patel', 'Aoife Murphy', 'Jakub Nowak', 'Camille Martin', 'Lukas Schmidt', 'Giulia Rossi',
  'Pablo Garcia',
];

function say(...parts: ReadonlyArray<string | [PiiType, string]>): Segment {
  return (_r, b) => {
    for (const p of parts) {
      if (typeof p === 'string') b.add(p);
      else b.value(p[0], p[1]);
    }
  };
}

const POSITIVES: ReadonlyArray<(r: Prng) => Segment> = [
  (r) => say('Please reply to ', ['EMAIL', v.email(r)], ' by Friday.'),
  (r) => say('From: ', ['PERSON', r.pick(NAMES)], ' <', ['EMAIL', v.email(r)], '>'),
  (r) => say('cc: ', ['EMAIL', v.email(r)], ', ', ['EMAIL', v.email(r)]),
  (r) => say('{"user": "', ['EMAIL', v.email(r)], `", "id": ${r.int(1000, 99999)}}`),
  (r) => say('You can reach me on ', ['PHONE', v.phone(r)], '.'),
  (r) => say('Tel: ', ['PHONE', v.phone(r)]),
  (r) => say('My number is ', ['PHONE', v.phone(r)], ' if anything changes.'),
  (r) => say('Call the surgery on ', ['PHONE', v.phone(r)], ' between 9 and 5.'),
  (r) => say('Mobile: ', ['PHONE', v.phone(r)], '\nOffice: ', ['PHONE', v.phone(r)]),
  (r) => say('Details: ', ['PERSON', r.pick(NAMES)], ', ', ['PHONE', v.phone(r)], ', ', ['UK_POSTCODE', v.postcode(r)], '.'),
  (r) => say('NI number: ', ['UK_NINO', v.nino(r)]),
  (r) => say('My National Insurance number is ', ['UK_NINO', v.nino(r)], ', please update it.'),
  (r) => say(['PERSON', r.pick(NAMES)], ',', ['UK_NINO', v.nino(r)], `,${r.int(20, 65)},active`),
  (r) => say('NHS number: ', ['UK_NHS', v.nhsFormatted(r)]),
  (r) => say('Patient ', ['PERSON', r.pick(NAMES)], ' (', ['UK_NHS', v.nhsFormatted(r)], ') was seen today.'),
  (r) => say('NHS No. ', ['UK_NHS', v.nhsDigits(r)], ' - referral attached.'),
  (r) => say('Her NHS number is ', ['UK_NHS', v.nhsDigits(r)], '.'),
  (r) => say('IBAN: ', ['IBAN', v.iban(r)]),
  (r) => say('Please transfer the deposit to ', ['IBAN', v.iban(r)], ` (ref INV-${r.digits(4)}).`),
  (r) => say('Card number ', ['CARD', v.card(r)], ` exp ${r.int(1, 12)}/${r.int(25, 30)}`),
  (r) => say('I paid with my card ', ['CARD', v.card(r)], ' but was charged twice.'),
  (r) => say('PAN: ', ['CARD', v.card(r)]),
  (r) => say(['STREET_ADDRESS', `${r.int(1, 200)} High Street`], ', Leeds ', ['UK_POSTCODE', v.postcode(r)]),
  (r) => say('Deliver to ', ['STREET_ADDRESS', 'Flat 3, 12 Park Road'], ', Bristol, ', ['UK_POSTCODE', v.postcode(r)], ', before noon.'),
  (r) => say('My postcode is ', ['UK_POSTCODE', v.postcode(r)], '.'),
  (r) => say('Login from ', ['IP_ADDRESS', v.ipAddress(r)], ` at ${r.int(10, 23)}:${r.int(10, 59)}`),
  (r) => say('client_ip=', ['IP_ADDRESS', v.ipAddress(r)], ' status=403'),
  (r) => say('{"ip":"', ['IP_ADDRESS', v.ipAddress(r)], `","status":${r.pick([200, 401, 500])}}`),
  (r) => say('Blocked ', ['IP_ADDRESS', v.ipAddress(r)], ' after 5 failed attempts.'),
  // Variations the templates above do not cover: no context word, URIs, markdown, other spellings.
  (r) => {
    const e = v.email(r);
    return say('[', ['EMAIL', e], '](mailto:', ['EMAIL', e], ')');
  },
  (r) => say("Send it to '", ['EMAIL', v.email(r).toUpperCase()], "'."),
  (r) => say(['PERSON', r.pick(NAMES)], ' - ', ['PHONE', v.phone(r)]),
  (r) => {
    const tel = r.chance(0.5) ? `+447${r.pick(['700', '911'])}${r.digits(6)}` : `+4420${r.digits(8)}`;
    return say('<a href="tel:', ['PHONE', tel], '">call us</a>');
  },
  (r) => {
    const mobile = `07${r.pick(['700', '911', '412'])}-${r.digits(3)}-${r.digits(3)}`;
    return say('Ring me on ', ['PHONE', mobile], ' after 6pm.');
  },
  (r) => say('WhatsApp ', ['PHONE', v.phone(r)], ' or email.'),
  (r) => say('nhs number ', ['UK_NHS', v.nhsFormatted(r)], ', gp surgery in leeds'),
  (r) => say('NHS: ', ['UK_NHS', v.nhsDigits(r)]),
  (r) => {
    const postcode = v.postcode(r).toLowerCase().replace(/^(\S+?)(\d\w\w)$/, '$1 $2');
    return say('ship to ', ['UK_POSTCODE', postcode], ' pls');
  },
  (r) => say('Card ', ['CARD', v.card(r).replace(/ /g, '-')], ' was declined.'),
  // A port after an unbracketed IPv6 address is ambiguous ("2001:db8::1:8080" is itself an address).
  (r) =>
    say('Connect to [', ['IP_ADDRESS', v.ipAddress(r)], ']:443 or ', ['IP_ADDRESS', v.ipv4Address(r)], ':8080.'),
  (r) => say('IBAN ', ['IBAN', v.iban(r).toLowerCase()], ' (personal account)'),
  (r) => say('Date of birth: ', ['DATE_OF_BIRTH', extra.dateOfBirth(r)]),
  (r) => say('She was born on ', ['DATE_OF_BIRTH', extra.dateOfBirth(r)], ' in Cardiff.'),
  (r) => say('Passport number: ', ['UK_PASSPORT', extra.ukPassport(r)]),
  (r) => say('Driving licence number ', ['UK_DRIVING_LICENCE', extra.ukDrivingLicence(r)], '.'),
  (r) => say('DNI ', ['ES_NIF', extra.esNif(r)], ', NIE ', ['ES_NIE', extra.esNie(r)]),
  (r) => say('Codice fiscale: ', ['IT_CODICE_FISCALE', extra.itCodiceFiscale(r)]),
  (r) => say('PESEL: ', ['PL_PESEL', extra.plPesel(r)]),
  (r) => say('Numéro de sécurité sociale ', ['FR_NIR', extra.frNir(r)]),
  (r) => say('Steuer-ID ', ['DE_TAX_ID', extra.deTaxId(r)]),
];

/** Generates `size` labelled samples deterministically from `seed`. */
export function generateUkEuSet(seed = DEFAULT_SEED, size = DEFAULT_SIZE): LabelledText[] {
  const r = new Prng(seed);
  const samples: LabelledText[] = [];
  for (let i = 0; i < size; i++) {
    const b = new LabelledTextBuilder();
    const segments = r.int(1, 3);
    for (let s = 0; s < segments; s++) {
      if (s > 0) b.add(r.pick([' ', '\n', '\n\n']));
      if (r.chance(0.55)) r.pick(POSITIVES)(r)(r, b);
      else b.add(hardNegative(r));
    }
    samples.push(b.build());
  }
  return samples;
}
