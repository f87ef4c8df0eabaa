/*
 * Money exact at every instant (CONTRACT.md "Allowance and billing"): a request that has ended is counted for every
 * decision after it, with or without overage, exactly once per request id, through counter losses (a Redis flush, a
 * policy restart) and a policy service killed between a release and its ledger commit. Each request here is sent
 * after the previous response has been read to its end, with no sleep in between.
 */
import { expect } from 'chai';
import { RedisServerProcess } from '@gateway/policy/test-support/redis';
import type { MessagesFake } from './fakes/index.js';
import { startBilledUpstream, UNITS_PER_REQUEST as UNITS } from './harness/billed-upstream.js';
import { TEST_PROXY_WORKERS, TestGateway, createKey, startService, type CreatedKey, type ServiceProcess } from './harness/gateway.js';
import { readLedger, waitForLedger } from './harness/ledger.js';
import { sleep } from './harness/clock.js';
import { redisCommand } from './harness/redis-command.js';

const hello = { model: 'alpha-sonnet-5', max_tokens: 16, messages: [{ role: 'user' as const, content: 'hello' }] };

type Backend = 'in-process' | 'Redis';

/** One request; odd ones streamed. Resolves with the status once the whole answer has been read. */
async function call(gw: TestGateway, key: string, i: number, opts: { proxy?: number; maxTokens?: number } = {}): Promise<number> {
  const r = await fetch(gw.url('/v1/messages', opts.proxy ?? 0), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ ...hello, max_tokens: opts.maxTokens ?? hello.max_tokens, ...(i % 2 === 1 ? { stream: true } : {}) }),
  });
  const text = await r.text();
  // A stream that was admitted but failed would still say 200: the event stream must have ended normally.
  if (r.status === 200 && i % 2 === 1) expect(text).to.contain('event: message_stop');
  return r.status;
}

/** `n` requests back to back; 503s (the policy service restarting: nothing admitted) are retried, not counted. */
async function sequence(gw: TestGateway, key: string, n: number, opts: { proxy?: (i: number) => number; maxTokens?: number; first?: number } = {}): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = opts.first ?? 0; statuses.length < n; i += 1) {
    let status = await call(gw, key, i, { proxy: opts.proxy?.(i) ?? 0, maxTokens: opts.maxTokens });
    for (let tries = 0; status === 503 && tries < 100; tries += 1) {
      await sleep(50);
      status = await call(gw, key, i, { proxy: opts.proxy?.(i) ?? 0, maxTokens: opts.maxTokens });
    }
    statuses.push(status);
  }
  return statuses;
}

const times = (n: number, status: number): number[] => Array.from({ length: n }, () => status);

/**
 * With PROXY_WORKERS > 1 (GATEWAY_TEST_PROXY_WORKERS) a client's next connection may reach another worker, whose
 * decision stream is not the one its last report went on: the bound is then the across-proxy one (CONTRACT.md
 * "Processes and sockets"), at most one request past the allowance for each other worker. One process: exact.
 */
const PAST = (TEST_PROXY_WORKERS ?? 1) - 1;

/** Without overage: the first `n` served, then refusals only; past `n` by at most PAST. Returns how many were served. */
function expectAllowance(statuses: number[], n: number): number {
  const served = statuses.filter((s) => s === 200).length;
  expect(statuses.slice(0, n)).to.deep.equal(times(n, 200));
  expect(statuses.slice(served)).to.deep.equal(times(statuses.length - served, 402));
  expect(served - n, 'requests past the allowance').to.be.within(0, PAST);
  return served;
}

/**
 * With overage: exactly `n` served in one process. Across workers a finished request's reservation may still
 * stand (worst case above its real figure) when the next decision comes on another stream, so one fewer may fit
 * per other worker, never more: spend stays under the ceiling.
 */
function expectOverage(statuses: number[], n: number): number {
  if (PAST === 0) {
    expect(statuses).to.deep.equal([...times(n, 200), ...times(statuses.length - n, 402)]);
    return n;
  }
  const served = statuses.filter((s) => s === 200).length;
  expect(statuses.every((s) => s === 200 || s === 402)).to.equal(true);
  expect(n - served, 'requests short of what fits').to.be.within(0, PAST);
  return served;
}

async function usedNow(gw: TestGateway, key: string): Promise<number> {
  const r = await fetch(gw.url('/v1/usage'), { headers: { 'x-api-key': key } });
  return ((await r.json()) as { tokens: { used: number } }).tokens.used;
}

