import { expect } from 'chai';
import type { StreamRestorer } from '../src/index.js';
import { createTokenRestorer } from '../src/token-restorer.js';

const TOKENS = new Map([
  ['[EMAIL_1]', 'jane.doe@example.com'],
  ['[EMAIL_12]', 'ops@acme.co.uk'],
  ['[PHONE_1]', '07700 900123'],
  ['[UK_NHS_1]', '943 476 5919'],
  // Characters that must be escaped inside a JSON string.
  ['[DATE_OF_BIRTH_1]', 'born "3/3/79" \\ tab\there'],
  // Names and addresses: apostrophes, diacritics (several UTF-8 bytes a character), and a token prefix of another.
  ['[PERSON_1]', "Siobhan O'Brien"],
  ['[PERSON_10]', 'Zoë Ní Bhriain'],
  ['[STREET_ADDRESS_1]', 'ul. Marszałkowska 10/12 m. 5'],
]);

const RESPONSE =
  'Dear [EMAIL_1], we called [PHONE_1] ([PHONE_1]) about [UK_NHS_1]; cc [EMAIL_12]. ' +
  'Not ours: [EMAIL_2], [NOT_A_TOKEN], [EMAIL_1 x], [[EMAIL_1]] and a stray [ and ] and [UK_. ' +
  'DOB [DATE_OF_BIRTH_1]. Dear [PERSON_1] and [PERSON_10] of [STREET_ADDRESS_1], not [PERSON_2]. Ends with [EMAIL_1]';

function restoredWhole(text: string, escape: (v: string) => string = (v) => v): string {
  return text.replace(/\[[A-Z][A-Z0-9_]*\]/g, (t) => {
    const v = TOKENS.get(t);
    return v === undefined ? t : escape(v);
  });
}

function streamText(restorer: StreamRestorer, chunks: readonly string[], kind: 'text' | 'json' = 'text'): string {
  let out = '';
  for (const c of chunks) out += restorer.push(0, kind, c);
  return out + restorer.flush(0);
}

function splitAt(text: string, cuts: readonly number[]): string[] {
  const parts: string[] = [];
  let from = 0;
  for (const c of cuts) {
    parts.push(text.slice(from, c));
    from = c;
  }
  parts.push(text.slice(from));
  return parts;
}

describe('privacy/stream-restorer', () => {
  const restorer = createTokenRestorer(TOKENS);
  const expected = restoredWhole(RESPONSE);

  it('gives the same text when the response is split at every character boundary', () => {
    for (let i = 0; i <= RESPONSE.length; i++) {
      expect(streamText(restorer.createStreamRestorer(), splitAt(RESPONSE, [i])), `split at ${i}`).to.equal(expected);
    }
  });

  it('gives the same text for one-character chunks and when split at every pair of boundaries', () => {
    expect(streamText(restorer.createStreamRestorer(), [...RESPONSE])).to.equal(expected);
    // Two cuts put a token's start and end in different chunks, or one chunk inside a token.
    for (let i = 1; i < RESPONSE.length; i++) {
      for (let j = i + 1; j < RESPONSE.length; j++) {
        const out = streamText(restorer.createStreamRestorer(), splitAt(RESPONSE, [i, j]));
        if (out !== expected) expect(out, `split at ${i} and ${j}`).to.equal(expected);
      }
    }
  });

  it('holds back only the shortest tail that could start a token', () => {
    const s = restorer.createStreamRestorer();
    expect(s.push(0, 'text', 'Hello [EM')).to.equal('Hello ');
    expect(s.push(0, 'text', 'AIL_1] and [X')).to.equal('jane.doe@example.com and [X');
    expect(s.push(0, 'text', ' [PHONE_1')).to.equal(' ');
    expect(s.push(0, 'text', ']')).to.equal('07700 900123');
    // "[EMAIL_1" could still become "[EMAIL_12]".
    expect(s.push(0, 'text', ' [EMAIL_1')).to.equal(' ');
    expect(s.push(0, 'text', '2]')).to.equal('ops@acme.co.uk');
    expect(s.flush(0)).to.equal('');
  });

  it('never holds back text without "["', () => {
    const s = restorer.createStreamRestorer();
    for (const chunk of ['Plain text, ', 'no brackets ', 'EMAIL_1] ', 'at all.']) expect(s.push(0, 'text', chunk)).to.equal(chunk);
    expect(s.flush(0)).to.equal('');
  });

  it('flushes a token cut off at the end of the stream raw', () => {
    const s = restorer.createStreamRestorer();
    expect(s.push(0, 'text', 'Contact [EMAIL_')).to.equal('Contact ');
    expect(s.flush(0)).to.equal('[EMAIL_');
    expect(s.flush(0)).to.equal('');
  });

  it('keeps content blocks apart', () => {
    const s = restorer.createStreamRestorer();
    expect(s.push(0, 'text', 'A [EMA')).to.equal('A ');
    expect(s.push(1, 'json', '{"to":"[PHO')).to.equal('{"to":"');
    expect(s.push(0, 'text', 'IL_1]')).to.equal('jane.doe@example.com');
    expect(s.push(1, 'json', 'NE_1]"}')).to.equal('07700 900123"}');
    expect(s.flush(0)).to.equal('');
    expect(s.flush(1)).to.equal('');
  });

  it('restores tool input JSON, escaped, into JSON that parses to the originals, however it is split', () => {
    const input = {
      to: '[EMAIL_1]',
      note: 'Call [PHONE_1] about [UK_NHS_1]; keep [NOT_A_TOKEN]',
      nested: { list: ['[EMAIL_12]', 42, true, null, { dob: '[DATE_OF_BIRTH_1]' }] },
    };
    const want = {
      to: 'jane.doe@example.com',
      note: 'Call 07700 900123 about 943 476 5919; keep [NOT_A_TOKEN]',
      nested: { list: ['ops@acme.co.uk', 42, true, null, { dob: 'born "3/3/79" \\ tab\there' }] },
    };
    const json = JSON.stringify(input);
    for (let i = 0; i <= json.length; i++) {
      const out = streamText(restorer.createStreamRestorer(), splitAt(json, [i]), 'json');
      expect(JSON.parse(out), `split at ${i}`).to.deep.equal(want);
    }
    const oneChar = streamText(restorer.createStreamRestorer(), [...json], 'json');
    expect(JSON.parse(oneChar)).to.deep.equal(want);
    expect(oneChar).to.equal(restoredWhole(json, (v) => JSON.stringify(v).slice(1, -1)));
  });
});
