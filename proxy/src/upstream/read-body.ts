import type { IncomingMessage } from 'node:http';

/** Reads a response body up to `limit` bytes (more is an error). */
export function readBounded(res: IncomingMessage, limit: number, onChunk?: () => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (c: Buffer) => {
      size += c.length;
      onChunk?.();
      if (size > limit) {
        res.destroy();
        reject(new Error('upstream body too large'));
        return;
      }
      chunks.push(c);
    });
    res.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.once('error', reject);
    res.once('aborted', () => reject(new Error('aborted')));
  });
}
