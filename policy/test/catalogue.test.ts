import { expect } from 'chai';
import { ModelCatalogue, loadRegionTable, routesOnUnknownUpstreams, type Catalogue, type CatalogueFile } from '../src/catalogue.js';

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
    const uk = c.models.filter((m) => c.routes(m, 'uk').length > 0);
    expect(uk.map((m) => m.id)).to.deep.equal(['alpha-sonnet-4-6', 'alpha-opus-4-6']);
    for (const m of uk) {
      expect(c.routes(m, 'uk')).to.have.length(1);
      const [route] = c.routes(m, 'uk');
      expect(route?.processing_regions).to.deep.equal(['eu-west-2']);
      expect(route?.call_region).to.equal('eu-west-2');
      expect(route?.upstream).to.equal('default');
      expect(route?.upstream_model.startsWith('eu.')).to.equal(false);
    }
    for (const m of c.models) {
      const eu = c.routes(m, 'eu');
      // The same EU profile, called from several EU source regions (each with its own quota), in order.
      expect(eu.map((r) => r.call_region), m.id).to.deep.equal(['eu-central-1', 'eu-west-1', 'eu-west-3']);
      for (const r of eu) {
        expect(r.upstream_model.startsWith('eu.'), m.id).to.equal(true);
        expect(r.processing_regions).to.deep.equal(c.tiers.eu.regions);
        expect(r.processing_regions).to.not.include('eu-west-2');
      }
    }
    expect(c.tiers.uk.regions).to.deep.equal(['eu-west-2']);
    expect(c.tiers.eu.regions).to.deep.equal(['eu-central-1', 'eu-west-1', 'eu-west-3', 'eu-north-1', 'eu-south-1', 'eu-south-2', 'eu-central-2']);
  });

  it('names every region of the shipped catalogue in the region table, with platform and country', function () {
    const table = loadRegionTable();
    for (const r of [...c.tiers.uk.regions, ...c.tiers.eu.regions]) expect(table[r]?.platform, r).to.equal('bedrock');
    expect(table['eu-west-2']).to.deep.equal({ platform: 'bedrock', country: 'GB', location: 'London' });
    expect(table['europe-west4']?.platform).to.equal('vertex');
    expect(table['global']).to.equal(undefined);
  });

  const raw = (): CatalogueFile => JSON.parse(JSON.stringify({ tiers: c.tiers, models: c.models })) as CatalogueFile;
  const firstRoute = (cat: CatalogueFile, i: number, tier: 'uk' | 'eu') => (cat.models[i]!.routes[tier] as Array<Record<string, unknown>>)[0]!;

  it('reads a tier\'s single route object as a one-element list on the default upstream', function () {
    const cat = raw();
    const { upstream: _u, ...route } = firstRoute(cat, 0, 'uk');
    (cat.models[0]!.routes as Record<string, unknown>)['uk'] = route;
    const loaded = new ModelCatalogue(cat);
    expect(loaded.routes(loaded.models[0]!, 'uk')).to.deep.equal([{ ...route, upstream: 'default' }]);
  });

  it('refuses cross-region profile ids for uk and anything but the EU profile for eu', function () {
    const cat = raw();
    firstRoute(cat, 0, 'uk')['upstream_model'] = 'apac.anthropic.alpha-sonnet-4-6-v1:0';
    firstRoute(cat, 0, 'eu')['upstream_model'] = 'jp.anthropic.alpha-sonnet-4-6-v1:0';
    expect(() => new ModelCatalogue(cat)).to.throw(/uk\[0\]: apac\.anthropic.*cross-region profile[\s\S]*eu\[0\]: jp\.anthropic.*not an EU profile/);
  });

  it('refuses global and US model ids, the global location and regions missing from the table', function () {
    const cat = raw();
    firstRoute(cat, 0, 'uk')['upstream_model'] = 'global.anthropic.alpha-sonnet-4-6-v1:0';
    (cat.models[0]!.routes.eu as Array<Record<string, unknown>>)[2]!['upstream_model'] = 'us.anthropic.alpha-sonnet-4-6-v1:0';
    firstRoute(cat, 1, 'eu')['call_region'] = 'global';
    firstRoute(cat, 2, 'eu')['processing_regions'] = ['eu-central-1', 'mars-north-1'];
    const message = (() => {
      try {
        new ModelCatalogue(cat);
        return '';
      } catch (err) {
        return (err as Error).message;
      }
    })();
    expect(message).to.match(/alpha-sonnet-4-6\/uk\[0\]: global\.anthropic.* global or US model id/);
    expect(message).to.match(/alpha-sonnet-4-6\/eu\[2\]: us\.anthropic.* global or US model id/);
    expect(message).to.match(/alpha-opus-4-6\/eu\[0\]: the global location is never inside a tier/);
    expect(message).to.match(/alpha-opus-5\/eu\[0\]: region mars-north-1 is not in the region table/);
  });

  it('refuses a tier region missing from the table, and a Vertex route outside its tier', function () {
    const cat = raw();
    cat.tiers.eu.regions = [...cat.tiers.eu.regions, 'europe-west4', 'atlantis-1'];
    (cat.models[2]!.routes.eu as unknown[]).push({ upstream: 'gcp', upstream_model: 'alpha-opus-5@20260930', call_region: 'europe-west4', processing_regions: ['europe-west4'] });
    (cat.models[3]!.routes.eu as unknown[]).push({ upstream: 'gcp', upstream_model: 'alpha-sonnet-5@20260930', call_region: 'europe-west2', processing_regions: ['europe-west2'] });
    expect(() => new ModelCatalogue(cat)).to.throw(/tier eu: region atlantis-1 is not in the region table[\s\S]*alpha-sonnet-5\/eu\[3\]: call region europe-west2 outside the tier/);
    cat.tiers.eu.regions.pop();
    (cat.models[3]!.routes.eu as unknown[]).pop();
    // A Vertex model id has no profile prefix and is accepted inside the tier the operator widened to it.
    const loaded = new ModelCatalogue(cat);
    expect(loaded.routes(loaded.models[2]!, 'eu').map((r) => r.upstream)).to.deep.equal(['default', 'default', 'default', 'gcp']);
  });

  it('names the routes whose upstream the configuration lacks (the proxy skips them), in catalogue order', function () {
    const cat = raw();
    cat.tiers.eu.regions = [...cat.tiers.eu.regions, 'europe-west4'];
    (cat.models[3]!.routes.eu as unknown[]).push({ upstream: 'gcp', upstream_model: 'alpha-sonnet-5@20260930', call_region: 'europe-west4', processing_regions: ['europe-west4'] });
    const loaded = new ModelCatalogue(cat);
    expect(routesOnUnknownUpstreams(loaded, new Set(['default', 'gcp']))).to.deep.equal([]);
    expect(routesOnUnknownUpstreams(loaded, new Set(['default']))).to.deep.equal(['alpha-sonnet-5/eu[3]: gcp']);
    // An UPSTREAMS_FILE naming only the Vertex upstream leaves every shipped route (upstream "default") unserved.
    const onlyGcp = routesOnUnknownUpstreams(loaded, new Set(['gcp']));
    expect(onlyGcp).to.have.length(2 + 3 * 5);
    expect(onlyGcp[0]).to.equal('alpha-sonnet-4-6/uk[0]: default');
    expect(onlyGcp).to.not.include('alpha-sonnet-5/eu[3]: gcp');
  });

  it('refuses a catalogue whose route would leave its tier', function () {
    const bad: Catalogue = {
      tiers: { uk: { label: 'UK', regions: ['eu-west-2'] }, eu: { label: 'EU', regions: ['eu-central-1'] } },
      models: [
        {
          id: 'm', display_name: 'M', created_at: '', context_window: 1, max_output_tokens: 1, supports_vision: false,
          best_tier: 'uk', pricing_gbp_per_million: { input: '1', output: '1', cache_write: '1.25', cache_read: '0.1' },
          routes: { uk: [{ upstream: 'default', upstream_model: 'x', call_region: 'eu-west-2', processing_regions: ['eu-west-2', 'eu-central-1'] }] },
        },
      ],
    };
    expect(() => new ModelCatalogue(bad)).to.throw(/eu-central-1 outside the tier/);
  });
});
