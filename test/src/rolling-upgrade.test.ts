/*
 * A rolling upgrade from the previous release (test/previous-release.json, built from this repository's history):
 * while both versions run, the previous release's proxy talks to the new policy service and the new proxy to the
 * previous policy service, both policy services count on one Redis and write one ledger (the new Redis scripts
 * beside the old ones), under steady mixed load. No request fails, and the counters equal the ledger exactly.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { RedisServerProcess } from '@gateway/policy/test-support/redis';
import type { MessagesFake } from './fakes/index.js';
import { startBilledUpstream, UNITS_PER_REQUEST as UNITS } from './harness/billed-upstream.js';
import { TestGateway, createKey, startService, type GatewayOptions, type ServiceProcess } from './harness/gateway.js';
import { waitForLedger } from './harness/ledger.js';
import { previousRelease } from './upgrade/previous-release.js';

const hello = { model: 'alpha-sonnet-5', max_tokens: 16, messages: [{ role: 'user' as const, content: 'hello' }] };

/**
 * What both describes run: a disposable Redis, the billed upstream, the new release's gateway on them, and the
 * services started beside it (the previous release's among them), all stopped together.
 */
class MixedVersions {
  redis!: RedisServerProcess;
  fake!: MessagesFake;
  gw!: TestGateway;
  private previousRoot = '';
  private readonly others: ServiceProcess[] = [];

  async start(options: Pick<GatewayOptions, 'database' | 'proxies'>): Promise<TestGateway> {
    this.previousRoot = previousRelease().root;
    this.redis = await RedisServerProcess.start();
    const upstream = await startBilledUpstream();
    this.fake = upstream.fake;
    this.gw = await new TestGateway({ redis: { url: this.redis.url, keyPrefix: 'gw:' }, env: upstream.env, ...options }).start();
    return this.gw;
  }

  /** A service beside the gateway, on its environment; resolves with the port it logs once `ready` is logged. */
  async service(name: string, script: string, env: Record<string, string>, ready: string): Promise<number> {
    const p = startService(name, script, { ...this.gw.env, ...env });
    this.others.push(p);
    return (await p.waitFor((l) => l.msg === ready))['port'] as number;
  }

  /** The previous release's build of a process (`proxy` or `policy`). */
  previousMain(component: 'proxy' | 'policy'): string {
    return join(this.previousRoot, `${component}/dist/src/main.js`);
  }

  async stop(): Promise<void> {
    for (const p of this.others) await p.stop();
    await this.gw?.stop();
    await this.fake?.close();
    await this.redis?.dispose();
  }
}

/**
 * Four clients, each sending `perClient` requests one after another, half of them streamed, each to the proxy
 * `portOf(client, i)` picks. Every status, a 200 stream that did not reach message_stop as -1; and the request
 * ids each proxy port answered.
 */
async function mixedLoad(gw: TestGateway, key: string, perClient: number, portOf: (client: number, i: number) => number) {
  const statuses: number[] = [];
  const idsByPort = new Map<number, string[]>();
  await Promise.all(
    [0, 1, 2, 3].map(async (client) => {
      for (let i = 0; i < perClient; i += 1) {
        const stream = (i + client) % 2 === 1;
        const port = portOf(client, i);
        const r = await fetch(gw.url('/v1/messages', port), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key },
          body: JSON.stringify({ ...hello, ...(stream ? { stream: true } : {}) }),
        });
        const text = await r.text();
        idsByPort.set(port, [...(idsByPort.get(port) ?? []), r.headers.get('request-id') as string]);
        statuses.push(r.status === 200 && stream && !text.includes('event: message_stop') ? -1 : r.status);
      }
    }),
  );
  return { statuses, idsByPort };
}

