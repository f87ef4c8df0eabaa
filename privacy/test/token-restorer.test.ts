import { expect } from 'chai';
import { createTokenRestorer } from '../src/token-restorer.js';

describe('privacy/token-restorer', () => {
  const restorer = createTokenRestorer(
    new Map([
      ['[EMAIL_1]', 'jane.doe@example.com'],
      ['[PHONE_1]', '07700 900123'],
    ]),
  );

  it('restores text blocks and every string of tool_use input, deep', () => {
    const message: Record<string, unknown> = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [
        { type: 'text', text: 'Emailing [EMAIL_1] now; [UNKNOWN_1] stays.' },
        { type: 'thinking', thinking: 'token [EMAIL_1] stays in signed thinking', signature: 's' },
        {
          type: 'tool_use',
          id: 'toolu_1',
          name: 'send_email',
          input: { to: '[EMAIL_1]', cc: ['[EMAIL_1]', 'x'], meta: { phone: '[PHONE_1]', n: 1, ok: true, none: null } },
        },
      ],
      usage: { input_tokens: 1, output_tokens: 2 },
    };
    restorer.restoreMessage(message);
    expect(message['content']).to.deep.equal([
      { type: 'text', text: 'Emailing jane.doe@example.com now; [UNKNOWN_1] stays.' },
      { type: 'thinking', thinking: 'token [EMAIL_1] stays in signed thinking', signature: 's' },
      {
        type: 'tool_use',
        id: 'toolu_1',
        name: 'send_email',
        input: {
          to: 'jane.doe@example.com',
          cc: ['jane.doe@example.com', 'x'],
          meta: { phone: '07700 900123', n: 1, ok: true, none: null },
        },
      },
    ]);
  });

  it('restores an own "__proto__" key as data, not as a prototype', () => {
    const input = JSON.parse('{"__proto__": "[EMAIL_1]"}') as Record<string, unknown>;
    const message: Record<string, unknown> = { content: [{ type: 'tool_use', id: 't', name: 'n', input }] };
    restorer.restoreMessage(message);
    expect(Object.getOwnPropertyDescriptor(input, '__proto__')?.value).to.equal('jane.doe@example.com');
    expect(Object.getPrototypeOf(input)).to.equal(Object.prototype);
  });

  it('tolerates messages without content blocks', () => {
    const message: Record<string, unknown> = { content: 'not an array' };
    restorer.restoreMessage(message);
    expect(message).to.deep.equal({ content: 'not an array' });
  });
});
