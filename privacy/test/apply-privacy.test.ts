import { expect } from 'chai';
import { applyPrivacy } from '../src/index.js';
import { EXPECTED_COUNTS, IMAGE_DATA, requestBody } from './request-fixture.js';

type Json = Record<string, unknown>;

// Typed access into the fixture without `any`.
function at(value: unknown, ...path: Array<string | number>): unknown {
  let v = value;
  for (const key of path) v = (v as Record<string | number, unknown>)[key];
  return v;
}

describe('privacy/apply-privacy', () => {
  it('off: forwards the body untouched and counts nothing', () => {
    const body = requestBody();
    const result = applyPrivacy(body, 'off');
    expect(result.body).to.deep.equal(requestBody());
    expect(result.counts).to.deep.equal({});
    expect(result.restorer).to.equal(null);
  });

  it('flag: counts every occurrence and forwards the body unchanged', () => {
    const result = applyPrivacy(requestBody(), 'flag');
    expect(result.body).to.deep.equal(requestBody());
    expect(result.counts).to.deep.equal(EXPECTED_COUNTS);
    expect(result.restorer).to.equal(null);
  });

  it('redact: replaces each value with [REDACTED_<TYPE>] in every text, never in images', () => {
    const result = applyPrivacy(requestBody(), 'redact');
    const b = result.body;
    expect(result.counts).to.deep.equal(EXPECTED_COUNTS);
    expect(at(b, 'system', 0, 'text')).to.equal('You help Acme support. Escalate to [REDACTED_EMAIL].');
    expect(at(b, 'messages', 0, 'content')).to.equal(
      'Hi, I am [REDACTED_PERSON] ([REDACTED_EMAIL], [REDACTED_PHONE]). My NHS number is [REDACTED_UK_NHS].',
    );
    expect(at(b, 'messages', 2, 'content', 0, 'text')).to.equal('Postcode [REDACTED_UK_POSTCODE]. Email again: [REDACTED_EMAIL]');
    expect(at(b, 'messages', 2, 'content', 2, 'content')).to.equal('Card [REDACTED_CARD], IBAN [REDACTED_IBAN]');
    expect(at(b, 'messages', 2, 'content', 3, 'content', 0, 'text')).to.equal('Last login from [REDACTED_IP_ADDRESS]');
    expect(at(b, 'messages', 2, 'content', 4, 'source', 'data')).to.equal('NI number [REDACTED_UK_NINO]');
    expect(at(b, 'messages', 2, 'content', 5, 'source', 'content', 0, 'text')).to.equal('Desk: [REDACTED_PHONE]');
    // A block type the gateway does not know, and a system-role message: scanned like any other text.
    expect(at(b, 'messages', 2, 'content', 7, 'content', 0, 'text')).to.equal('[REDACTED_EMAIL]');
    expect(at(b, 'messages', 3, 'content')).to.equal('Mid-conversation instruction: escalate to desk [REDACTED_PHONE] if needed.');
    // Untouched: images, base64 documents, signed thinking.
    expect(at(b, 'messages', 2, 'content', 1, 'source', 'data')).to.equal(IMAGE_DATA);
    expect(at(b, 'messages', 2, 'content', 3, 'content', 1, 'source', 'data')).to.equal(IMAGE_DATA);
    expect(at(b, 'messages', 2, 'content', 6, 'source', 'data')).to.equal(IMAGE_DATA);
    expect(at(b, 'messages', 1, 'content', 0)).to.deep.equal(at(requestBody(), 'messages', 1, 'content', 0));
    expect(result.restorer).to.equal(null);
  });

  it('tokenise: same value, same token; numbered per type across the request; restorable', () => {
    const result = applyPrivacy(requestBody(), 'tokenise');
    const b = result.body;
    expect(result.counts).to.deep.equal(EXPECTED_COUNTS);
    expect(at(b, 'system', 0, 'text')).to.equal('You help Acme support. Escalate to [EMAIL_1].');
    expect(at(b, 'messages', 0, 'content')).to.equal('Hi, I am [PERSON_1] ([EMAIL_2], [PHONE_1]). My NHS number is [UK_NHS_1].');
    expect(at(b, 'messages', 2, 'content', 0, 'text')).to.equal('Postcode [UK_POSTCODE_1]. Email again: [EMAIL_2]');
    expect(at(b, 'messages', 2, 'content', 5, 'source', 'content', 0, 'text')).to.equal('Desk: [PHONE_2]');
    expect(at(b, 'messages', 3, 'content')).to.equal('Mid-conversation instruction: escalate to desk [PHONE_3] if needed.');
    expect(at(b, 'messages', 2, 'content', 1, 'source', 'data')).to.equal(IMAGE_DATA);
    expect(result.restorer).to.not.equal(null);

    const message: Json = {
      role: 'assistant',
      content: [{ type: 'text', text: 'I will email [EMAIL_2] and call [PHONE_1] about [UK_NHS_1].' }],
    };
    result.restorer?.restoreMessage(message);
    expect(at(message, 'content', 0, 'text')).to.equal('I will email jane.doe@example.com and call 07700 900123 about 943 476 5919.');
  });

  it('tokenise: skips token names the request already contains', () => {
    const body = {
      messages: [
        { role: 'user', content: 'Template uses [EMAIL_1] and [PHONE_2]; mine is a@example.com, b@example.com.' },
        { role: 'user', content: 'Call 07700 900123 or 07700 900456.' },
      ],
    };
    const result = applyPrivacy(body, 'tokenise');
    expect(at(result.body, 'messages', 0, 'content')).to.equal(
      'Template uses [EMAIL_1] and [PHONE_2]; mine is [EMAIL_2], [EMAIL_3].',
    );
    expect(at(result.body, 'messages', 1, 'content')).to.equal('Call [PHONE_1] or [PHONE_3].');
    const message: Json = { content: [{ type: 'text', text: '[EMAIL_1] [EMAIL_2] [PHONE_2] [PHONE_3]' }] };
    result.restorer?.restoreMessage(message);
    // The user's own literal names stay as written; only issued tokens are restored.
    expect(at(message, 'content', 0, 'text')).to.equal('[EMAIL_1] a@example.com [PHONE_2] 07700 900456');
  });

  it('tokenise: returns no restorer when nothing was found', () => {
    const result = applyPrivacy({ messages: [{ role: 'user', content: 'Nothing personal here.' }] }, 'tokenise');
    expect(result.restorer).to.equal(null);
    expect(result.counts).to.deep.equal({});
  });

  it('redact: a surname one message names in full is redacted alone in the others too', () => {
    const body = {
      system: 'You are a helpful assistant.',
      messages: [
        { role: 'user', content: 'Please draft a reply to Werner Emde about the invoice.' },
        { role: 'assistant', content: 'Sure. What should it say?' },
        { role: 'user', content: [{ type: 'text', text: 'Emde says the invoice is late. I told Emde we paid on Monday.' }] },
      ],
    };
    const out = applyPrivacy(body, 'redact').body as typeof body;
    expect(out.messages[0]?.content).to.equal('Please draft a reply to [REDACTED_PERSON] about the invoice.');
    expect(out.messages[1]?.content).to.equal('Sure. What should it say?');
    expect(out.messages[2]?.content).to.deep.equal([{ type: 'text', text: '[REDACTED_PERSON] says the invoice is late. I told [REDACTED_PERSON] we paid on Monday.' }]);
  });

  it('tolerates bodies without messages or with malformed entries', () => {
    const body: Json = { system: 'Contact a@example.com', messages: [null, 'x', { role: 'user' }, { content: [1, null] }] };
    const result = applyPrivacy(body, 'redact');
    expect(at(result.body, 'system')).to.equal('Contact [REDACTED_EMAIL]');
    expect(result.counts).to.deep.equal({ EMAIL: 1 });
  });
});