describe('rolling upgrade from the previous release: mixed versions under load', function () {
  this.timeout(300_000);
  const world = new MixedVersions();
  let gw: TestGateway;

  before(async function () {
    // The new policy service and a new proxy in front of it (ports[0]), on SQLite: the previous release's policy
    // service shares its database, and it knows no other engine.
    gw = await world.start({ database: 'sqlite' });
    // The previous release's policy service on the same database and Redis.
    const oldPolicy = await world.service('policy-previous', world.previousMain('policy'), { POLICY_ADDR: '127.0.0.1:0' }, 'policy service listening');
    // ports[1]: the previous proxy → the new policy service; ports[2]: a new proxy → the previous policy service.
    gw.ports.push(await world.service('proxy-previous', world.previousMain('proxy'), { POLICY_ADDR: `127.0.0.1:${gw.policyPort}` }, 'proxy listening'));
    gw.ports.push(await world.service('proxy-new', 'proxy/dist/src/main.js', { POLICY_ADDR: `127.0.0.1:${oldPolicy}` }, 'proxy listening'));
  });
  after(() => world.stop());

  it('serves every request through both mixed pairs, and the allowance counter equals the ledger', async function () {
    const k = await createKey(gw, { env: 'live', plan: { name: 'upgrade', allowance: 10_000_000, concurrency: 20, rpm: 100_000 } });
    // Each client alternates between the two mixed pairs.
    const { statuses, idsByPort } = await mixedLoad(gw, k.key, 40, (client, i) => 1 + ((i + client) % 2));
    const viaPreviousProxy = idsByPort.get(1) ?? [];
    expect(statuses.filter((s) => s !== 200), 'every request served in full').to.deep.equal([]);
    const rows = await waitForLedger(gw, (all) => all.filter((x) => x.key_id === k.id).length === 160);
    const mine = rows.filter((x) => x.key_id === k.id);
    expect(mine.reduce((n, x) => n + x.billable_units, 0)).to.equal(160 * UNITS);
    // The previous proxy's reports carry no route: the new policy service records them, residency columns null.
    const old = mine.filter((x) => viaPreviousProxy.includes(x.request_id));
    expect(old).to.have.length(80);
    for (const column of ['residency', 'call_region', 'processing_regions', 'regions_basis', 'evidence_sha256', 'evidence_at_ms'] as const) {
      expect(old.every((x) => x[column] === null), column).to.equal(true);
    }
    // The counter, read through the new pair: every request counted once, whichever version counted it.
    const deadline = Date.now() + 10_000;
    let used = 0;
    while (Date.now() < deadline) {
      used = ((await (await fetch(gw.url('/v1/usage', 0), { headers: { 'x-api-key': k.key } })).json()) as { tokens: { used: number } }).tokens.used;
      if (used === 160 * UNITS) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(used).to.equal(160 * UNITS);
  });

  it('uses the first route only where one side predates routes, and fails over only where both know them', async function () {
    const k = await createKey(gw, { env: 'live', plan: { name: 'upgrade-routes', concurrency: 20, rpm: 100_000 } });
    const fake = world.fake;
    const post = async (port: number) => {
      fake.reset();
      fake.setBehaviour((r) => (r.region === 'eu-central-1' ? { errorBefore: { status: 529 } } : { usage: { input_tokens: 100, output_tokens: 50 } }));
      const r = await fetch(gw.url('/v1/messages', port), {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': k.key }, body: JSON.stringify(hello),
      });
      await r.arrayBuffer();
      return { status: r.status, regions: fake.requests.map((x) => x.region) };
    };
    // Route 1 (eu-central-1) of alpha-sonnet-5 fails. The previous proxy reads the decision's one route (the new
    // policy service's first); the new proxy reads the previous policy service's one route: neither moves on.
    expect(await post(1), 'previous proxy → new policy service').to.deep.equal({ status: 529, regions: ['eu-central-1'] });
    expect(await post(2), 'new proxy → previous policy service').to.deep.equal({ status: 529, regions: ['eu-central-1'] });
    // The new pair has the tier's routes and moves on to route 2.
    expect(await post(0), 'new proxy → new policy service').to.deep.equal({ status: 200, regions: ['eu-central-1', 'eu-west-1'] });
    fake.reset();
    fake.setBehaviour({ usage: { input_tokens: 100, output_tokens: 50 } });
  });
});

describe('moving up to replicas on PostgreSQL: the previous release\'s proxies against new replicas, then new proxies', function () {
  this.timeout(300_000);
  const world = new MixedVersions();
  let gw: TestGateway;

  before(async function () {
    // Two new replicas on PostgreSQL and Redis; no proxy of the new release yet.
    gw = await world.start({ database: 'postgres', proxies: 0 });
    const secondPort = await world.service('policy-2', 'policy/dist/src/main.js', { POLICY_ADDR: '127.0.0.1:0' }, 'policy service listening');
    // The previous release's proxies, one per replica (it dials one address).
    for (const port of [gw.policyPort, secondPort]) {
      gw.ports.push(await world.service('proxy-previous', world.previousMain('proxy'), { POLICY_ADDR: `127.0.0.1:${port}` }, 'proxy listening'));
    }
    // Then new proxies over both replicas.
    gw.ports.push(await world.service('proxy-new', 'proxy/dist/src/main.js', { POLICY_TARGET: `127.0.0.1:${gw.policyPort},127.0.0.1:${secondPort}` }, 'proxy listening'));
  });
  after(() => world.stop());

  it('serves every request through old and new proxies alike, and counts each once in the shared ledger and counter', async function () {
    const k = await createKey(gw, { env: 'live', plan: { name: 'move-up', allowance: 10_000_000, concurrency: 20, rpm: 100_000 } });
    // Clients move from the previous release's proxies (ports 0, 1) to the new one (port 2) halfway.
    const { statuses } = await mixedLoad(gw, k.key, 30, (client, i) => (i < 15 ? (i + client) % 2 : 2));
    expect(statuses.filter((s) => s !== 200), 'every request served in full').to.deep.equal([]);
    const rows = (await waitForLedger(gw, (all) => all.filter((x) => x.key_id === k.id).length === 120)).filter((x) => x.key_id === k.id);
    expect(rows.reduce((n, x) => n + x.billable_units, 0)).to.equal(120 * UNITS);
    const usage = await fetch(gw.url('/v1/usage', 2), { headers: { 'x-api-key': k.key } });
    expect(((await usage.json()) as { tokens: { used: number } }).tokens.used).to.equal(120 * UNITS);
  });
});