async function ledgerUnits(gw: TestGateway, k: CreatedKey, rows: number): Promise<number> {
  const found = await waitForLedger(gw, (all) => all.filter((x) => x.key_id === k.id).length >= rows);
  const mine = found.filter((x) => x.key_id === k.id);
  expect(mine, 'one ledger row per served request').to.have.length(rows);
  return mine.reduce((n, x) => n + x.billable_units, 0);
}

for (const backend of ['in-process', 'Redis'] as Backend[]) {
  describe(`money exact at every instant, ${backend} counters`, function () {
    this.timeout(120_000);
    let redis: RedisServerProcess | undefined;
    let fake: MessagesFake;
    let upstreamEnv: Record<string, string>;
    let gw: TestGateway;
    let n = 0;

    const gateway = (env: Record<string, string> = {}) =>
      new TestGateway({
        ...(redis === undefined ? {} : { redis: { url: redis.url, keyPrefix: `gw${(n += 1)}:` } }),
        env: { ...upstreamEnv, ...env },
      }).start();
    const liveKey = (g: TestGateway, plan: { allowance: number; overage?: boolean; ceiling?: number }) =>
      createKey(g, { env: 'live', plan: { name: `m-${Math.random().toString(36).slice(2, 10)}`, concurrency: 5, ...plan } });
    /** The policy service goes away and comes back on its port: the in-process counters are lost with it. */
    const restartPolicy = async (g: TestGateway, signal: NodeJS.Signals = 'SIGTERM') => {
      await g.policy.stop(signal);
      await g.startPolicy(g.policyPort);
    };
    /** What a counter loss looks like for this backend: Redis flushed as well, or the policy restarted. */
    const loseCounters = async (g: TestGateway) => {
      if (redis !== undefined) await redisCommand(redis.port, 'FLUSHALL');
      else await restartPolicy(g);
    };

    before(async function () {
      if (backend === 'Redis') redis = await RedisServerProcess.start();
      ({ fake, env: upstreamEnv } = await startBilledUpstream());
      gw = await gateway();
    });
    after(async () => {
      await gw?.stop();
      await fake?.close();
      await redis?.dispose();
    });

    it('without overage: an allowance of N requests serves exactly N of N+2, then 402; used = N × units', async function () {
      const N = 4;
      const k = await liveKey(gw, { allowance: N * UNITS });
      const served = expectAllowance(await sequence(gw, k.key, N + 2), N);
      expect(await usedNow(gw, k.key), 'used, at once').to.equal(served * UNITS);
      expect(await ledgerUnits(gw, k, served)).to.equal(served * UNITS);
    });

    it('with overage: served exactly while used + the worst case fits allowance + ceiling; never above it', async function () {
      // allowance 600 + ceiling 300; max_tokens 200: a worst case of 200 + 1.25 × the body's ~90 bytes (300-350).
      // Used after k requests is 150k: the fifth (600 + 300+) does not fit 900, the fourth (450 + 350) does.
      const k = await liveKey(gw, { allowance: 600, overage: true, ceiling: 300 });
      const served = expectOverage(await sequence(gw, k.key, 6, { maxTokens: 200 }), 4);
      expect(await usedNow(gw, k.key)).to.equal(served * 150);
      expect(await ledgerUnits(gw, k, served)).to.equal(served * 150);
    });

    it(`stays exact across a counter loss (${backend === 'Redis' ? 'FLUSHALL, then a policy restart' : 'policy restarts'}) mid-sequence, with and without overage`, async function () {
      const plain = await liveKey(gw, { allowance: 4 * UNITS });
      const over = await liveKey(gw, { allowance: 600, overage: true, ceiling: 300 });
      const statuses: Record<string, number[]> = { plain: [], over: [] };
      for (const [name, k] of [['plain', plain], ['over', over]] as const) statuses[name]!.push(...(await sequence(gw, k.key, 1, { maxTokens: 200 })));
      await loseCounters(gw);
      for (const [name, k] of [['plain', plain], ['over', over]] as const) statuses[name]!.push(...(await sequence(gw, k.key, 1, { maxTokens: 200, first: 1 })));
      await restartPolicy(gw);
      for (const [name, k] of [['plain', plain], ['over', over]] as const) statuses[name]!.push(...(await sequence(gw, k.key, 4, { maxTokens: 200, first: 2 })));
      const servedPlain = expectAllowance(statuses['plain'] ?? [], 4);
      const servedOver = expectOverage(statuses['over'] ?? [], 4);
      expect(await usedNow(gw, plain.key)).to.equal(servedPlain * 150);
      expect(await usedNow(gw, over.key)).to.equal(servedOver * 150);
      expect(await ledgerUnits(gw, plain, servedPlain)).to.equal(servedPlain * 150);
      expect(await ledgerUnits(gw, over, servedOver)).to.equal(servedOver * 150);
    });

    it('serves exactly 150 of 200 back-to-back requests on an allowance of 150 requests', async function () {
      const k = await liveKey(gw, { allowance: 150 * UNITS });
      const served = expectAllowance(await sequence(gw, k.key, 200), 150);
      expect(await usedNow(gw, k.key)).to.equal(served * UNITS);
    });

    it('counts each request once when the policy service is SIGKILLed between the releases and their ledger commit', async function () {
      // A long ledger window: the reports of the first three requests are counted at release, then wait for their
      // commit (and their acknowledgement) when the policy service dies.
      const slow = await gateway({ LEDGER_WINDOW_MS: '1500' });
      try {
        const k = await liveKey(slow, { allowance: 5 * UNITS });
        expect(await sequence(slow, k.key, 3)).to.deep.equal(times(3, 200));
        expect(await readLedger(slow, 'key_id = ?', k.id), 'nothing committed yet').to.have.length(0);
        await restartPolicy(slow, 'SIGKILL');
        // The proxy spooled the unacknowledged reports and replays them before its first new decision.
        const served = 3 + expectAllowance(await sequence(slow, k.key, 4, { first: 3 }), 2);
        expect(await ledgerUnits(slow, k, served)).to.equal(served * UNITS);
        expect(await usedNow(slow, k.key)).to.equal(served * UNITS);
        // Each row ends up marked counted (by the attempt or rebuild that counted it), a window after its commit.
        await waitForLedger(slow, (all) => all.filter((x) => x.key_id === k.id).every((x) => (x as { counted?: number }).counted !== 0));
      } finally {
        await slow.stop();
      }
    });
  });
}

