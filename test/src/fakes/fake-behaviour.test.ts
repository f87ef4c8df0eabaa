import { expect } from 'chai';
import {
  BehaviourScript,
  estimateInputTokens,
  lastUserText,
  streamExceptionType,
  vendorModelName,
  type FakeRequest,
} from './index.js';
import { buildStreamEvents, resolveResponse, slices } from './fake-response.js';

const request = (body: Record<string, unknown>): FakeRequest => ({ body, headers: {}, region: null, path: '/v1/messages', modelId: null });

describe('fakes: behaviour plans', function () {
  it('takes queued plans in order, then the standing one, then the default', function () {
    const script = new BehaviourScript();
    script.set({ latencyMs: 1 });
    script.enqueue({ latencyMs: 2 }, (r) => ({ latencyMs: r.body['n'] as number }));
    const req = request({ n: 3 });
    expect([script.next(req), script.next(req), script.next(req)]).to.deep.equal([{ latencyMs: 2 }, { latencyMs: 3 }, { latencyMs: 1 }]);
    script.reset();
    expect(script.next(req)).to.deep.equal({});
  });

  it('reads the last user message, string or text blocks', function () {
    const body = {
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'reply' },
        { role: 'user', content: [{ type: 'image', source: {} }, { type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
      ],
    };
    expect(lastUserText(body)).to.equal('a\nb');
    expect(estimateInputTokens({ system: 'x'.repeat(40), messages: [] })).to.equal(10);
  });

  it('slices deltas by code point and counts a signature delta per thinking block', function () {
    expect(slices('a🚀bc', 2)).to.deep.equal(['a🚀', 'bc']);
    const r = resolveResponse({ content: [{ type: 'thinking', thinking: '', signature: 's' }], chunkSize: 2 }, { messages: [] }, 'm');
    const types = buildStreamEvents(r, false).map((e) => e.type);
    expect(types).to.deep.equal(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
  });

  it('names Bedrock models and stream exceptions as Bedrock does', function () {
    expect(vendorModelName('eu.anthropic.alpha-sonnet-5-v1:0')).to.equal('alpha-sonnet-5');
    expect(vendorModelName('anthropic.alpha-haiku-4-5-v1:0')).to.equal('alpha-haiku-4-5');
    expect(vendorModelName('global.anthropic.alpha-opus-5-v1')).to.equal('alpha-opus-5');
    expect(streamExceptionType('rate_limit_error')).to.equal('throttlingException');
    expect(streamExceptionType('ModelStreamErrorException')).to.equal('modelStreamErrorException');
    expect(streamExceptionType('internalServer')).to.equal('internalServerException');
    expect(streamExceptionType('something_else')).to.equal('modelStreamErrorException');
  });
});
