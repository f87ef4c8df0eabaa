import { expect } from 'chai';
import { DetectorPool, detect } from '../../src/privacy/index.js';

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

  it('scans small requests in place', async function () {
    expect(await pool.detectMany(['mail jane@example.com'])).to.deep.equal([detect('mail jane@example.com')]);
  });
});