describe('money exact across proxies: a client that moves to another proxy (and policy replica) after each response', function () {
  this.timeout(120_000);
  let redis: RedisServerProcess;
  let fake: MessagesFake;
  let gw: TestGateway;
  let second: ServiceProcess;
  let secondProxy: ServiceProcess;

  before(async function () {
    redis = await RedisServerProcess.start();
    const upstream = await startBilledUpstream();
    fake = upstream.fake;
    gw = await new TestGateway({ redis: { url: redis.url, keyPrefix: 'gw:' }, env: upstream.env }).start();
    second = startService('policy-2', 'policy/dist/src/main.js', { ...gw.env, POLICY_ADDR: '127.0.0.1:0' });
    const port = (await second.waitFor((l) => l.msg === 'policy service listening'))['port'] as number;
    secondProxy = startService('proxy-2', 'proxy/dist/src/main.js', { ...gw.env, POLICY_ADDR: `127.0.0.1:${port}` });
    gw.ports.push((await secondProxy.waitFor((l) => l.msg === 'proxy listening'))['port'] as number);
  });
  after(async () => {
    await secondProxy?.stop();
    await second?.stop();
    await gw?.stop();
    await fake?.close();
    await redis?.dispose();
  });

  it('admits at most one request past the allowance per move (docs/decisions.md), and meters every one it serves', async function () {
    const N = 6;
    for (let account = 0; account < 5; account += 1) {
      const k = await createKey(gw, { env: 'live', plan: { name: `move-${account}`, allowance: N * UNITS, concurrency: 5 } });
      // Every request moves: even ones to the first proxy and policy replica, odd ones to the second.
      const statuses = await sequence(gw, k.key, N + 4, { proxy: (i) => i % 2 });
      const served = statuses.filter((s) => s === 200).length;
      expect(statuses.slice(0, N)).to.deep.equal(times(N, 200));
      expect(statuses.slice(served)).to.deep.equal(times(N + 4 - served, 402));
      // (the first proxy as several workers: its next request may come on another of its streams too)
      expect(served - N, 'at most one past the allowance').to.be.within(0, 1 + PAST);
      expect(await ledgerUnits(gw, k, served)).to.equal(served * UNITS);
      expect(await usedNow(gw, k.key)).to.equal(served * UNITS);
    }
  });
});
