import { expect } from 'chai';
import { collectTextSlots } from '../src/body-texts.js';
import { requestBody } from './request-fixture.js';

describe('privacy/body-texts', () => {
  it('yields every text of a request in order, unknown block types included, and nothing from images, base64 or thinking', () => {
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
      'https://x.example',
      'x',
      'jane.doe@example.com',
      'Mid-conversation instruction: escalate to desk 020 7946 0000 if needed.',
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

  it('walks deep nesting without the call stack (the reader bounds depth before this)', () => {
    let content: unknown[] = [{ type: 'text', text: 'deep' }];
    for (let i = 0; i < 5_000; i++) content = [{ type: 'tool_result', tool_use_id: `t${i}`, content }];
    expect(collectTextSlots({ messages: [{ role: 'user', content }] }).map((s) => s.text)).to.deep.equal(['deep']);
  });

  it('scans a system-role message inside messages, as current clients send it', () => {
    const body: Record<string, unknown> = {
      messages: [
        { role: 'user', content: 'hello' },
        { role: 'system', content: 'Reach the user at jane@example.com' },
        { role: 'system', content: [{ type: 'text', text: 'or 07700 900123' }] },
      ],
    };
    expect(collectTextSlots(body).map((s) => s.text)).to.deep.equal(['hello', 'Reach the user at jane@example.com', 'or 07700 900123']);
  });

  it('scans roles, block types, containers and top-level fields it has never heard of (default: scan)', () => {
    const body: Record<string, unknown> = {
      model: 'alpha-sonnet-4-6',
      instructions: 'future top-level text a@b.co',
      messages: [
        { role: 'narrator', content: [{ type: 'hologram', caption: 'c@d.co', frames: [{ subtitle: 'e@f.co' }] }] },
        { role: 'user', content: [{ type: 'future_result', payload: { nested: ['g@h.co'] } }] },
      ],
      future_context: [{ type: 'memo', body: 'i@j.co' }],
    };
    expect(collectTextSlots(body).map((s) => s.text)).to.have.members([
      'future top-level text a@b.co', 'c@d.co', 'e@f.co', 'g@h.co', 'i@j.co',
    ]);
  });

  it('leaves alone what would break if changed: ids, names, signatures, binary and URL sources, settings, tool schemas', () => {
    const body: Record<string, unknown> = {
      model: 'alpha-sonnet-4-6',
      metadata: { user_id: 'user_abc' },
      thinking: { type: 'adaptive' },
      context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] },
      output_config: { effort: 'high' },
      tools: [{
        name: 'send_mail',
        description: 'Mail ops@acme.co.uk',
        input_schema: { type: 'object', properties: { to: { type: 'string', format: 'email', description: 'CC kim@acme.co.uk', enum: ['a@acme.co.uk'] } } },
      }],
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'secret chain', signature: 'sig==' },
            { type: 'redacted_thinking', data: 'opaque==' },
            { type: 'tool_use', id: 'toolu_1', name: 'send_mail', input: { to: 'jane@example.com', name: 'Jane', type: 'x' } },
            { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', url: 'https://e.example', title: 'Page', encrypted_content: 'ENC==' }] },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'url', url: 'https://img.example/a.png' } },
            { type: 'document', source: { type: 'file', file_id: 'file_1' } },
            { type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } },
          ],
        },
      ],
    };
    const texts = collectTextSlots(body).map((s) => s.text);
    // metadata is not a setting the gateway knows, so it is scanned (its values are ids: nothing is found there).
    // Tool definitions: their descriptions are prose and scanned; enums, formats and names are not.
    expect(texts).to.have.members([
      'Mail ops@acme.co.uk', 'CC kim@acme.co.uk', 'user_abc', 'jane@example.com', 'Jane', 'x', 'https://e.example', 'Page', 'hi',
    ]);
  });
});
