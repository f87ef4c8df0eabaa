/*
 * Several policy replicas behind two proxies (POLICY_TARGET, CONTRACT.md "Scale-out"), under steady mixed load: a
 * replica that is told to stop drains without a failed request, a replica that dies costs at most retryable 503s
 * and never an unmetered request or a leaked lease, and a rolling restart of every replica fails nothing.
 */
import { expect } from 'chai';
import { runGatewayctl } from '@gateway/policy';
import { RedisServerProcess } from '@gateway/policy/test-support/redis';
import { startMessagesFake, type MessagesFake } from './fakes/index.js';
import { TestGateway, createKey, startService, type CreatedKey, type ServiceProcess } from './harness/gateway.js';
import { waitForLedger } from './harness/ledger.js';
import { sleep } from './harness/clock.js';
import { redisCommand } from './harness/redis-command.js';

const hello = { model: 'alpha-sonnet-5', max_tokens: 16, messages: [{ role: 'user' as const, content: 'hello' }] };
const LEASE_TTL_MS = 3_000;

interface Answer {
  status: number;
  shouldRetry: string | null;
  complete: boolean;
}

describe('policy replicas: two proxies over three policy services (POLICY_TARGET), under steady load', function () {
  this.timeout(180_000);
  let redis: RedisServerProcess;
  let fake: MessagesFake;
  let gw: TestGateway;
  /** The three replicas, each on a port of its own that a restart reuses. */
  const replicas: Array<{ port: number; process: ServiceProcess }> = [];
  const proxies: ServiceProcess[] = [];
  let keys: CreatedKey[];

  const startReplica = async (port = 0): Promise<{ port: number; process: ServiceProcess }> => {
    const p = startService(`policy-${replicas.length}`, 'policy/dist/src/main.js', { ...gw.env, POLICY_ADDR: `127.0.0.1:${port}` });
    const ready = await p.waitFor((l) => l.msg === 'policy service listening');
    return { port: ready['port'] as number, process: p };
  };

  before(async function () {
    redis = await RedisServerProcess.start();
    fake = await startMessagesFake({ apiKey: 'up' });
    fake.setBehaviour({ usage: { input_tokens: 100, output_tokens: 50 }, gapMs: 2, chunkSize: 4 });
    // gw's own policy service is the first replica; two more share its database and Redis.
    gw = new TestGateway({
      redis: { url: redis.url, keyPrefix: 'gw:' },
      env: { UPSTREAM_URL: `${fake.url}/{region}/v1`, UPSTREAM_API_KEY: 'up', LEASE_TTL_MS: String(LEASE_TTL_MS), DRAIN_TIMEOUT_MS: '5000',
        // Reports wait in each replica's write window long enough for a flush and another replica's rebuild to fall
        // between a report's count and its commit.
        LEDGER_WINDOW_MS: '300' },
      proxies: 0,
    });
    await gw.start();
    replicas.push({ port: gw.policyPort, process: gw.policy });
    for (let i = 0; i < 2; i += 1) replicas.push(await startReplica());
    const target = replicas.map((r) => `127.0.0.1:${r.port}`).join(',');
    for (let i = 0; i < 2; i += 1) {
      const p = startService(`proxy-${i}`, 'proxy/dist/src/main.js', { ...gw.env, POLICY_TARGET: target });
      proxies.push(p);
      gw.ports.push((await p.waitFor((l) => l.msg === 'proxy listening'))['port'] as number);
    }
    keys = [];
    for (let i = 0; i < 6; i += 1) keys.push(await createKey(gw, { env: 'live', plan: { name: `rep-${i}`, concurrency: 20, rpm: 100_000 } }));
    await waitReady();
  });
  after(async () => {
    for (const p of proxies) await p.stop();
    for (const r of replicas.slice(1)) await r.process.stop();
    await gw?.stop();
    await fake?.close();
    await redis?.dispose();
  });

  /** Until both proxies say they can decide. */
  async function waitReady(): Promise<void> {
    for (let i = 0; i < 100; i += 1) {
      const statuses = await Promise.all([0, 1].map(async (p) => (await fetch(gw.url('/readyz', p))).status));
      if (statuses.every((s) => s === 200)) return;
      await sleep(100);
    }
    throw new Error('the proxies never became ready');
  }

  /** Six clients, each sending one request after another (half streamed) through both proxies until `stop`. */
  async function underLoad(during: () => Promise<void>): Promise<Answer[]> {
    const answers: Answer[] = [];
    let stop = false;
    const clients = [0, 1, 2, 3, 4, 5].map(async (c) => {
      for (let i = 0; !stop; i += 1) {
        const stream = (i + c) % 2 === 1;
        const key = keys[(i + c) % keys.length] as CreatedKey;
        const r = await fetch(gw.url('/v1/messages', (i + c) % 2), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key.key },
          body: JSON.stringify({ ...hello, ...(stream ? { stream: true } : {}) }),
        });
        const text = await r.text();
        answers.push({ status: r.status, shouldRetry: r.headers.get('x-should-retry'), complete: !stream || r.status !== 200 || text.includes('event: message_stop') });
      }
    });
    // Load before and after the fault is counted in answers, not in time: a loaded machine answers fewer per second.
    const answered = async (n: number): Promise<void> => {
      for (const until = Date.now() + 10_000; answers.length < n && Date.now() < until;) await sleep(20);
    };
    try {
      await sleep(500);
      await answered(30);
      await during();
      const atFault = answers.length;
      await sleep(500);
      await answered(atFault + 30);
    } finally {
      // Also when `during` throws: clients left running would load every later case.
      stop = true;
      await Promise.all(clients);
    }
    return answers;
  }

  const failures = (answers: Answer[]) => answers.filter((a) => a.status !== 200 || !a.complete);

  it('one replica told to stop (SIGTERM) drains: no request fails, and it exits well before its drain timeout', async function () {
    const victim = replicas[1] as { port: number; process: ServiceProcess };
    let exitedInMs = 0;
    const answers = await underLoad(async () => {
      const t0 = Date.now();
      await victim.process.stop('SIGTERM');
      exitedInMs = Date.now() - t0;
    });
    // Restarted before judging, so that a failure here leaves the later cases their three replicas.
    replicas[1] = await startReplica(victim.port);
    await waitReady();
    expect(answers.length).to.be.above(50);
    expect(failures(answers)).to.deep.equal([]);
    // The proxies moved their keys and ended their streams once idle: no wait for DRAIN_TIMEOUT_MS (5 s).
    expect(exitedInMs).to.be.below(4_000);
  });

  it('one replica killed (SIGKILL): every refusal a retryable 503, nothing served unmetered, no lease left after its TTL', async function () {
    const victim = replicas[2] as { port: number; process: ServiceProcess };
    const upstreamBefore = fake.requests.length;
    const answers = await underLoad(async () => {
      await victim.process.stop('SIGKILL');
    });
    for (const a of failures(answers)) expect(a, 'a refusal').to.deep.include({ status: 503, shouldRetry: 'true' });
    expect(answers.filter((a) => a.status === 200).length).to.be.above(50);
    // A decision lost with the dead replica is retried once, same attempt: one admission, one upstream call.
    expect(fake.requests.length - upstreamBefore, 'every served request called upstream once').to.equal(answers.filter((a) => a.status === 200).length);
    await sleep(LEASE_TTL_MS + 1_500);
    // No lease outlives its TTL: every lease set is empty of live members.
    const leaseKeys = (await redisCommand(redis.port, 'KEYS', 'gw:lease:*')).split('\r\n').filter((l) => l.startsWith('gw:lease:'));
    for (const k of leaseKeys) {
      expect(await redisCommand(redis.port, 'ZCOUNT', k, String(Date.now()), '+inf'), k).to.equal(':0\r\n');
    }
    replicas[2] = await startReplica(victim.port);
    await waitReady();
  });

  it('a rolling restart of all three replicas, one after another, fails nothing', async function () {
    const answers = await underLoad(async () => {
      for (let i = 0; i < replicas.length; i += 1) {
        const r = replicas[i] as { port: number; process: ServiceProcess };
        await r.process.stop('SIGTERM');
        const next = await startReplica(r.port);
        replicas[i] = next;
        if (i === 0) gw.policy = next.process;
        await waitReady();
        await sleep(300);
      }
    });
    expect(answers.length).to.be.above(50);
    expect(failures(answers)).to.deep.equal([]);
  });

  it('Redis flushed twice under load: nothing fails, and the counters are rebuilt to the ledger (checked below)', async function () {
    const answers = await underLoad(async () => {
      await redisCommand(redis.port, 'FLUSHALL');
      await sleep(400);
      await redisCommand(redis.port, 'FLUSHALL');
    });
    expect(answers.length).to.be.above(50);
    expect(failures(answers)).to.deep.equal([]);
  });

  it('counts every request served above exactly once: ledger = upstream calls, counters = ledger', async function () {
    const ids = new Set(keys.map((k) => k.id));
    const rows = await waitForLedger(gw, (all) => all.filter((r) => ids.has(r.key_id)).length >= fake.requests.length, 15_000);
    const mine = rows.filter((r) => ids.has(r.key_id));
    expect(mine.length).to.equal(fake.requests.length);
    const units = keys.map((k) => mine.filter((r) => r.key_id === k.id).reduce((n, r) => n + r.billable_units, 0));
    const usedNow = (): Promise<number[]> => Promise.all(keys.map(async (k) =>
      ((await (await fetch(gw.url('/v1/usage', 0), { headers: { 'x-api-key': k.key } })).json()) as { tokens: { used: number } }).tokens.used));
    // A report whose counter had just been flushed is counted after its ledger row is committed (its settle found no
    // counter; DecisionService.reconcile counts it then): the counters may trail a complete ledger by that one step,
    // and are read until they agree, for 10 s at most. A count lost for good still fails below.
    let used = await usedNow();
    for (const deadline = Date.now() + 10_000; used.some((u, i) => u !== units[i]) && Date.now() < deadline;) {
      await sleep(200);
      used = await usedNow();
    }
    keys.forEach((k, i) => expect(used[i], k.id).to.equal(units[i]));
  });
});

