// `npm run test:faults`: the gateway under steady load from the official SDK while faults are injected one
// after another: Redis stopped and restarted, Redis flushed, the policy service killed and restarted, a proxy
// killed mid-stream, the upstream resetting, stalling, erroring mid-stream and truncating its streams, and
// clients disconnecting at random points. After the run it counts and asserts: every refusal vendor-shaped; every
// completed request metered exactly once with the upstream's usage; no request that reached the upstream left
// unmetered (but those in flight on the proxy that was killed, which are counted and reported); no lease leaked.
// Bounded: about two minutes. Not part of `npm test` (it is long and loads the machine); see docs/reliability.md.
import { expect } from 'chai';
import Anthropic from '@anthropic-ai/sdk';
import { execFileSync } from 'node:child_process';
import { RedisServerProcess } from '@gateway/policy/test-support/redis';
import { startMessagesFake, type MessagesFake } from '../fakes/index.js';
import { TestGateway, createKey, type CreatedKey } from '../harness/gateway.js';
import { readLedger, waitForLedger, type LedgerRow } from '../harness/ledger.js';
import { sleep } from '../harness/clock.js';

const USAGE = { input_tokens: 11, output_tokens: 7 };
const WORKERS = 10;
const LEASE_TTL_MS = 3_000;
const CONTRACT_STATUSES = new Set([400, 401, 402, 403, 404, 405, 413, 429, 500, 502, 503, 504, 529]);

interface Attempt {
  n: number;
  phase: string;
  proxy: number;
  stream: boolean;
  requestId: string | undefined;
  /** ok: the whole answer arrived; refused: an HTTP error; cut: an error event or a dropped stream; aborted: by the client */
  result: 'ok' | 'refused' | 'cut' | 'aborted';
  status?: number;
  vendorShaped: boolean;
}

