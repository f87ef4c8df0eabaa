import { expect } from 'chai';
import { buildStubReply, groupPieces } from '../../src/stub/stub-reply.js';
import type { MessagesBody } from '../../src/messages-request.js';

const body = (messages: MessagesBody['messages'], extra: Partial<MessagesBody> = {}): MessagesBody => ({
  model: 'eu.anthropic.alpha-sonnet-5-v1:0',
  max_tokens: 100,
  messages,
  ...extra,
});

describe('test-key stub reply', function () {
  it('names the model, then echoes the last user message as forwarded', function () {
    const r = buildStubReply('alpha-sonnet-5', body([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: [{ type: 'text', text: 'second' }, { type: 'image', source: {} }, { type: 'text', text: 'part' }] },
    ]), 100);
    expect(r.text).to.equal('This is a test response from alpha-sonnet-5. You said: second part');
    expect(r.stopReason).to.equal('end_turn');
    expect(r.outputTokens).to.equal(r.pieces.length);
    expect(r.pieces.join('')).to.equal(r.text);
  });

  it('is deterministic, and counts input from every text the request carries', function () {
    const b = body([{ role: 'user', content: 'x'.repeat(40) }], { system: 'y'.repeat(40) });
    const a = buildStubReply('alpha-opus-5', b, 50);
    expect(buildStubReply('alpha-opus-5', b, 50)).to.deep.equal(a);
    expect(a.inputTokens).to.equal(Math.ceil(81 / 4));
  });

  it('cuts at max_tokens and reports max_tokens as the stop reason', function () {
    const r = buildStubReply('alpha-opus-5', body([{ role: 'user', content: 'a b c d e f' }]), 4);
    expect(r.pieces).to.have.length(4);
    expect(r.text).to.equal('This is a test ');
    expect(r.stopReason).to.equal('max_tokens');
    expect(r.outputTokens).to.equal(4);
  });

  it('omits the echo when the last user message has no text', function () {
    const r = buildStubReply('alpha-opus-5', body([{ role: 'user', content: [{ type: 'image', source: {} }] }]), 100);
    expect(r.text).to.equal('This is a test response from alpha-opus-5.');
  });

  it('groups pieces into runs that rebuild the text', function () {
    const pieces = ['a ', 'b ', 'c ', 'd ', 'e'];
    expect(groupPieces(pieces, 2)).to.deep.equal(['a b ', 'c d e']);
    expect(groupPieces(pieces, 10).join('')).to.equal('a b c d e');
    expect(groupPieces([], 3)).to.deep.equal([]);
  });
});
