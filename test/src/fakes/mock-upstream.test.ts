import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { readMockUpstreamConfig } from './index.js';

const MAIN = join(dirname(fileURLToPath(import.meta.url)), 'mock-upstream-main.js');

describe('fakes: npm run mock-upstream', function () {
  it('reads its port and key from the environment', function () {
    expect(readMockUpstreamConfig({})).to.deep.equal({ port: 8787, apiKey: undefined });
    expect(readMockUpstreamConfig({ MOCK_UPSTREAM_PORT: '0', MOCK_UPSTREAM_API_KEY: 'k' })).to.deep.equal({ port: 0, apiKey: 'k' });
    expect(() => readMockUpstreamConfig({ MOCK_UPSTREAM_PORT: 'eighty' })).to.throw(/MOCK_UPSTREAM_PORT/);
    expect(() => readMockUpstreamConfig({ MOCK_UPSTREAM_PORT: '70000' })).to.throw(/MOCK_UPSTREAM_PORT/);
  });

  it('prints how to point the gateway at it, logs each request without bodies, stops on SIGTERM', async function () {
    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env['PATH'] ?? '', MOCK_UPSTREAM_PORT: '0', MOCK_UPSTREAM_API_KEY: 'sk-demo' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const lines: string[] = [];
    const waiters: Array<() => void> = [];
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      waiters.splice(0).forEach((w) => w());
    });
    const nextLine = async (n: number): Promise<string> => {
      while (lines.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
      return lines[n - 1] ?? '';
    };
    try {
      const banner = await nextLine(1);
      const url = /UPSTREAM_URL=(http:\/\/127\.0\.0\.1:\d+)\/v1 UPSTREAM_API_KEY=sk-demo npm start/.exec(banner)?.[1];
      expect(url, banner).to.be.a('string');
      const client = new Anthropic({ apiKey: 'sk-demo', baseURL: url ?? '', maxRetries: 0 });
      await client.messages.create({ model: 'alpha-haiku-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'secret words' }] });
      const logged = await nextLine(2);
      expect(logged).to.match(/ POST \/v1\/messages model=alpha-haiku-4-5$/);
      expect(logged).not.to.contain('secret words');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).to.equal(0);
  });
});
