import { expect } from 'chai';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { batchedStdout, createLineLog } from '../src/logger.js';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';

/** A process of the gateway's shape: logs with createLogger, and on SIGTERM logs twice and exits. */
const child = `
import { createLogger } from ${JSON.stringify(new URL('../src/logger.js', import.meta.url).href)};
const log = createLogger('test', 'info');
log.info('ready');
setInterval(() => undefined, 1000);
process.on('SIGTERM', () => {
  log.info('shutting down');
  log.error('one more line');
  process.exit(0);
});`;

describe('the process logger', () => {
  it('lets a process end on SIGTERM after the reader of its standard output has gone (a dead supervisor or log shipper)', async function () {
    this.timeout(10_000);
    const c = spawn(process.execPath, ['--input-type=module', '-e', child], { stdio: ['ignore', 'pipe', 'ignore'] });
    await once(c.stdout, 'data');
    c.stdout.destroy();
    await sleep(200);
    c.kill('SIGTERM');
    const exited = await Promise.race([once(c, 'exit').then(() => true), sleep(4_000).then(() => false)]);
    if (!exited) c.kill('SIGKILL');
    expect(exited, 'the process ended by itself').to.equal(true);
  });

  it('writes batched lines in whole lines within PIPE_BUF when other processes share the pipe (cluster workers)', async function () {
    // Writes to a pipe up to PIPE_BUF (4096 on Linux) are never interleaved with another writer's; larger ones may
    // be, which would split a line of one worker with a batch of another.
    const writes: string[] = [];
    const original = fs.writeSync;
    const capture = ((fd: number, data: string | NodeJS.ArrayBufferView, ...rest: unknown[]): number => {
      if (fd !== 1) return (original as (...a: unknown[]) => number)(fd, data, ...rest);
      const text = typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8');
      writes.push(text);
      return Buffer.byteLength(text);
    }) as typeof fs.writeSync;
    fs.writeSync = capture;
    try {
      for (const shared of [false, true]) {
        writes.length = 0;
        const destination = batchedStdout({ sharedWithOtherProcesses: shared });
        const log = createLineLog('proxy', 'info', destination, { worker: 1 });
        for (let i = 0; i < 2000; i += 1) log.info({ request_id: `req_${i}`, pad: 'x'.repeat(50 + ((i * 37) % 900)) }, 'request');
        (destination as unknown as { flushSync(): void }).flushSync();
        const sizes = writes.filter((w) => w !== '').map((w) => Buffer.byteLength(w));
        if (shared) {
          expect(Math.max(...sizes)).to.be.at.most(4096);
          expect(writes.filter((w) => w !== '').every((w) => w.endsWith('\n'))).to.equal(true);
        } else {
          expect(Math.max(...sizes), 'a process of its own batches past PIPE_BUF').to.be.above(4096);
        }
        expect(writes.join('').split('\n').filter((l) => l !== '')).to.have.length(2000);
      }
    } finally {
      fs.writeSync = original;
    }
  });
});