describe('fault suite: faults under load, then what was lost', function () {
  this.timeout(600_000);
  let redis: RedisServerProcess;
  let fake: MessagesFake;
  let gw: TestGateway;
  let key: CreatedKey;
  const attempts: Attempt[] = [];
  const summary: Array<{ fault: string; requests: number; ok: number; refused: Record<string, number>; cut: number; aborted: number }> = [];
  let phase = 'baseline';
  let killedProxy = -1;
  let lostWithProxy = 0;

  before(async function () {
    redis = await RedisServerProcess.start();
    fake = await startMessagesFake({ apiKey: 'up' });
    fake.setBehaviour({ usage: USAGE, latencyMs: 15, gapMs: 3 });
    gw = await new TestGateway({
      redis: { url: redis.url, keyPrefix: 'gw:' },
      proxies: 2,
      // One attempt per request: the suite counts upstream calls against ledger rows one for one (failover, where
      // one request may call several routes, is failover.test.ts's).
      env: { UPSTREAM_URL: `${fake.url}/{region}/v1`, UPSTREAM_API_KEY: 'up', LEASE_TTL_MS: String(LEASE_TTL_MS), UPSTREAM_TIMEOUT_MS: '2000', UPSTREAM_MAX_ATTEMPTS: '1' },
    }).start();
    key = await createKey(gw, { env: 'live', plan: { name: 'faults', rpm: 1_000_000, concurrency: 200, allowance: 1_000_000_000 } });
  });
  after(async () => {
    await gw?.stop();
    await fake?.close();
    await redis?.stop();
  });

  /** One SDK request (streamed or not, sometimes cut by the client); what the client saw. */
  async function attempt(n: number, proxy: number): Promise<Attempt> {
    const client = new Anthropic({ apiKey: key.key, baseURL: `http://127.0.0.1:${gw.ports[proxy]}`, maxRetries: 0, timeout: 15_000 });
    const stream = n % 2 === 0;
    const abortAfter = n % 9 === 0 ? 5 + (n % 40) : undefined;
    const controller = new AbortController();
    if (abortAfter !== undefined) setTimeout(() => controller.abort(), abortAfter).unref();
    const a: Attempt = { n, phase, proxy, stream, requestId: undefined, result: 'ok', vendorShaped: true };
    const params = { model: 'alpha-sonnet-5', max_tokens: 64, messages: [{ role: 'user' as const, content: `fault-run request ${n}` }] };
    try {
      if (stream) {
        const s = client.messages.stream(params, { signal: controller.signal });
        s.on('connect', () => undefined);
        const { response } = await s.withResponse();
        a.requestId = response.headers.get('request-id') ?? undefined;
        await s.finalMessage();
      } else {
        const { response } = await client.messages.create(params, { signal: controller.signal }).withResponse();
        a.requestId = response.headers.get('request-id') ?? undefined;
      }
    } catch (err) {
      if (controller.signal.aborted || err instanceof Anthropic.APIUserAbortError) a.result = 'aborted';
      else if (err instanceof Anthropic.APIConnectionError) {
        // The connection dropped: only the proxy that was killed may do that.
        a.result = 'cut';
        a.vendorShaped = a.proxy === killedProxy;
      } else if (err instanceof Anthropic.APIError && err.status !== undefined) {
        a.result = 'refused';
        a.status = err.status;
        a.requestId ??= err.requestID ?? undefined;
        const body = err.error as { type?: unknown; error?: { type?: unknown; message?: unknown } } | undefined;
        a.vendorShaped = CONTRACT_STATUSES.has(err.status) && body?.type === 'error' && typeof body.error?.type === 'string'
          && typeof body.error.message === 'string' && typeof err.requestID === 'string';
      } else if (err instanceof Anthropic.APIError) {
        // An `event: error` in the stream: the vendor's error event, surfaced with no status.
        a.result = 'cut';
        const body = err.error as { type?: unknown; error?: { type?: unknown } } | undefined;
        a.vendorShaped = body?.type === 'error' && typeof body.error?.type === 'string';
      } else {
        // The connection dropped (the proxy that served it was killed).
        a.result = 'cut';
        a.vendorShaped = a.proxy === killedProxy;
      }
    }
    return a;
  }

  /** Load from WORKERS closed-loop clients over both proxies (only the live one after a kill) until `stop()`. */
  function load(): { stop: () => Promise<void> } {
    let running = true;
    let n = attempts.length * 10;
    const workers = Array.from({ length: WORKERS }, async (_, w) => {
      while (running) {
        const proxy = killedProxy === -1 ? w % 2 : 0;
        const a = await attempt((n += 1), proxy);
        attempts.push(a);
        if (a.result !== 'ok') await sleep(20);
      }
    });
    return { stop: async () => { running = false; await Promise.all(workers); } };
  }

  async function fault(name: string, inject: () => Promise<void>, settleMs = 2_500): Promise<void> {
    phase = name;
    const from = attempts.length;
    const l = load();
    await sleep(1_500);
    await inject();
    await sleep(settleMs);
    await l.stop();
    const mine = attempts.slice(from);
    const refused: Record<string, number> = {};
    for (const a of mine.filter((x) => x.result === 'refused')) refused[String(a.status)] = (refused[String(a.status)] ?? 0) + 1;
    summary.push({ fault: name, requests: mine.length, ok: mine.filter((a) => a.result === 'ok').length, refused,
      cut: mine.filter((a) => a.result === 'cut').length, aborted: mine.filter((a) => a.result === 'aborted').length });
  }

  it('runs the faults one after another under load', async function () {
    await fault('baseline', async () => undefined);
    await fault('redis stopped for 2 s, then restarted', async () => {
      const port = Number(new URL(redis.url).port);
      await redis.stop();
      await sleep(2_000);
      redis = await RedisServerProcess.start({ port });
    }, 3_000);
    await fault('redis FLUSHALL', async () => {
      execFileSync('redis-cli', ['-p', new URL(redis.url).port, 'FLUSHALL']);
    });
    await fault('policy service killed, restarted after 1.5 s', async () => {
      await gw.policy.stop('SIGKILL');
      await sleep(1_500);
      await gw.startPolicy(gw.policyPort);
    }, 3_000);
    await fault('upstream resets mid-stream', async () => fake.setBehaviour({ usage: USAGE, latencyMs: 15, gapMs: 3, dropAfterDeltas: 1 }));
    await fault('upstream stalls mid-stream', async () => fake.setBehaviour({ usage: USAGE, latencyMs: 15, gapMs: 3, hangAfterDeltas: 1 }), 4_000);
    await fault('upstream errors mid-stream', async () => fake.setBehaviour({ usage: USAGE, latencyMs: 15, gapMs: 3, errorMidStream: { afterDeltas: 1, type: 'overloaded_error', message: 'Overloaded' } }));
    await fault('upstream refuses (529)', async () => fake.setBehaviour({ errorBefore: { status: 529, type: 'overloaded_error' } }));
    fake.setBehaviour({ usage: USAGE, latencyMs: 15, gapMs: 3 });
    await fault('a proxy killed mid-stream', async () => {
      const before = attempts.length;
      killedProxy = 1;
      await gw.proxiesRunning[1]!.stop('SIGKILL');
      // What the killed proxy had in flight is what it can lose: requests it served that never finished.
      await sleep(500);
      lostWithProxy = attempts.slice(before).filter((a) => a.proxy === 1 && a.result === 'cut').length;
    });
    process.stdout.write(`\n${'fault'.padEnd(44)} requests   ok  refused (by status)        cut  aborted\n`);
    for (const s of summary) {
      process.stdout.write(`${s.fault.padEnd(44)} ${String(s.requests).padStart(8)} ${String(s.ok).padStart(4)}  ${JSON.stringify(s.refused).padEnd(24)} ${String(s.cut).padStart(4)} ${String(s.aborted).padStart(7)}\n`);
    }
    expect(summary.every((s) => s.requests > 0)).to.equal(true);
    expect(summary[0]!.ok).to.be.greaterThan(20);
  });

  it('every refusal and every stream error was vendor-shaped', function () {
    const bad = attempts.filter((a) => !a.vendorShaped);
    expect(bad.map((a) => `${a.phase}: ${a.result} ${a.status ?? ''}`)).to.deep.equal([]);
    // Failing closed: while the policy service or Redis was away, refusals were 503s, never admissions of a kind
    // the gateway could not meter.
    for (const s of summary.filter((x) => /redis stopped|policy service killed/.test(x.fault))) {
      expect(Object.keys(s.refused).every((status) => status === '503'), s.fault).to.equal(true);
    }
  });

  it('every completed request is metered exactly once, with the usage the upstream reported', async function () {
    const ok = attempts.filter((a) => a.result === 'ok');
    const rows = await waitForLedger(gw, (r) => ok.every((a) => r.some((x) => x.request_id === a.requestId)), 30_000);
    const byId = new Map<string, LedgerRow[]>();
    for (const r of rows.filter((x) => x.key_id === key.id)) byId.set(r.request_id, [...(byId.get(r.request_id) ?? []), r]);
    for (const rs of byId.values()) expect(rs).to.have.length(1);
    for (const a of ok) {
      const row = byId.get(a.requestId ?? '')?.[0];
      expect(row, `${a.phase}: request ${a.requestId}`).to.not.equal(undefined);
      expect({ input: row!.input_tokens, output: row!.output_tokens }).to.deep.equal({ input: USAGE.input_tokens, output: USAGE.output_tokens });
    }
  });

  it('no request that reached the upstream is left unmetered, but those lost with the killed proxy', async function () {
    await sleep(2_000);
    const upstream = fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/v1/messages')).length;
    const rows = await readLedger(gw, 'key_id = ?', key.id);
    process.stdout.write(`\nupstream requests ${upstream}, ledger rows ${rows.length}, lost with the killed proxy at most ${lostWithProxy}\n`);
    expect(rows.length).to.be.at.least(upstream - lostWithProxy);
    // Admitted requests that never reached the upstream (the client left first) are in the ledger with zero usage;
    // nothing else is billed.
    expect(rows.filter((r) => r.input_tokens > 0).length).to.be.at.most(upstream);
    // Tokens in the ledger never exceed what the upstream can have reported.
    const output = rows.reduce((n, r) => n + r.output_tokens, 0);
    expect(output).to.be.at.most(upstream * USAGE.output_tokens);
  });

  it('no lease is leaked once leases of cut requests have had time to expire', async function () {
    await sleep(LEASE_TTL_MS + 1_000);
    const port = new URL(redis.url).port;
    const keys = execFileSync('redis-cli', ['-p', port, '--scan', '--pattern', 'gw:*lease*']).toString().split('\n').filter((k) => k !== '');
    const now = Date.now();
    let held = 0;
    for (const k of keys) held += Number(execFileSync('redis-cli', ['-p', port, 'ZCOUNT', k, String(now), '+inf']).toString().trim());
    expect(held).to.equal(0);
  });
});
