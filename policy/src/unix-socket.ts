import { lstat, unlink } from 'node:fs/promises';
import { connect } from 'node:net';

/**
 * Makes `path` free for the policy service's Unix domain socket. A socket file left by a process that died is
 * removed, but only after a connect to it failed: one that answers belongs to a running policy service, and
 * taking it over would cut that service off from its proxies, so the start fails instead. Anything at the path
 * that is not a socket is left alone and fails the start too.
 */
export async function freeSocketPath(path: string): Promise<void> {
  const stat = await lstat(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (stat === undefined) return;
  if (!stat.isSocket()) throw new Error(`POLICY_ADDR: ${path} exists and is not a socket`);
  const answered = await new Promise<boolean>((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
  if (answered) throw new Error(`POLICY_ADDR: ${path} is served by a running process`);
  await unlink(path);
}
