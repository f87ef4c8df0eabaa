import { expect } from 'chai';
import { spawn } from 'node:child_process';
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
});