describe('proxy readiness follows its decision stream', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  before(async () => {
    gw = await new TestGateway().start();
  });
  after(async () => gw?.stop());

  it('after a policy restart, /readyz turns 200 only once a decision can be made: the first request after it is served', async function () {
    const k = await createKey(gw, { env: 'test' });
    for (let round = 0; round < 3; round += 1) {
      await gw.policy.stop('SIGKILL');
      await gw.startPolicy(gw.policyPort);
      let ready = 0;
      for (let i = 0; i < 500 && ready !== 200; i += 1) {
        ready = (await fetch(gw.url('/readyz'))).status;
        if (ready !== 200) await sleep(5);
      }
      expect(ready).to.equal(200);
      const r = await fetch(gw.url('/v1/messages'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': k.key },
        body: JSON.stringify(hello),
      });
      expect(r.status, `round ${round}`).to.equal(200);
    }
  });
});

describe('a revocation made through one replica cuts a stream held through another', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let second: ServiceProcess;
  let secondAdminPort = 0;
  let proxyOnSecond: ServiceProcess;
  let proxyPort = 0;
  let redis: RedisServerProcess;

  before(async () => {
    redis = await RedisServerProcess.start();
    gw = await new TestGateway({ redis: { url: redis.url, keyPrefix: 'gw:' }, proxies: 0 }).start();
    second = startService('policy-2', 'policy/dist/src/main.js', { ...gw.env, POLICY_ADDR: '127.0.0.1:0' });
    const ready = await second.waitFor((l) => l.msg === 'policy service listening');
    secondAdminPort = ready['admin_port'] as number;
    // The proxy talks to the second replica only; the revocation goes through the first one's admin API.
    proxyOnSecond = startService('proxy', 'proxy/dist/src/main.js', { ...gw.env, POLICY_TARGET: `127.0.0.1:${ready['port'] as number}` });
    proxyPort = (await proxyOnSecond.waitFor((l) => l.msg === 'proxy listening'))['port'] as number;
  });
  after(async () => {
    await proxyOnSecond?.stop();
    await second?.stop();
    await gw?.stop();
    await redis?.dispose();
  });

  it('cuts the stream within 1 s of the admin API call made on the other replica', async function () {
    expect(secondAdminPort).to.be.above(0);
    let err = '';
    const created = await runGatewayctl(['admins', 'create', '--email', 'ops@example.com', '--password-stdin', '--json'], gw.ctlEnv, () => undefined, (s) => (err += s), async () => 'a long password here\n');
    expect(created, err).to.equal(0);
    const token = (await gw.ctl<{ token: string }>('admins', 'tokens', 'create', '--email', 'ops@example.com', '--name', 'ci')).token;
    const k = await createKey(gw, { env: 'test' });
    const res = await fetch(`http://127.0.0.1:${proxyPort}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': k.key, 'x-gateway-test-scenario': 'slow_stream' },
      body: JSON.stringify({ ...hello, stream: true }),
    });
    expect(res.status).to.equal(200);
    const text = res.text();
    await sleep(400);
    const revoked = await fetch(`http://127.0.0.1:${gw.adminPort}/admin/v1/keys/${k.id}/revoke`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(revoked.status).to.equal(200);
    const revokedAt = Date.now();
    const body = await text;
    expect(Date.now() - revokedAt).to.be.below(1_000);
    expect(body).to.contain('event: error').and.contain('authentication_error');
  });
});
