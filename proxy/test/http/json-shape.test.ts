import { expect } from 'chai';
import { MAX_JSON_DEPTH, MAX_JSON_ELEMENTS, jsonShapeError, scanJson } from '../../src/http/json-shape.js';

const check = (s: string) => jsonShapeError(Buffer.from(s));

describe('jsonShapeError', function () {
  it('accepts nesting up to the bound and refuses one level more', function () {
    expect(check('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH))).to.equal(undefined);
    expect(check('['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1))?.message).to.contain('levels deep');
    expect(check('{"a":'.repeat(MAX_JSON_DEPTH + 1))?.status).to.equal(400);
  });

  it('ignores brackets, quotes and commas inside strings, escapes included', function () {
    const inside = `"${'[{,'.repeat(MAX_JSON_ELEMENTS)}\\"[[[\\\\"`;
    expect(check(`{"a":${inside}}`)).to.equal(undefined);
    expect(check(`["\\\\", ${'['.repeat(MAX_JSON_DEPTH)}]`)?.message).to.contain('levels deep');
  });

  it('counts elements: objects, arrays, strings and commas', function () {
    const n = Math.floor(MAX_JSON_ELEMENTS / 2);
    expect(check(`[${Array(n).fill('1').join(',')}]`)).to.equal(undefined);
    expect(check(`[${Array(MAX_JSON_ELEMENTS + 1).fill('1').join(',')}]`)?.message).to.contain('JSON elements');
    expect(check(`[${Array(MAX_JSON_ELEMENTS).fill('""').join('')}]`)?.message).to.contain('JSON elements');
  });

  // Its speed beside JSON.parse's is measured by `npm run bench:json-shape`, not asserted here.
  it('reads past 32 MiB of text, brackets and a "model" key inside it, to the real top-level model', function () {
    const text = `${'x'.repeat(16 * 1024 * 1024)}[[{"model":"inside"},${'y'.repeat(16 * 1024 * 1024)}`;
    const body = Buffer.from(JSON.stringify({ messages: [{ role: 'user', content: text }], model: 'after' }));
    const result = scanJson(body);
    expect(result.error).to.equal(undefined);
    expect(result.topLevelMembers).to.equal(2);
    expect(body.subarray(result.model!.start, result.model!.end).toString()).to.equal('"after"');
  });
});

describe('scanJson', function () {
  const scan = (s: string) => scanJson(Buffer.from(s));
  const modelOf = (s: string) => {
    const m = scan(s).model;
    return m === undefined ? undefined : Buffer.from(s).subarray(m.start, m.end).toString();
  };

  it('counts the members of the outermost object as written, a key written twice counted twice', function () {
    expect(scan('{}').topLevelMembers).to.equal(0);
    expect(scan('{"a":1}').topLevelMembers).to.equal(1);
    expect(scan('{"a":{"b":1,"c":[1,2,{"d":3}]},"e":"x,y","f":[1,2]}').topLevelMembers).to.equal(3);
    expect(scan('{"model":"a","model":"b"}').topLevelMembers).to.equal(2);
    expect(scan('[1,2,3]').topLevelMembers).to.equal(0);
    expect(scan('"a,b"').topLevelMembers).to.equal(0);
  });

  it('finds the top-level model value, not one nested or one that is a key\'s text', function () {
    expect(modelOf('{"model":"m1","max_tokens":1}')).to.equal('"m1"');
    expect(modelOf('{ "messages":[{"model":"nested"}], "model" : "m\\"2\\"" }')).to.equal('"m\\"2\\""');
    expect(modelOf('{"metadata":{"model":"nested"},"x":"model","model":"m3"}')).to.equal('"m3"');
    expect(modelOf('{"model":7,"y":"not this"}')).to.equal(undefined);
    expect(modelOf('{"model":{"a":"b"},"y":"not this"}')).to.equal(undefined);
    expect(modelOf('{"mod\\u0065l":"escaped"}')).to.equal(undefined);
    expect(modelOf('{"a":"é🙂","model":"m4"}')).to.equal('"m4"');
  });
});
