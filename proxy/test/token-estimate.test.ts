import { expect } from 'chai';
import { requestText } from '../src/token-estimate.js';

describe('requestText', function () {
  it('walks tool results nested 20,000 deep without recursion, in order', function () {
    let content: unknown[] = [{ type: 'text', text: 'innermost' }];
    for (let i = 0; i < 20_000; i += 1) content = [{ type: 'tool_result', tool_use_id: 't', content }, { type: 'text', text: `after-${i}` }];
    const text = requestText({ system: 'sys', messages: [{ role: 'user', content }] });
    const parts = text.split('\n');
    expect(parts[0]).to.equal('sys');
    expect(parts[1]).to.equal('innermost');
    expect(parts[2]).to.equal('after-0');
    expect(parts[parts.length - 1]).to.equal('after-19999');
    expect(parts.length).to.equal(20_002);
  });

  it('reads string tool results, text blocks and string contents, and skips the rest', function () {
    const text = requestText({
      system: [{ type: 'text', text: 'a' }],
      messages: [
        { role: 'user', content: 'b' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 'n', input: { text: 'no' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x', content: 'c' }, { type: 'image', source: {} }, 7, null] },
      ],
    });
    expect(text).to.equal('a\nb\nc');
  });
});
