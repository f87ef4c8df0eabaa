/** One Redis command over a raw socket (RESP), so the test does not depend on the store's own client. */
export async function redisCommand(port: number, ...args: string[]): Promise<string> {
  const { createConnection } = await import('node:net');
  return new Promise((resolve, reject) => {
    const socket = createConnection({ port, host: '127.0.0.1' }, () => {
      socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`);
    });
    socket.once('data', (d) => {
      socket.end();
      resolve(d.toString());
    });
    socket.once('error', reject);
  });
}
