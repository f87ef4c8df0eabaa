import type { Recognizer } from '../recognizer.js';
import { cardRecognizer } from './card.js';
import { dateOfBirthRecognizer } from './date-of-birth.js';
import { deTaxIdRecognizer } from './de-tax-id.js';
import { emailRecognizer } from './email.js';
import { esNifRecognizer } from './es-nif.js';
import { frNirRecognizer } from './fr-nir.js';
import { ibanRecognizer } from './iban.js';
import { ipAddressRecognizer } from './ip-address.js';
import { itCodiceFiscaleRecognizer } from './it-codice-fiscale.js';
import { personRecognizer } from './person.js';
import { phoneRecognizer } from './phone.js';
import { plPeselRecognizer } from './pl-pesel.js';
import { ukDrivingLicenceRecognizer } from './uk-driving-licence.js';
import { ukNhsRecognizer } from './uk-nhs.js';
import { ukNinoRecognizer } from './uk-nino.js';
import { ukPassportRecognizer } from './uk-passport.js';
import { streetAddressRecognizer } from './street-address.js';
import { ukPostcodeRecognizer } from './uk-postcode.js';

/** Recognizers whose matches may contain no digit (an omocodic codice fiscale can be all letters, a name has none). */
export const TEXT_RECOGNIZERS: readonly Recognizer[] = Object.freeze([emailRecognizer, itCodiceFiscaleRecognizer, personRecognizer]);

/** Recognizers whose every match contains a digit: they scan only the windows around digits. */
export const DIGIT_RECOGNIZERS: readonly Recognizer[] = Object.freeze([
  ipAddressRecognizer,
  phoneRecognizer,
  ukNinoRecognizer,
  ukNhsRecognizer,
  ibanRecognizer,
  cardRecognizer,
  ukPostcodeRecognizer,
  dateOfBirthRecognizer,
  ukPassportRecognizer,
  ukDrivingLicenceRecognizer,
  esNifRecognizer,
  plPeselRecognizer,
  frNirRecognizer,
  deTaxIdRecognizer,
  streetAddressRecognizer,
]);
