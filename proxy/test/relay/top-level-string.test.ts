import { expect } from 'chai';
import { replaceTopLevelString } from '../../src/relay/top-level-string.js';

describe('replaceTopLevelString', () => {
  it('replaces the top-level member and keeps every other byte', () => {
    const text = '{"id":"msg_1", "type":"message","model" : "anthropic.m-v1:0","content":[{"type":"text","text":"hi"}]}';
    expect(replaceTopLevelString(text, 'model', 'alias-5')).to.equal(
      '{"id":"msg_1", "type":"message","model" : "alias-5","content":[{"type":"text","text":"hi"}]}',
    );
  });

  it('skips the same key nested, in strings and as a value', () => {
    const text = '{"content":[{"type":"tool_use","input":{"model":"nested"}}],"note":"\\"model\\":\\"x\\"","k":"model","model":"up"}';
    const out = replaceTopLevelString(text, 'model', 'alias');
    expect(JSON.parse(out as string)).to.deep.equal({ ...JSON.parse(text), model: 'alias' });
    expect(out).to.contain('{"model":"nested"}');
  });

  it('escapes the new value and handles escapes in the old one', () => {
    const out = replaceTopLevelString('{"model":"a\\"b","x":1}', 'model', 'q"r');
    expect(JSON.parse(out as string)).to.deep.equal({ model: 'q"r', x: 1 });
  });

  it('is undefined when the member is missing or not a string', () => {
    expect(replaceTopLevelString('{"a":{"model":"x"}}', 'model', 'y')).to.equal(undefined);
    expect(replaceTopLevelString('{"model":null}', 'model', 'y')).to.equal(undefined);
  });
});
