import { expect } from 'chai';
import { ModelCatalogue, type Catalogue } from '../src/catalogue.js';

describe('model catalogue', function () {
  const c = ModelCatalogue.load();

  it('holds the spec\'s five models and not alpha-fable-5', function () {
    expect(c.models.map((m) => m.id)).to.deep.equal(['alpha-sonnet-4-6', 'alpha-opus-4-6', 'alpha-opus-5', 'alpha-sonnet-5', 'alpha-haiku-4-5']);
    expect(c.resolve('alpha-fable-5')).to.equal(undefined);
    for (const m of c.models) expect(m.context_window).to.equal(200_000);
  });

  it('resolves dated aliases with a real calendar date only', function () {
    expect(c.resolve('alpha-sonnet-4-6-20250514')?.id).to.equal('alpha-sonnet-4-6');
    expect(c.resolve('alpha-sonnet-4-6-20250230')).to.equal(undefined);
    expect(c.resolve('alpha-sonnet-4-6-2025051')).to.equal(undefined);
    expect(c.resolve('alpha-fable-5-20260101')).to.equal(undefined);
  });

  it('routes uk only to London and only for the two in-region models', function () {
    const uk = c.models.filter((m) => c.route(m, 'uk') !== undefined);
    expect(uk.map((m) => m.id)).to.deep.equal(['alpha-sonnet-4-6', 'alpha-opus-4-6']);
    for (const m of uk) {
      expect(c.route(m, 'uk')?.processing_regions).to.deep.equal(['eu-west-2']);
      expect(c.route(m, 'uk')?.call_region).to.equal('eu-west-2');
      expect(c.route(m, 'uk')?.upstream_model.startsWith('eu.')).to.equal(false);
    }
    for (const m of c.models) {
      const eu = c.route(m, 'eu');
      expect(eu?.upstream_model.startsWith('eu.'), m.id).to.equal(true);
      expect(eu?.processing_regions).to.have.length(7);
      expect(eu?.processing_regions).to.not.include('eu-west-2');
    }
  });

  it('refuses cross-region profile ids for uk and anything but the EU profile for eu', function () {
    const base = ModelCatalogue.load();
    const raw = JSON.parse(JSON.stringify({ tiers: base.tiers, models: base.models })) as Catalogue;
    const sonnet = raw.models[0]!;
    sonnet.routes.uk!.upstream_model = 'global.anthropic.alpha-sonnet-4-6-v1:0';
    sonnet.routes.eu!.upstream_model = 'us.anthropic.alpha-sonnet-4-6-v1:0';
    expect(() => new ModelCatalogue(raw)).to.throw(/uk: global\.anthropic.*cross-region profile[\s\S]*eu: us\.anthropic.*not an EU profile/);
  });

  it('refuses a catalogue whose route would leave its tier', function () {
    const bad: Catalogue = {
      tiers: { uk: { label: 'UK', regions: ['eu-west-2'] }, eu: { label: 'EU', regions: ['eu-central-1'] } },
      models: [
        {
          id: 'm', display_name: 'M', created_at: '', context_window: 1, max_output_tokens: 1, supports_vision: false,
          best_tier: 'uk', pricing_gbp_per_million: { input: '1', output: '1', cache_write: '1.25', cache_read: '0.1' },
          routes: { uk: { upstream_model: 'x', call_region: 'eu-west-2', processing_regions: ['eu-west-2', 'us-east-1'] } },
        },
      ],
    };
    expect(() => new ModelCatalogue(bad)).to.throw(/us-east-1 outside the tier/);
  });
});
