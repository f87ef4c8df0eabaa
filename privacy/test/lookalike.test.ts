import { expect } from 'chai';
import { isInsideLookalike } from '../src/lookalike.js';

describe('privacy/lookalike', () => {
  const inside = (text: string, value: string): boolean => {
    const start = text.indexOf(value);
    return isInsideLookalike(text, start, start + value.length);
  };

  it('recognises digit runs inside UUIDs and digests', () => {
    expect(inside('id 550e8400-e29b-41d4-a716-446655440000.', '446655440000')).to.equal(true);
    expect(inside('ID 550E8400-E29B-41D4-A716-446655440000', '446655440000')).to.equal(true);
    expect(inside('commit 9fceb02d0ae598e95dc970b74767f19372d61af8', '74767')).to.equal(true);
    expect(inside('hash 4111111111111111aa0f0f0f0f', '4111111111111111')).to.equal(true);
    expect(inside('build-4111111111111111aa0f0f0f0f', '4111111111111111')).to.equal(true);
  });

  it('leaves real values alone', () => {
    expect(inside('IBAN DE89370400440532013000', 'DE89370400440532013000')).to.equal(false);
    expect(inside('iban de89370400440532013000', 'de89370400440532013000')).to.equal(false);
    expect(inside('card 4111111111111111 ok', '4111111111111111')).to.equal(false);
    expect(inside('NHS 943-476-5919', '943-476-5919')).to.equal(false);
    expect(inside('card ab4111111111111111', '4111111111111111')).to.equal(false); // under 20: no digest
  });
});
