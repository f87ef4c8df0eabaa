import { expect } from 'chai';
import { MAX_JSON_DEPTH, MAX_JSON_ELEMENTS, jsonShapeError } from '../../src/http/json-shape.js';

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

  it('scans 32 MiB of text quickly', function () {
    const body = Buffer.from(JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(32 * 1024 * 1024 - 100) }] }));
    const t = performance.now();
    expect(jsonShapeError(body)).to.equal(undefined);
    expect(performance.now() - t).to.be.below(100);
  });
});
