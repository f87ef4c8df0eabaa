/*
 * The policy service refuses to start on a catalogue whose routes could leave their tier (CONTRACT.md "Routes and
 * failover"): a route outside the tier's regions, a region the shipped table does not know, Vertex's `global`
 * location, a `global.` or `us.` model id. Each is tried alone, on the real process, beside a catalogue that differs
 * only by the fault and starts.
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestGateway } from './harness/gateway.js';
import { CATALOGUE_FILE } from './harness/residency.js';

type Route = Record<string, unknown>;
interface Catalogue {
  tiers: Record<string, { regions: string[] }>;
  models: Array<{ id: string; routes: Record<string, Route[]> }>;
}

/** The shipped catalogue with the eu tier widened to Vertex's Netherlands location and a Vertex route for sonnet. */
function withVertex(): Catalogue {
  const c = JSON.parse(readFileSync(CATALOGUE_FILE, 'utf8')) as Catalogue;
  c.tiers['eu']?.regions.push('europe-west4');
  const sonnet = c.models.find((m) => m.id === 'alpha-sonnet-5');
  sonnet?.routes['eu']?.push({ upstream: 'gcp', upstream_model: 'alpha-sonnet-5@20260930', call_region: 'europe-west4', processing_regions: ['europe-west4'] });
  return c;
}
const route = (c: Catalogue, model: string, tier: string, i: number): Route => c.models.find((m) => m.id === model)?.routes[tier]?.[i] as Route;

const faults: Array<{ name: string; change: (c: Catalogue) => void; says: RegExp }> = [
  { name: 'a uk route called in an eu region', change: (c) => (route(c, 'alpha-sonnet-4-6', 'uk', 0)['call_region'] = 'eu-west-1'), says: /uk\[0\]: call region eu-west-1 outside the tier/ },
  { name: 'an eu route processed in the UK', change: (c) => (route(c, 'alpha-sonnet-5', 'eu', 1)['processing_regions'] = ['eu-west-1', 'eu-west-2']), says: /eu\[1\]: processing region eu-west-2 outside the tier/ },
  { name: 'a region missing from the table', change: (c) => (route(c, 'alpha-sonnet-5', 'eu', 0)['processing_regions'] = ['eu-central-1', 'eu-east-9']), says: /region eu-east-9 is not in the region table/ },
  { name: 'a global. model id', change: (c) => (route(c, 'alpha-sonnet-5', 'eu', 0)['upstream_model'] = 'global.anthropic.alpha-sonnet-5-v1:0'), says: /global\.anthropic\.alpha-sonnet-5-v1:0 is a global or US model id/ },
  { name: 'a us. model id', change: (c) => (route(c, 'alpha-sonnet-5', 'eu', 2)['upstream_model'] = 'us.anthropic.alpha-sonnet-5-v1:0'), says: /us\.anthropic\.alpha-sonnet-5-v1:0 is a global or US model id/ },
  { name: 'Vertex\'s global location', change: (c) => (route(c, 'alpha-sonnet-5', 'eu', 3)['call_region'] = 'global'), says: /eu\[3\]: the global location is never inside a tier/ },
];

describe('catalogues that would leave the tier are refused at start (the real policy process)', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-catalogue-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const start = async (c: Catalogue, name: string): Promise<string> => {
    const file = join(dir, `${name.replace(/\W+/g, '-')}.json`);
    writeFileSync(file, JSON.stringify(c));
    const gw = new TestGateway({ env: { CATALOGUE_FILE: file } });
    try {
      await gw.startPolicy();
      return '';
    } catch (err) {
      return String(err);
    } finally {
      await gw.stop();
    }
  };

  it('starts on the shipped catalogue widened with a Vertex route inside the tier', async function () {
    expect(await start(withVertex(), 'valid')).to.equal('');
  });

  it('warns at start, naming them, about routes whose upstream the configuration lacks (they are skipped)', async function () {
    const file = join(dir, 'with-vertex.json');
    writeFileSync(file, JSON.stringify(withVertex()));
    const warning = (l: Record<string, unknown>): boolean => l['level'] === 40 && String(l['msg']).startsWith('catalogue routes name upstreams that are not configured');
    // Without UPSTREAMS_FILE only "default" exists: the Vertex route on "gcp" is named.
    const alone = new TestGateway({ env: { CATALOGUE_FILE: file } });
    try {
      await alone.startPolicy();
      expect((alone.policy.lines.find(warning) as Record<string, unknown> | undefined)?.['routes']).to.deep.equal(['alpha-sonnet-5/eu[3]: gcp']);
    } finally {
      await alone.stop();
    }
    // With both upstreams named: no warning.
    writeFileSync(join(dir, 'upstreams.json'), JSON.stringify({ default: { platform: 'messages', url: 'http://127.0.0.1:9/v1' }, gcp: { platform: 'vertex', project: 'p' } }));
    const both = new TestGateway({ env: { CATALOGUE_FILE: file, UPSTREAMS_FILE: join(dir, 'upstreams.json') } });
    try {
      await both.startPolicy();
      expect(both.policy.lines.filter(warning)).to.deep.equal([]);
    } finally {
      await both.stop();
    }
  });

  for (const f of faults) {
    it(`refuses ${f.name}`, async function () {
      const c = withVertex();
      f.change(c);
      const failure = await start(c, f.name);
      expect(failure).to.match(/exited \(1\)/);
      expect(failure).to.match(f.says);
    });
  }
});
