import { Agent, type Dispatcher } from 'undici';

/**
 * The one HTTP client of the upstream leg: undici's Agent keeps a keep-alive pool per origin (one per region's
 * endpoint). The connect timeout is set here; headers and body-idle timeouts per call (upstream-call.ts).
 */
export function createUpstreamClient(connectTimeoutMs: number): Dispatcher {
  // UPSTREAM_CONNECT_TIMEOUT_MS (5 s by default): a handshake slower than that means the endpoint is unreachable,
  // and the next route (or the client) is better told at once.
  return new Agent({ connect: { timeout: connectTimeoutMs }, keepAliveTimeout: 4_000 });
}

/** `{region}` replaced in a base URL, split into what a dispatch wants: the origin and the path prefix. */
export function regionEndpoint(template: string, region: string): { origin: string; basePath: string } {
  const url = new URL(template.replaceAll('{region}', region).replace(/\/+$/, ''));
  return { origin: url.origin, basePath: url.pathname === '/' ? '' : url.pathname };
}
