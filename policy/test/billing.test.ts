import { expect } from 'chai';
import { billableUnits, billingPeriod, costUnits, formatGbp, priceUnits, rfc3339Utc } from '../src/billing.js';
import { ModelCatalogue } from '../src/catalogue.js';

const usage = (i: number, o: number, cw = 0, cr = 0) => ({
  input_tokens: i,
  output_tokens: o,
  cache_creation_input_tokens: cw,
  cache_read_input_tokens: cr,
});

describe('billing', function () {
  const catalogue = ModelCatalogue.load();

  it('counts cache writes at 125% and cache reads at 10%, rounding each up', function () {
    expect(billableUnits(usage(100, 50))).to.equal(150);
    expect(billableUnits(usage(0, 0, 4, 0))).to.equal(5);
    expect(billableUnits(usage(0, 0, 1, 0))).to.equal(2); // ceil(1.25)
    expect(billableUnits(usage(0, 0, 0, 10))).to.equal(1);
    expect(billableUnits(usage(0, 0, 0, 11))).to.equal(2); // ceil(1.1)
    expect(billableUnits(usage(0, 0, 0, 1))).to.equal(1);
    expect(billableUnits(usage(1000, 200, 800, 5000))).to.equal(1000 + 200 + 1000 + 500);
  });

  it('keeps prices exact as integers', function () {
    expect(priceUnits('3.30')).to.equal(330);
    expect(priceUnits('0.33')).to.equal(33);
    expect(priceUnits('16.5')).to.equal(1650);
    expect(priceUnits('5')).to.equal(500);
  });

  it('costs each model exactly, cache tokens included', function () {
    // one million of each kind costs the sum of the four prices
    const million = usage(1_000_000, 1_000_000, 1_000_000, 1_000_000);
    const expected: Record<string, string> = {
      'alpha-sonnet-4-6': '24.280000', // 3.30 + 16.50 + 4.15 + 0.33
      'alpha-opus-4-6': '40.450000', // 5.50 + 27.50 + 6.90 + 0.55
      'alpha-opus-5': '40.450000',
      'alpha-sonnet-5': '24.280000',
      'alpha-haiku-4-5': '8.110000', // 1.10 + 5.50 + 1.40 + 0.11
    };
    for (const m of catalogue.models) {
      expect(formatGbp(costUnits(million, m.pricing_gbp_per_million)), m.id).to.equal(expected[m.id]);
    }
    const sonnet = catalogue.resolve('alpha-sonnet-4-6');
    // 123 input, 45 output, 67 cache write, 890 cache read at 3.30/16.50/4.15/0.33 per million
    expect(formatGbp(costUnits(usage(123, 45, 67, 890), sonnet!.pricing_gbp_per_million))).to.equal('0.001720');
  });

  it('applies the cache price rules of the contract to the catalogue', function () {
    for (const m of catalogue.models) {
      const p = m.pricing_gbp_per_million;
      const input = priceUnits(p.input);
      expect(priceUnits(p.cache_read), m.id).to.equal(input / 10);
      expect(priceUnits(p.cache_write), m.id).to.equal(Math.ceil((input * 1.25) / 5) * 5);
    }
  });

  it('rounds cost half up to 6 decimals without float drift', function () {
    expect(formatGbp(50)).to.equal('0.000001');
    expect(formatGbp(49)).to.equal('0.000000');
    expect(formatGbp(10n ** 17n)).to.equal('1000000000.000000');
    let sum = 0;
    for (let i = 0; i < 1000; i += 1) sum += costUnits(usage(1, 0), { input: '0.11', output: '0', cache_write: '0', cache_read: '0' });
    expect(formatGbp(sum)).to.equal('0.000110');
  });

  it('uses calendar months in UTC, or months from an anchor day', function () {
    const p = billingPeriod(Date.parse('2026-11-22T10:00:00Z'));
    expect(rfc3339Utc(p.startMs)).to.equal('2026-11-01T00:00:00+00:00');
    expect(rfc3339Utc(p.endMs)).to.equal('2026-12-01T00:00:00+00:00');
    const dec = billingPeriod(Date.parse('2026-12-31T23:59:59Z'));
    expect(rfc3339Utc(dec.endMs)).to.equal('2027-01-01T00:00:00+00:00');
    const anchored = billingPeriod(Date.parse('2026-01-10T00:00:00Z'), 15);
    expect(rfc3339Utc(anchored.startMs)).to.equal('2025-12-15T00:00:00+00:00');
    expect(rfc3339Utc(anchored.endMs)).to.equal('2026-01-15T00:00:00+00:00');
    const onAnchor = billingPeriod(Date.parse('2026-01-15T00:00:00Z'), 15);
    expect(rfc3339Utc(onAnchor.startMs)).to.equal('2026-01-15T00:00:00+00:00');
  });

  it('answers the kept period only inside it, per anchor day, on either side and at the edges', function () {
    const at = (iso: string, day: number | null = null): string => billingPeriod(Date.parse(iso), day).id;
    expect(at('2026-11-22T10:00:00Z')).to.equal('2026-11-01');
    // The instant a period ends belongs to the next; the one before its start to the previous.
    expect(at('2026-12-01T00:00:00Z')).to.equal('2026-12-01');
    expect(at('2026-11-30T23:59:59.999Z')).to.equal('2026-11-01');
    expect(at('2026-10-31T23:59:59.999Z')).to.equal('2026-10-01');
    // Another anchor day is not answered from the calendar month kept for the default.
    expect(at('2026-11-22T10:00:00Z', 25)).to.equal('2026-10-25');
    expect(at('2026-11-22T10:00:00Z', 1)).to.equal('2026-11-01');
    expect(at('2026-11-25T00:00:00Z', 25)).to.equal('2026-11-25');
    // Shared between callers, so it cannot be changed by one of them.
    expect(Object.isFrozen(billingPeriod(Date.parse('2026-11-22T10:00:00Z')))).to.equal(true);
  });
});
