import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry, collectDefaultMetrics } from 'prom-client';

export { Registry };

/** The one metrics registry of a process, built at start-up and passed to whatever records metrics. */
export function createRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** `/metrics` on its own port, apart from traffic. Resolves with the bound port (0 asks the OS for one). */
export async function serveMetrics(registry: Registry, host: string, port: number): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    if (req.method === 'GET' && (req.url === '/metrics' || req.url?.startsWith('/metrics?'))) {
      registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'content-type': registry.contentType });
          res.end(text);
        },
        () => {
          res.writeHead(500);
          res.end();
        },
      );
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return { server, port: (server.address() as AddressInfo).port };
}
