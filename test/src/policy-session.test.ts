import { expect } from 'chai';
import * as grpc from '@grpc/grpc-js';
import { policyServiceConstructor, SESSION_BATCH_METADATA, type SessionRequest, type SessionResponse } from '@gateway/shared';
import { startMessagesFake, type MessagesFake } from './fakes/index.js';
import { TestGateway, createKey, type CreatedKey } from './harness/gateway.js';
import { readLedger, waitForLedger } from './harness/ledger.js';
import { sleep } from './harness/clock.js';

// Decisions and usage reports travel on one long-lived stream per proxy. When it breaks, the decisions
// waiting on it fail closed (503), the proxy reopens it by itself, and the reports of requests that finished
// meanwhile are spooled and applied exactly once.
describe('the proxy↔policy decision stream under failure', function () {
  this.timeout(60_000);
  let fake: MessagesFake;
  let gw: TestGateway;
  let key: CreatedKey;

  before(async function () {
    fake = await startMessagesFake({ apiKey: 'up' });
    gw = await new TestGateway({ env: { UPSTREAM_URL: `${fake.url}/{region}/v1`, UPSTREAM_API_KEY: 'up' } }).start();
    key = await createKey(gw, { env: 'live', plan: { name: 'session-load', rpm: 100_000, concurrency: 100 } });
  });
  after(async () => {
    await gw?.stop();
    await fake?.close();
  });

  it('says it takes batches, and answers each message of a batch on its own, in order', async function () {
    const Client = policyServiceConstructor();
    const client = new Client(`127.0.0.1:${gw.policyPort}`, grpc.credentials.createInsecure());
    try {
      const stream = (client as unknown as { Session: () => grpc.ClientDuplexStream<SessionRequest, SessionResponse> }).Session();
      const header = new Promise<string | undefined>((resolve) => stream.once('metadata', (md: grpc.Metadata) => resolve(md.get(SESSION_BATCH_METADATA)[0]?.toString())));
      const answers: Array<[number, string]> = [];
      const three = new Promise<void>((resolve) => stream.on('data', (r: SessionResponse) => {
        answers.push([r.id, r.body ?? '']);
        if (answers.length === 3) resolve();
      }));
      // Messages with no body and a nested batch: each is refused at its own id, the batch itself gets no answer.
      const nested: SessionRequest = { id: 12, body: 'batch', batch: { requests: [] } };
      stream.write({ id: 0, body: 'batch', batch: { requests: [{ id: 10 }, { id: 11 }, nested] } } as SessionRequest);
      expect(await header).to.equal('1');
      await three;
      expect(answers).to.deep.equal([[10, 'fault'], [11, 'fault'], [12, 'fault']]);
      stream.end();
    } finally {
      client.close();
    }
  });

  it('fails waiting decisions closed, reconnects by itself, and applies reports made meanwhile exactly once', async function () {
    // Every upstream reply takes a while, so at any moment some requests are forwarded and some are deciding.
    fake.setBehaviour({ latencyMs: 40, usage: { input_tokens: 7, output_tokens: 5 } });
    const ok = new Set<string>();
    const refused: Array<{ status: number; type: string; retry: string | null }> = [];
    let stop = false;
    const worker = async (): Promise<void> => {
      while (!stop) {
        const r = await fetch(gw.url('/v1/messages'), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key.key },
          body: JSON.stringify({ model: 'alpha-sonnet-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
        });
        const body = (await r.json()) as { error?: { type: string } };
        if (r.status === 200) ok.add(r.headers.get('request-id') ?? '');
        else refused.push({ status: r.status, type: body.error?.type ?? '', retry: r.headers.get('x-should-retry') });
        if (r.status !== 200) await sleep(20);
      }
    };
    const workers = Array.from({ length: 16 }, () => worker());
    await sleep(700);
    const beforeKill = ok.size;
    await gw.policy.stop('SIGKILL');
    await sleep(500);
    const whileDown = refused.length;
    await gw.startPolicy(gw.policyPort);
    // The same proxy process, never restarted, serves again once it has reopened its stream.
    const deadline = Date.now() + 10_000;
    const afterRestart = ok.size;
    while (ok.size < afterRestart + 50 && Date.now() < deadline) await sleep(50);
    stop = true;
    await Promise.all(workers);

    expect(beforeKill, 'requests served before the kill').to.be.greaterThan(10);
    expect(whileDown, 'requests refused while the policy service was down').to.be.greaterThan(0);
    expect(ok.size, 'requests served after the restart').to.be.at.least(afterRestart + 50);
    // Every refusal was a fail-closed 503 the client may retry; nothing else went wrong.
    for (const r of refused) expect(r).to.deep.equal({ status: 503, type: 'api_error', retry: 'true' });

    // Every request that got a 200 is in the ledger exactly once, the spooled ones included, and nothing else is.
    const rows = await waitForLedger(gw, (all) => all.filter((x) => x.key_id === key.id).length >= ok.size, 20_000);
    const mine = rows.filter((x) => x.key_id === key.id).map((x) => x.request_id);
    expect(new Set(mine).size).to.equal(mine.length);
    expect(new Set(mine)).to.deep.equal(ok);
    // Replays keep coming on a timer; the ledger still holds each request once.
    await sleep(2_500);
    expect(await readLedger(gw, 'key_id = ?', key.id)).to.have.length(ok.size);
  });
});
