import { readFile } from 'node:fs/promises';
import type { PiiType } from '@gateway/privacy';
import type { GoldSpan, LabelledText } from './labelled-text.js';

// presidio-research's synth_dataset_v2.json: an array of {full_text, spans: [{entity_type, entity_value,
// start_position, end_position (exclusive)}], …}. Its labels are mapped to ours; labels we have no type
// for (PERSON, STREET_ADDRESS, US_SSN, DATE_TIME, ZIP_CODE, …) are dropped.

export const PRESIDIO_LABELS: Readonly<Record<string, PiiType>> = {
  EMAIL_ADDRESS: 'EMAIL',
  PHONE_NUMBER: 'PHONE',
  CREDIT_CARD: 'CARD',
  IBAN_CODE: 'IBAN',
  IP_ADDRESS: 'IP_ADDRESS',
  PERSON: 'PERSON',
};

interface RawSpan {
  entity_type: string;
  start_position: number;
  end_position: number;
}

interface RawSample {
  full_text: string;
  spans: RawSpan[];
}

function isRawSample(value: unknown): value is RawSample {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['full_text'] === 'string' && Array.isArray(v['spans']);
}

export async function loadPresidioCorpus(path: string): Promise<LabelledText[]> {
  const raw: unknown = JSON.parse(await readFile(path, 'utf8'));
  if (!Array.isArray(raw)) throw new Error(`${path}: expected a JSON array`);
  const samples: LabelledText[] = [];
  for (const item of raw) {
    if (!isRawSample(item)) throw new Error(`${path}: unexpected sample shape`);
    const spans: GoldSpan[] = [];
    for (const s of item.spans) {
      const type = PRESIDIO_LABELS[s.entity_type];
      if (type !== undefined) spans.push({ type, start: s.start_position, end: s.end_position });
    }
    samples.push({ text: item.full_text, spans });
  }
  return samples;
}
