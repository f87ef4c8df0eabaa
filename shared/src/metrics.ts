import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AggregatorRegistry, Registry, collectDefaultMetrics } from 'prom-client';

export { Registry };

/** The one metrics registry of a process, built at start-up and passed to whatever records metrics. */
export function createRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** What `/metrics` answers with: a registry, or the sum of a cluster's workers' registries. */
export interface MetricsSource {
  metrics(): Promise<string>;
  readonly contentType: string;
}

/**
 * In a cluster worker: answer the primary's requests for this registry's metrics (prom-client's cluster
 * messages), so the primary's `/metrics` covers every worker.
 */
export function shareMetricsWithPrimary(registry: Registry): void {
  new AggregatorRegistry(); // registers the worker's listener for the primary's requests
  AggregatorRegistry.setRegistries([registry]);
}

/**
 * In a cluster primary: every worker's metrics as one, each metric aggregated by its `aggregator` (counters and
 * histograms summed; gauges as each declares). A worker that does not answer within 5 s fails the scrape.
 */
export function clusterMetricsSource(): MetricsSource {
  const aggregator = new AggregatorRegistry();
  return { metrics: () => aggregator.clusterMetrics(), contentType: aggregator.contentType };
}

/** `/metrics` on its own port, apart from traffic. Resolves with the bound port (0 asks the OS for one). */
export async function serveMetrics(registry: MetricsSource, host: string, port: number): Promise<{ server: Server; port: number }> {
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
