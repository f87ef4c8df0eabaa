// A bench's child process (a mock, a peer, the gateway's services), shared by run.mjs and tracing-cost.mjs.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Starts a child and resolves once a line of its output matches `ready` (with the match; at once, match null,
 * without `ready`). Its stdout and stderr go to a file of its own (`logDir`/NAME.log), not to a pipe this process
 * reads: the gateway writes an access-log line per request, and reading them here put a pipe read into the load
 * generator's event loop, on the measured path of that arm only. Its stop (SIGTERM, SIGKILL after 5 s) is pushed
 * onto `cleanups`.
 */
export function startChild(name, cmd, args, { env = {}, ready, cwd, logDir, cleanups }) {
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, `${name}.log`);
  const fd = openSync(logFile, 'w');
  const child = spawn(cmd, args, { cwd, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  cleanups.push(() => new Promise((r) => {
    if (child.exitCode !== null || child.signalCode !== null) return r();
    child.once('exit', r);
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  }));
  const output = () => readFileSync(logFile, 'utf8');
  return new Promise((res, rej) => {
    let settled = false;
    const settle = (fn) => {
      if (settled) return;
      settled = true;
      clearInterval(poll);
      clearTimeout(timer);
      fn();
    };
    const timer = setTimeout(() => settle(() => rej(new Error(`${name} did not start:\n${output()}`))), 30_000);
    const poll = setInterval(() => {
      const m = ready === undefined ? null : output().split('\n').map((line) => ready.exec(line)).find((x) => x !== null);
      if (m !== undefined && m !== null) settle(() => res({ child, match: m }));
    }, 20);
    child.once('exit', (code) => settle(() => rej(new Error(`${name} exited (${code}):\n${output()}`))));
    if (ready === undefined) settle(() => res({ child, match: null }));
  });
}
