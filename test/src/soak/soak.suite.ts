import { expect } from 'chai';
import { Agent, request } from 'node:http';
import { readFile } from 'node:fs/promises';
import { Redis } from 'ioredis';
import { startTestRedis, type TestRedis } from '@gateway/policy/test-support/redis';
import { startMessagesFake, type MessagesFake } from '../fakes/index.js';
import { TestGateway, createKey, type CreatedKey } from '../harness/gateway.js';
import { readLedger } from '../harness/ledger.js';

// The soak run (issue 10 item 6): a few thousand concurrent slow streams held through a real proxy, policy
// service and Redis for a few minutes, the proxy's resident memory sampled throughout. Asserts memory flat after
// the ramp, every stream served and metered, and no lease left behind; reports RSS per stream.
// `npm run test:soak`; size and length from the environment (defaults below). Not part of `npm test`.
const STREAMS = Number(process.env['SOAK_STREAMS'] ?? 3_000);
/** from the first stream opened to the last stream's end */
const SECONDS = Number(process.env['SOAK_SECONDS'] ?? 120);
/** time between two events of one stream (the upstream is slow; the gateway holds the stream open) */
const GAP_MS = Number(process.env['SOAK_GAP_MS'] ?? 5_000);
const SAMPLE_MS = Number(process.env['SOAK_SAMPLE_MS'] ?? 3_000);
/** streams opened per ramp step, and the pause between steps */
const RAMP_BATCH = Number(process.env['SOAK_RAMP_BATCH'] ?? 100);
const RAMP_PAUSE_MS = Number(process.env['SOAK_RAMP_PAUSE_MS'] ?? 250);
/** after the last stream got its headers, memory settles for this long before the hold window starts */
const SETTLE_MS = Number(process.env['SOAK_SETTLE_MS'] ?? 10_000);
const LEASE_TTL_MS = 6_000;
/** what every stream reports (the fake's usage), so the ledger can be checked to the token */
const USAGE = { input_tokens: 17, output_tokens: 29, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
const MiB = 1024 * 1024;

interface Sample {
  atMs: number;
  /** RSS as sampled, then RSS and V8 heap in use right after a full GC */
  rawRss: number;
  rss: number;
  heapUsed: number;
  open: number;
}

/**
 * The proxy's inspector (NODE_OPTIONS=--inspect=127.0.0.1:0, in the test's env only): a full GC before each
 * sample, so that the trend is what the streams hold and not where V8 happens to be in its collection cycle.
 */
class Inspector {
  private nextId = 1;
  private readonly pending = new Map<number, (result: Record<string, unknown>) => void>();
  private constructor(private readonly ws: WebSocket) {
    ws.addEventListener('message', (e: MessageEvent) => {
      const msg = JSON.parse(String(e.data)) as { id?: number; result?: Record<string, unknown> };
      if (msg.id !== undefined) this.pending.get(msg.id)?.(msg.result ?? {});
    });
  }

  static async connect(output: readonly string[]): Promise<Inspector> {
    const url = /ws:\/\/127\.0\.0\.1:\d+\/[\w-]+/.exec(output.join('\n'))?.[0];
    if (url === undefined) throw new Error('the proxy printed no inspector address');
    const ws = new WebSocket(url);
    await new Promise((resolve, reject) => {
      ws.addEventListener('open', resolve);
      ws.addEventListener('error', reject);
    });
    return new Inspector(ws);
  }

  call(method: string): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.ws.send(JSON.stringify({ id, method }));
    });
  }

  close(): void {
    this.ws.close();
  }
}

interface StreamResult {
  status: number;
  events: number;
  lastEvent: string;
  requestId: string | null;
  error?: string;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 'NaN') * 1024;
}

