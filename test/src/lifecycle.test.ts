import { expect } from 'chai';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { protoPath } from 'grpc-health-check';
import { RedisServerProcess } from '@gateway/policy/test-support/redis';
import { REPO_ROOT, TestGateway, createKey } from './harness/gateway.js';
import { waitForLedger } from './harness/ledger.js';
import { sleep } from './harness/clock.js';
import { alive } from './harness/process-alive.js';

type HealthClient = grpc.Client & {
  Check(req: { service: string }, cb: (err: grpc.ServiceError | null, res: { status: string }) => void): void;
};

function healthClient(port: number): HealthClient {
  const def = protoLoader.loadSync(protoPath, { keepCase: true, enums: String, defaults: true });
  const pkg = grpc.loadPackageDefinition(def) as unknown as { grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } } };
  return new pkg.grpc.health.v1.Health(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as unknown as HealthClient;
}

const check = (c: HealthClient, service = ''): Promise<string> =>
  new Promise((resolve, reject) => c.Check({ service }, (err, res) => (err === null ? resolve(res.status) : reject(err))));

async function eventually(test: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await test().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`timed out: ${what}`);
}

const hello = { model: 'alpha-sonnet-5', max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'hello' }] };

describe('health and drain', function () {
  this.timeout(60_000);

  it('the policy service answers grpc.health.v1 SERVING, and NOT_SERVING while the counter store is down', async function () {
    const redis = await RedisServerProcess.start();
    const gw = await new TestGateway({ redis: { url: redis.url, keyPrefix: 'gw:' } }).start();
    const client = healthClient(gw.policyPort);
    try {
      expect(await check(client)).to.equal('SERVING');
      expect(await check(client, 'gateway.policy.v1.Policy')).to.equal('SERVING');
      redis.pause();
      await eventually(async () => (await check(client)) === 'NOT_SERVING', 10_000, 'NOT_SERVING with Redis paused');
      redis.resume();
      await eventually(async () => (await check(client)) === 'SERVING', 10_000, 'SERVING again');
    } finally {
      client.close();
      await gw.stop();
      await redis.stop();
    }
  });

  it('SIGTERM during a stream: not ready within 1 s, the stream completes, usage is recorded, the proxy exits by itself', async function () {
    const gw = await new TestGateway({ env: { DRAIN_TIMEOUT_MS: '20000', DRAIN_GRACE_MS: '500' } }).start();
    try {
      const k = await createKey(gw);
      const res = await fetch(gw.url('/v1/messages'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': k.key, 'x-gateway-test-scenario': 'slow_stream' },
        body: JSON.stringify(hello),
      });
      const body = res.text();
      const requestId = res.headers.get('request-id') ?? '';
      await sleep(300);
      const proxy = gw.proxiesRunning[0]!;
      const signalledAt = Date.now();
      // Twice, as a container runtime and a supervisor would: the second must change nothing.
      proxy.child.kill('SIGTERM');
      await sleep(300);
      proxy.child.kill('SIGTERM');
      const ready = await fetch(gw.url('/readyz'));
      expect(ready.status).to.equal(503);
      expect(Date.now() - signalledAt).to.be.lessThan(1_000);
      const text = await body;
      expect(text).to.contain('event: message_stop').and.not.contain('event: error');
      const code = await proxy.exited;
      expect(code).to.equal(0);
      const rows = await waitForLedger(gw, (r) => r.some((x) => x.request_id === requestId));
      expect(rows.filter((x) => x.request_id === requestId)).to.have.length(1);
    } finally {
      await gw.stop();
    }
  });

  it('past DRAIN_TIMEOUT_MS a running stream ends with event: error overloaded_error, and is still metered', async function () {
    const gw = await new TestGateway({ env: { DRAIN_TIMEOUT_MS: '1000', DRAIN_GRACE_MS: '0' } }).start();
    try {
      const k = await createKey(gw);
      const res = await fetch(gw.url('/v1/messages'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': k.key, 'x-gateway-test-scenario': 'slow_stream' },
        body: JSON.stringify(hello),
      });
      const requestId = res.headers.get('request-id') ?? '';
      const body = res.text();
      await sleep(300);
      gw.proxiesRunning[0]!.child.kill('SIGTERM');
      const text = await body;
      expect(text).to.contain('event: error').and.contain('overloaded_error').and.not.contain('event: message_stop');
      expect(await gw.proxiesRunning[0]!.exited).to.equal(0);
      await waitForLedger(gw, (r) => r.some((x) => x.request_id === requestId));
    } finally {
      await gw.stop();
    }
  });
});

