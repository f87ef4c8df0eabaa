import { expect } from 'chai';
import { detect, detectAll } from '@gateway/privacy';
import { DetectorPool } from '../../src/privacy/detector-pool.js';

describe('privacy/detector-pool', function () {
  this.timeout(20_000);
  let pool: DetectorPool;
  before(() => {
    pool = new DetectorPool(2);
  });
  after(async () => pool.close());

  it('finds in worker threads exactly what the detector finds in place', async function () {
    const unit = 'Write to jane.doe@example.com or call 020 7946 0958; card 4111 1111 1111 1111, order 12345678. ';
    const big = unit.repeat(2000); // well past the inline threshold
    const texts = [big, 'no pii here', `IBAN GB82 WEST 1234 5698 7654 32 ${big.slice(0, 5000)}`];
    const [a, b] = await Promise.all([pool.detectMany(texts), pool.detectMany(texts.slice().reverse())]);
    expect(a).to.deep.equal(texts.map((t) => detect(t)));
    expect(b).to.deep.equal(texts.slice().reverse().map((t) => detect(t)));
    expect(a[0]?.length).to.equal(6000);
  });

  it('finds a surname one text names in full alone in the others, in a thread as in place', async function () {
    const filler = 'The build ran for an hour and the cache was cold. '.repeat(1400); // past the inline threshold
    const texts = ['Please draft a reply to Werner Emde about the invoice.', `${filler}I told Emde we paid on Monday.`];
    const expected = detectAll(texts);
    expect(expected[1]?.filter((f) => f.type === 'PERSON').map((f) => f.value)).to.deep.equal(['Emde']);
    expect(await pool.detectMany(texts)).to.deep.equal(expected);
    expect(await pool.detectMany(texts.map((t) => t.slice(0, 2000)))).to.deep.equal(detectAll(texts.map((t) => t.slice(0, 2000))));
  });

  it('scans small requests in place', async function () {
    expect(await pool.detectMany(['mail jane@example.com'])).to.deep.equal([detect('mail jane@example.com')]);
  });
});
