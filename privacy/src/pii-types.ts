// The PII types the detector reports. The order of PII_TYPES is the stable order of the X-Gateway-PII header.

export type CorePiiType =
  | 'EMAIL'
  | 'PHONE'
  | 'UK_NINO'
  | 'UK_NHS'
  | 'IBAN'
  | 'CARD'
  | 'UK_POSTCODE'
  | 'IP_ADDRESS';

export type ExtraPiiType =
  | 'DATE_OF_BIRTH'
  | 'UK_PASSPORT'
  | 'UK_DRIVING_LICENCE'
  | 'ES_NIF'
  | 'ES_NIE'
  | 'IT_CODICE_FISCALE'
  | 'PL_PESEL'
  | 'FR_NIR'
  | 'DE_TAX_ID'
  | 'PERSON'
  | 'STREET_ADDRESS';

export type PiiType = CorePiiType | ExtraPiiType;

export const CORE_PII_TYPES: readonly CorePiiType[] = Object.freeze([
  'EMAIL',
  'PHONE',
  'UK_NINO',
  'UK_NHS',
  'IBAN',
  'CARD',
  'UK_POSTCODE',
  'IP_ADDRESS',
]);

export const PII_TYPES: readonly PiiType[] = Object.freeze([
  ...CORE_PII_TYPES,
  'DATE_OF_BIRTH',
  'UK_PASSPORT',
  'UK_DRIVING_LICENCE',
  'ES_NIF',
  'ES_NIE',
  'IT_CODICE_FISCALE',
  'PL_PESEL',
  'FR_NIR',
  'DE_TAX_ID',
  'PERSON',
  'STREET_ADDRESS',
]);

/** One detected value: `text.slice(start, end) === value`. */
export interface Finding {
  type: PiiType;
  start: number;
  end: number;
  value: string;
}
