import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@gateway/shared';
import { TestGateway, createKey } from './harness/gateway.js';

const hello = { model: 'alpha-sonnet-5', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] };

/** A socket file with nothing behind it: what a policy service killed with SIGKILL leaves. */
async function staleSocket(path: string): Promise<void> {
  const child = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(path)}, () => process.kill(process.pid, 'SIGKILL'))`]);
  await new Promise((resolve) => child.once('exit', resolve));
  expect(existsSync(path), 'the stale socket file').to.equal(true);
}

describe('policy service over a Unix domain socket (POLICY_ADDR=unix:///…)', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-sock-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads unix:///path alone or beside host:port, and dials the socket from the proxy', function () {
    const both = loadConfig({ POLICY_ADDR: 'unix:///run/gw/policy.sock,0.0.0.0:50052' });
    expect(both.policySocket).to.equal('/run/gw/policy.sock');
    expect(both.policyAddr).to.deep.equal({ host: '0.0.0.0', port: 50052 });
    expect(both.policyTarget).to.deep.equal({ kind: 'list', addresses: ['unix:///run/gw/policy.sock'] });
    const alone = loadConfig({ POLICY_ADDR: 'unix:///run/gw/policy.sock' });
    expect(alone.policyAddr).to.deep.equal({ host: '127.0.0.1', port: 50051 });
    expect(loadConfig({ POLICY_TARGET: 'unix:///a.sock,10.0.0.2:50051' }).policyTarget).to.deep.equal({ kind: 'list', addresses: ['unix:///a.sock', '10.0.0.2:50051'] });
    for (const bad of ['unix://relative.sock', 'unix:///a.sock,unix:///b.sock', '127.0.0.1:1,127.0.0.1:2']) {
      expect(() => loadConfig({ POLICY_ADDR: bad }), bad).to.throw(/POLICY_ADDR/);
    }
  });

  it('serves requests over the socket, keeps TCP for health, and replaces a stale socket file', async function () {
    const path = join(dir, 'policy.sock');
    await staleSocket(path);
    const gw = await new TestGateway({ policySocket: path }).start();
    try {
      expect(gw.policy.lines.find((l) => l.msg === 'policy service listening')?.['socket']).to.equal(path);
      const key = await createKey(gw);
      const r = await fetch(gw.url('/v1/messages'), { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key.key }, body: JSON.stringify(hello) });
      expect(r.status).to.equal(200);
      expect((await fetch(gw.url('/readyz'))).status).to.equal(200);
      // The proxy's one decision stream goes over the socket: no TCP connection reaches the policy port.
      const ss = spawn('ss', ['-tnH', 'state', 'established', `( dport = :${gw.policyPort} )`]);
      let out = '';
      ss.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const code = await new Promise((resolve) => {
        ss.once('exit', resolve);
        ss.once('error', () => resolve(-1)); // no ss here: the check is skipped
      });
      if (code === 0) expect(out.trim(), 'TCP connections to the policy port').to.equal('');
    } finally {
      await gw.stop();
    }
  });

  it('refuses to start over a socket another process serves, and leaves a file that is not a socket alone', async function () {
    const path = join(dir, 'taken.sock');
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(path, resolve));
    try {
      const gw = new TestGateway({ policySocket: path });
      const started = await gw.start().then(() => true, () => false);
      if (started) await gw.stop();
      expect(started, 'a policy service took over a live socket').to.equal(false);
      expect(existsSync(path)).to.equal(true);
    } finally {
      holder.close();
    }
    const file = join(dir, 'not-a-socket');
    writeFileSync(file, 'keep me');
    const gw = new TestGateway({ policySocket: file });
    const started = await gw.start().then(() => true, () => false);
    if (started) await gw.stop();
    expect(started).to.equal(false);
    expect(existsSync(file)).to.equal(true);
  });
});
