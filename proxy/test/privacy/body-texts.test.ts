import { expect } from 'chai';
import { collectTextSlots } from '../../src/privacy/body-texts.js';
import { requestBody } from './request-fixture.js';

describe('privacy/body-texts', () => {
  it('yields every text of a request in order, and nothing from images, base64 or unknown blocks', () => {
    const texts = collectTextSlots(requestBody()).map((s) => s.text);
    expect(texts).to.deep.equal([
      'You help Acme support. Escalate to ops@acme.co.uk.',
      'Hi, I am Jane (jane.doe@example.com, 07700 900123). My NHS number is 943 476 5919.',
      'Thanks Jane. Could you confirm your postcode?',
      'Postcode SW1A 1AA. Email again: jane.doe@example.com',
      'Card 4111 1111 1111 1111, IBAN GB82 WEST 1234 5698 7654 32',
      'Last login from 81.2.69.160',
      'HR record',
      'NI number AB123456C',
      'Desk: 020 7946 0958',
    ]);
  });

  it('writes replacements back in place', () => {
    const body: Record<string, unknown> = { system: 'a', messages: [{ role: 'user', content: 'b' }] };
    for (const slot of collectTextSlots(body)) slot.set(slot.text.toUpperCase());
    expect(body).to.deep.equal({ system: 'A', messages: [{ role: 'user', content: 'B' }] });
  });

  it('includes the string values of earlier tool_use inputs, nested ones too, and writes them back', () => {
    const body: Record<string, unknown> = {
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'send', input: { to: 'jane@example.com', cc: ['a@b.co'], n: 3, opts: { note: 'x' } } }] },
      ],
    };
    const slots = collectTextSlots(body);
    expect(slots.map((s) => s.text)).to.deep.equal(['jane@example.com', 'a@b.co', 'x']);
    for (const slot of slots) slot.set(`<${slot.text}>`);
    expect((body['messages'] as Array<{ content: Array<{ input: unknown }> }>)[0]?.content[0]?.input).to.deep.equal({
      to: '<jane@example.com>', cc: ['<a@b.co>'], n: 3, opts: { note: '<x>' },
    });
  });

  it('stops at a bounded nesting depth', () => {
    let content: unknown[] = [{ type: 'text', text: 'deep' }];
    for (let i = 0; i < 50; i++) content = [{ type: 'tool_result', content }];
    expect(collectTextSlots({ messages: [{ role: 'user', content }] })).to.deep.equal([]);
  });
});
