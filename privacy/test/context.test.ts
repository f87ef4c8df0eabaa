import { expect } from 'chai';
import { forEachValueAfterContext, hasContextAfter, hasContextBefore, textBeforeSinceNumber } from '../src/context.js';

describe('privacy/context', () => {
  it('looks back within the clause, crossing a line break only after a label', () => {
    const re = /\bphone\b/i;
    expect(hasContextBefore('Phone: 123', 7, 40, re)).to.equal(true);
    expect(hasContextBefore('Phone:\n123', 7, 40, re)).to.equal(true);
    expect(hasContextBefore('My phone broke\n123', 15, 40, re)).to.equal(false);
    expect(hasContextBefore('My phone broke. Ticket 123', 23, 40, re)).to.equal(false);
    expect(hasContextBefore('My phone broke. Ticket 123', 23, 40, re, 'line')).to.equal(true);
    expect(hasContextBefore('Phone No. 123', 10, 40, re)).to.equal(true);
    expect(hasContextBefore('<a href="#">phone us</a> We had 123', 32, 40, re)).to.equal(false);
    expect(hasContextBefore('<b>Phone:</b> 123', 14, 40, re)).to.equal(true);
  });

  it('looks ahead on the same line only', () => {
    expect(hasContextAfter('123 office', 3, 16, /^\W{0,3}office/)).to.equal(true);
    expect(hasContextAfter('123\noffice', 3, 16, /^\W{0,3}office/)).to.equal(false);
  });

  it('gives context to the nearest number unless numbers form a list', () => {
    expect(textBeforeSinceNumber('Tel: 0300 305 6717 UTR ', 23, 40)).to.equal(' UTR ');
    expect(textBeforeSinceNumber('Call 0161 496 0000 or ', 22, 40)).to.equal('Call 0161 496 0000 or ');
  });

  it('finds one value per context word within the window and sentence', () => {
    const seen: string[] = [];
    const text = 'passport 123456789; passport none. Passport. Unrelated 987654321';
    forEachValueAfterContext(text, /passport/gi, /\d{9}/g, 20, 9, (start, m) => seen.push(`${start}:${m[0]}`));
    expect(seen).to.deep.equal([`9:123456789`]);
  });
});
