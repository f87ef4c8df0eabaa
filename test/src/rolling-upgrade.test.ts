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
import { TestGateway, createKey, startService, type ServiceProcess } from './harness/gateway.js';
import { waitForLedger } from './harness/ledger.js';
import { previousRelease } from './upgrade/previous-release.js';

const hello = { model: 'alpha-sonnet-5', max_tokens: 16, messages: [{ role: 'user' as const, content: 'hello' }] };

describe('rolling upgrade from the previous release: mixed versions under load', function () {
  this.timeout(300_000);
  let redis: RedisServerProcess;
  let fake: MessagesFake;
  let gw: TestGateway;
  const others: ServiceProcess[] = [];

  before(async function () {
    const previous = previousRelease();
    redis = await RedisServerProcess.start();
    const upstream = await startBilledUpstream();
    fake = upstream.fake;
    // The new policy service and a new proxy in front of it (ports[0]), on SQLite: the previous release's policy
    // service shares its database, and it knows no other engine.
    gw = await new TestGateway({ redis: { url: redis.url, keyPrefix: 'gw:' }, env: upstream.env, database: 'sqlite' }).start();
    const start = async (name: string, script: string, policyAddr: string, ready: string): Promise<number> => {
      const p = startService(name, script, { ...gw.env, POLICY_ADDR: policyAddr });
      others.push(p);
      return (await p.waitFor((l) => l.msg === ready))['port'] as number;
    };
    // The previous release's policy service on the same database and Redis.
    const oldPolicy = await start('policy-previous', join(previous.root, 'policy/dist/src/main.js'), '127.0.0.1:0', 'policy service listening');
    // ports[1]: the previous proxy → the new policy service; ports[2]: a new proxy → the previous policy service.
    gw.ports.push(await start('proxy-previous', join(previous.root, 'proxy/dist/src/main.js'), `127.0.0.1:${gw.policyPort}`, 'proxy listening'));
    gw.ports.push(await start('proxy-new', 'proxy/dist/src/main.js', `127.0.0.1:${oldPolicy}`, 'proxy listening'));
  });
  after(async () => {
    for (const p of others) await p.stop();
    await gw?.stop();
    await fake?.close();
    await redis?.dispose();
  });

  it('serves every request through both mixed pairs, and the allowance counter equals the ledger', async function () {
    const k = await createKey(gw, { env: 'live', plan: { name: 'upgrade', allowance: 10_000_000, concurrency: 20, rpm: 100_000 } });
    const statuses: number[] = [];
    const viaPreviousProxy: string[] = [];
    // Four clients, each sending one request after another, alternating between the two mixed pairs, half streamed.
    await Promise.all(
      [0, 1, 2, 3].map(async (client) => {
        for (let i = 0; i < 40; i += 1) {
          const stream = (i + client) % 2 === 1;
          const pair = 1 + ((i + client) % 2);
          const r = await fetch(gw.url('/v1/messages', pair), {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': k.key },
            body: JSON.stringify({ ...hello, ...(stream ? { stream: true } : {}) }),
          });
          const text = await r.text();
          if (pair === 1) viaPreviousProxy.push(r.headers.get('request-id') as string);
          statuses.push(r.status === 200 && stream && !text.includes('event: message_stop') ? -1 : r.status);
        }
      }),
    );
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
});

describe('moving up to replicas on PostgreSQL: the previous release\'s proxies against new replicas, then new proxies', function () {
  this.timeout(300_000);
  let redis: RedisServerProcess;
  let fake: MessagesFake;
  let gw: TestGateway;
  const others: ServiceProcess[] = [];

  before(async function () {
    const previous = previousRelease();
    redis = await RedisServerProcess.start();
    const upstream = await startBilledUpstream();
    fake = upstream.fake;
    // Two new replicas on PostgreSQL and Redis; no proxy of the new release yet.
    gw = await new TestGateway({ redis: { url: redis.url, keyPrefix: 'gw:' }, env: upstream.env, database: 'postgres', proxies: 0 }).start();
    const second = startService('policy-2', 'policy/dist/src/main.js', { ...gw.env, POLICY_ADDR: '127.0.0.1:0' });
    others.push(second);
    const secondPort = (await second.waitFor((l) => l.msg === 'policy service listening'))['port'] as number;
    // The previous release's proxies, one per replica (it dials one address).
    for (const port of [gw.policyPort, secondPort]) {
      const p = startService('proxy-previous', join(previous.root, 'proxy/dist/src/main.js'), { ...gw.env, POLICY_ADDR: `127.0.0.1:${port}` });
      others.push(p);
      gw.ports.push((await p.waitFor((l) => l.msg === 'proxy listening'))['port'] as number);
    }
    // Then new proxies over both replicas.
    const p = startService('proxy-new', 'proxy/dist/src/main.js', { ...gw.env, POLICY_TARGET: `127.0.0.1:${gw.policyPort},127.0.0.1:${secondPort}` });
    others.push(p);
    gw.ports.push((await p.waitFor((l) => l.msg === 'proxy listening'))['port'] as number);
  });
  after(async () => {
    for (const p of others) await p.stop();
    await gw?.stop();
    await fake?.close();
    await redis?.dispose();
  });

  it('serves every request through old and new proxies alike, and counts each once in the shared ledger and counter', async function () {
    const k = await createKey(gw, { env: 'live', plan: { name: 'move-up', allowance: 10_000_000, concurrency: 20, rpm: 100_000 } });
    const statuses: number[] = [];
    // Clients move from the previous release's proxies (ports 0, 1) to the new one (port 2) halfway.
    await Promise.all(
      [0, 1, 2, 3].map(async (client) => {
        for (let i = 0; i < 30; i += 1) {
          const stream = (i + client) % 2 === 1;
          const port = i < 15 ? (i + client) % 2 : 2;
          const r = await fetch(gw.url('/v1/messages', port), {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': k.key },
            body: JSON.stringify({ ...hello, ...(stream ? { stream: true } : {}) }),
          });
          const text = await r.text();
          statuses.push(r.status === 200 && stream && !text.includes('event: message_stop') ? -1 : r.status);
        }
      }),
    );
    expect(statuses.filter((s) => s !== 200), 'every request served in full').to.deep.equal([]);
    const rows = (await waitForLedger(gw, (all) => all.filter((x) => x.key_id === k.id).length === 120)).filter((x) => x.key_id === k.id);
    expect(rows.reduce((n, x) => n + x.billable_units, 0)).to.equal(120 * UNITS);
    const usage = await fetch(gw.url('/v1/usage', 2), { headers: { 'x-api-key': k.key } });
    expect(((await usage.json()) as { tokens: { used: number } }).tokens.used).to.equal(120 * UNITS);
  });
});