/** Least-squares slope (bytes per ms) of rss over time. */
function slope(samples: readonly Sample[]): number {
  const n = samples.length;
  const mx = samples.reduce((s, x) => s + x.atMs, 0) / n;
  const my = samples.reduce((s, x) => s + x.rss, 0) / n;
  let num = 0;
  let den = 0;
  for (const s of samples) {
    num += (s.atMs - mx) * (s.rss - my);
    den += (s.atMs - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/** Live (unexpired) members of this run's lease and reservation sets, and how many sets there are. */
async function liveLeases(redis: Redis, prefix: string): Promise<{ live: number; members: number }> {
  let live = 0;
  let members = 0;
  const now = Date.now();
  for (const pattern of [`${prefix}lease:*`, `${prefix}resv:*`]) {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        live += await redis.zcount(key, `(${now}`, '+inf');
        members += await redis.zcard(key);
      }
    } while (cursor !== '0');
  }
  return { live, members };
}

describe(`soak: ${STREAMS} concurrent slow streams for ${SECONDS} s`, function () {
  this.timeout((SECONDS + 180) * 1000);
  let redis: TestRedis;
  let fake: MessagesFake;
  let gw: TestGateway;
  let key: CreatedKey;
  let endAtMs = 0;

  before(async function () {
    redis = await startTestRedis();
    fake = await startMessagesFake({ apiKey: 'soak-upstream-key', maxRecorded: 100 });
    // Every stream ends at the same moment (endAtMs), whenever it was opened: one event every GAP_MS until then.
    fake.setBehaviour(() => {
      const deltas = Math.max(1, Math.floor((endAtMs - Date.now()) / GAP_MS) - 4);
      return { content: [{ type: 'text', text: 'x'.repeat(deltas * 12) }], chunkSize: 12, gapMs: GAP_MS, usage: USAGE };
    });
    gw = await new TestGateway({
      redis,
      env: {
        UPSTREAM_URL: `${fake.url}/{region}/v1`,
        UPSTREAM_API_KEY: 'soak-upstream-key',
        LEASE_TTL_MS: String(LEASE_TTL_MS),
        MAX_CONNECTIONS: String(STREAMS * 2 + 1_000),
        MAX_CONNECTIONS_PER_SOURCE: String(STREAMS * 2 + 1_000),
        NODE_OPTIONS: '--inspect=127.0.0.1:0',
      },
    }).start();
    key = await createKey(gw, { env: 'live', plan: { name: 'soak', concurrency: STREAMS + 100, rpm: STREAMS * 10, allowance: 1_000_000_000 } });
  });

  after(async () => {
    await gw?.stop();
    await fake?.close();
    await redis?.dispose();
  });

  it('holds every stream, keeps the proxy memory flat, meters every stream and leaks no lease', async function () {
    const proxyPid = gw.proxiesRunning[0]!.child.pid!;
    const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
    const body = JSON.stringify({ model: 'alpha-sonnet-5', max_tokens: 1024, stream: true, messages: [{ role: 'user', content: 'soak' }] });
    let open = 0;
    let headersSeen = 0;

    const stream = (): Promise<StreamResult> =>
      new Promise((resolveStream) => {
        const result: StreamResult = { status: 0, events: 0, lastEvent: '', requestId: null };
        const req = request(
          gw.url('/v1/messages'),
          { method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-api-key': key.key, 'anthropic-version': '2023-06-01' } },
          (res) => {
            result.status = res.statusCode ?? 0;
            result.requestId = (res.headers['request-id'] as string | undefined) ?? null;
            headersSeen += 1;
            open += 1;
            res.setEncoding('utf8');
            let tail = '';
            res.on('data', (chunk: string) => {
              // only event names are kept: the client side stays small
              tail += chunk;
              const lines = tail.split('\n');
              tail = lines.pop() ?? '';
              for (const line of lines) {
                if (line.startsWith('event: ')) {
                  result.events += 1;
                  result.lastEvent = line.slice(7);
                }
              }
            });
            res.on('end', () => {
              open -= 1;
              resolveStream(result);
            });
            res.on('error', (err) => {
              open -= 1;
              resolveStream({ ...result, error: err.message });
            });
          },
        );
        req.on('error', (err) => resolveStream({ ...result, error: err.message }));
        req.end(body);
      });

    const inspector = await Inspector.connect(gw.proxiesRunning[0]!.output);
    const measure = async (): Promise<Omit<Sample, 'atMs' | 'open'>> => {
      const rawRss = await rssOf(proxyPid);
      await inspector.call('HeapProfiler.collectGarbage');
      const heap = await inspector.call('Runtime.getHeapUsage');
      return { rawRss, rss: await rssOf(proxyPid), heapUsed: Number(heap['usedSize']) };
    };
    const baseline = (await measure()).rss;
    const t0 = Date.now();
    endAtMs = t0 + SECONDS * 1000;
    const samples: Sample[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const atMs = Date.now() - t0;
        samples.push({ atMs, open, ...(await measure()) });
        await sleep(SAMPLE_MS);
      }
    })();

    const results: Array<Promise<StreamResult>> = [];
    for (let i = 0; i < STREAMS; i += RAMP_BATCH) {
      for (let j = i; j < Math.min(STREAMS, i + RAMP_BATCH); j += 1) results.push(stream());
      await sleep(RAMP_PAUSE_MS);
    }
    while (headersSeen < STREAMS && Date.now() < endAtMs) await sleep(100);
    const allOpenMs = Date.now() - t0;
    const done = await Promise.all(results);
    const lastEndMs = Date.now() - t0;
    sampling = false;
    await sampler;
    agent.destroy();
    inspector.close();

    // Leases: released (not merely expired) soon after the last stream, and none live after the lease TTL.
    const client = new Redis(redis.url);
    let released = { live: 0, members: 0 };
    let afterTtl = { live: 0, members: 0 };
    try {
      const releaseDeadline = Date.now() + 2_000;
      do {
        released = await liveLeases(client, redis.keyPrefix);
        if (released.members === 0) break;
        await sleep(100);
      } while (Date.now() < releaseDeadline);
      await sleep(LEASE_TTL_MS + 1_000);
      afterTtl = await liveLeases(client, redis.keyPrefix);
    } finally {
      client.disconnect();
    }

    // Metering: one ledger row per served stream, tokens exactly the upstream's.
    const served = done.filter((r) => r.status === 200);
    const ids = new Set(served.map((r) => r.requestId));
    const deadline = Date.now() + 30_000;
    let rows = (await readLedger(gw)).filter((r) => ids.has(r.request_id));
    while (rows.length < served.length && Date.now() < deadline) {
      await sleep(250);
      rows = (await readLedger(gw)).filter((r) => ids.has(r.request_id));
    }
    const ledgerIn = rows.reduce((s, r) => s + r.input_tokens, 0);
    const ledgerOut = rows.reduce((s, r) => s + r.output_tokens, 0);

    // Memory: the hold window runs from SETTLE_MS after the last stream opened to three gaps before they end.
    const hold = samples.filter((s) => s.atMs >= allOpenMs + SETTLE_MS && s.atMs <= SECONDS * 1000 - 3 * GAP_MS);
    const plateau = median(hold.map((s) => s.rss));
    const perStream = (plateau - baseline) / STREAMS;
    const holdSpanMs = hold.length > 1 ? hold[hold.length - 1]!.atMs - hold[0]!.atMs : 0;
    const growth = hold.length > 1 ? slope(hold) * holdSpanMs : NaN;
    const third = Math.max(1, Math.floor(hold.length / 3));
    const firstThird = median(hold.slice(0, third).map((s) => s.rss));
    const lastThird = median(hold.slice(-third).map((s) => s.rss));
    const growthLimit = Math.max(20 * MiB, 0.15 * (plateau - baseline));
    const failures = done.filter((r) => r.status !== 200 || r.error !== undefined || r.lastEvent !== 'message_stop');
    const byStatus = new Map<string, number>();
    for (const r of done) {
      const k = String(r.status) + (r.error === undefined ? '' : ' (error)');
      byStatus.set(k, (byStatus.get(k) ?? 0) + 1);
    }

    console.log(`\nsoak: ${STREAMS} streams, ${SECONDS} s, an event every ${GAP_MS} ms; all open after ${(allOpenMs / 1000).toFixed(1)} s, last end ${(lastEndMs / 1000).toFixed(1)} s`);
    console.table(
      samples.map((s) => ({
        t_s: Math.round(s.atMs / 1000),
        open: s.open,
        rss_mib: +(s.rawRss / MiB).toFixed(1),
        rss_after_gc_mib: +(s.rss / MiB).toFixed(1),
        heap_after_gc_mib: +(s.heapUsed / MiB).toFixed(1),
      })),
    );
    console.table([
      {
        streams: STREAMS,
        statuses: [...byStatus].map(([k, v]) => `${k}×${v}`).join(' '),
        complete: done.length - failures.length,
        baseline_mib: +(baseline / MiB).toFixed(1),
        plateau_mib: +(plateau / MiB).toFixed(1),
        peak_mib: +(Math.max(...samples.map((s) => s.rawRss)) / MiB).toFixed(1),
        heap_trend_mib: +((hold.length > 1 ? slope(hold.map((s) => ({ ...s, rss: s.heapUsed }))) * holdSpanMs : NaN) / MiB).toFixed(1),
        kb_per_stream: +(perStream / 1024).toFixed(1),
        hold_s: Math.round(holdSpanMs / 1000),
        hold_samples: hold.length,
        trend_mib: +(growth / MiB).toFixed(1),
        first_vs_last_third_mib: +((lastThird - firstThird) / MiB).toFixed(1),
        growth_limit_mib: +(growthLimit / MiB).toFixed(1),
        ledger_rows: rows.length,
        ledger_tokens: `${ledgerIn}/${ledgerOut}`,
        upstream_tokens: `${served.length * USAGE.input_tokens}/${served.length * USAGE.output_tokens}`,
        leases_after_2s: released.members,
        live_leases_after_ttl: afterTtl.live,
      },
    ]);

    expect(failures.slice(0, 5), `${failures.length} streams not served to message_stop`).to.deep.equal([]);
    expect(hold.length, 'too few samples in the hold window: lengthen SOAK_SECONDS').to.be.at.least(5);
    expect(growth, `proxy RSS grew ${(growth / MiB).toFixed(1)} MiB over the hold window`).to.be.below(growthLimit);
    expect(lastThird - firstThird).to.be.below(growthLimit);
    expect(rows.length, 'served streams without a ledger row').to.equal(served.length);
    expect([ledgerIn, ledgerOut]).to.deep.equal([served.length * USAGE.input_tokens, served.length * USAGE.output_tokens]);
    expect(released.members, 'leases still held 2 s after the last stream').to.equal(0);
    expect(afterTtl.live, 'live leases after the lease TTL').to.equal(0);
  });
});