/** `npm start`'s launcher on a temp data directory and free ports; resolves with its children's ports. */
async function startLauncher(dataDir: string): Promise<{ launcher: ChildProcess; proxyPort: () => Promise<number>; output: string[] }> {
  const output: string[] = [];
  // Both processes read POLICY_ADDR: the policy service listens there and the proxy dials it, so it is a real port.
  const policyPort = await new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
  const launcher = fork(join(REPO_ROOT, 'deploy/local/start.js'), [], {
    env: {
      PATH: process.env['PATH'] ?? '', GATEWAY_DATA_DIR: dataDir, PORT: '0', METRICS_PORT: '0', ADMIN_PORT: '0',
      POLICY_ADDR: `127.0.0.1:${policyPort}`, GATEWAY_BOOTSTRAP_DEMO: 'false', DRAIN_GRACE_MS: '0', DRAIN_TIMEOUT_MS: '2000',
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  createInterface({ input: launcher.stdout! }).on('line', (l) => output.push(l));
  createInterface({ input: launcher.stderr! }).on('line', (l) => output.push(l));
  const proxyPort = async (): Promise<number> => {
    await eventually(async () => output.some((l) => l.includes('"proxy listening"')), 20_000, `proxy listening:\n${output.join('\n')}`);
    return Number(/"port":(\d+)/.exec(output.find((l) => l.includes('"proxy listening"')) ?? '')?.[1]);
  };
  return { launcher, proxyPort, output };
}

/** The pid of the launcher's child running `script`, or undefined. */
function childPid(launcher: ChildProcess, script: string): number | undefined {
  const ps = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(launcher.pid)]).toString();
  const line = ps.split('\n').find((l) => l.includes(script));
  return line === undefined ? undefined : Number(line.trim().split(/\s+/)[0]);
}


const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = createConnection({ host: '127.0.0.1', port }, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });

describe('npm start (deploy/local/start.js) supervises its two processes', function () {
  this.timeout(60_000);

  it('restarts a crashed policy service while the proxy keeps answering, and leaves no orphan when killed outright', async function () {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-launcher-'));
    const { launcher, proxyPort, output } = await startLauncher(dataDir);
    try {
      const port = await proxyPort();
      await eventually(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, 20_000, 'ready');
      const policyPid = childPid(launcher, 'policy/dist/src/main.js')!;
      const proxyPid = childPid(launcher, 'proxy/dist/src/main.js')!;
      expect(policyPid).to.be.a('number');
      expect(proxyPid).to.be.a('number');
      process.kill(policyPid, 'SIGKILL');
      // The proxy keeps answering (503, fail closed) while the policy service is down…
      const meanwhile = await fetch(`http://127.0.0.1:${port}/v1/models`, { headers: { 'x-api-key': `gw_test_${'a'.repeat(32)}` } });
      expect([503, 401]).to.include(meanwhile.status);
      // …and is ready again once the launcher has restarted it (a new policy pid).
      let restarted: number | undefined;
      await eventually(async () => {
        restarted = childPid(launcher, 'policy/dist/src/main.js');
        return restarted !== undefined && restarted !== policyPid;
      }, 20_000, `policy restarted:\n${output.join('\n')}`);
      await eventually(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, 20_000, 'ready after restart');
      expect(alive(proxyPid)).to.equal(true);

      // Killed outright, the launcher takes its children with it: nothing keeps serving or holds the port.
      const children = [proxyPid, restarted!];
      launcher.kill('SIGKILL');
      await eventually(async () => children.every((pid) => !alive(pid)), 10_000, 'children gone');
      expect(await accepts(port)).to.equal(false);
    } finally {
      launcher.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
