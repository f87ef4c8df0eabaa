import { Agent, type Dispatcher } from 'undici';

/**
 * UPSTREAM_TIMEOUT_MS is sized for a model's silence (10 minutes by default); a TCP and TLS handshake that takes
 * longer than this means the endpoint is unreachable, and the client is better told so (502) at once.
 */
const MAX_CONNECT_MS = 10_000;

/**
 * The one HTTP client of the upstream leg: undici's Agent keeps a keep-alive pool per origin (one per region's
 * endpoint). The connect timeout is set here; headers and body-idle timeouts per call (upstream-call.ts).
 */
export function createUpstreamClient(timeoutMs: number): Dispatcher {
  return new Agent({ connect: { timeout: Math.min(timeoutMs, MAX_CONNECT_MS) }, keepAliveTimeout: 4_000 });
}

/** `{region}` replaced in a base URL, split into what a dispatch wants: the origin and the path prefix. */
export function regionEndpoint(template: string, region: string): { origin: string; basePath: string } {
  const url = new URL(template.replaceAll('{region}', region).replace(/\/+$/, ''));
  return { origin: url.origin, basePath: url.pathname === '/' ? '' : url.pathname };
}
