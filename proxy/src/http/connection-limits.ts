import { IpAllowlist, type GatewayConfig, type Logger } from '@gateway/shared';
import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The HTTP server's timeouts. A client that dribbles its headers (slowloris) is cut after headersTimeoutMs with a
 * 408, one that dribbles its body after requestTimeoutMs; neither limits a response, so long streams are
 * unaffected. Node checks the deadlines every connectionsCheckingInterval (30 s by default, which would let a 10 s
 * limit run to 40 s), so the check runs every second.
 */
export function httpServerOptions(config: GatewayConfig): ServerOptions {
  return {
    headersTimeout: config.connections.headersTimeoutMs,
    requestTimeout: config.connections.requestTimeoutMs,
    connectionsCheckingInterval: 1_000,
    // Longer than the usual load balancer's idle timeout (60 s), so the balancer, not the gateway, closes first.
    keepAliveTimeout: 65_000,
    // Node would answer an HTTP/1.1 request without Host with an empty 400 of its own; the gateway does not use
    // Host, so such a request is served (or refused) like any other.
    requireHostHeader: false,
  };
}

/**
 * Caps open connections in all (Node closes any past server.maxConnections at once) and per source address (the
 * socket's peer; peers in TRUSTED_PROXIES are exempt, as they carry many clients). A connection past a cap is
 * closed before anything is read from it: answering would mean parsing its request, which is what the cap saves.
 * The official SDKs retry a closed connection with backoff.
 */
export function limitConnections(server: Server, config: GatewayConfig, log: Logger): void {
  server.maxConnections = config.connections.max;
  const cap = config.connections.maxPerSource;
  const trusted = config.trustedProxies.length === 0 ? null : new IpAllowlist(config.trustedProxies);
  const open = new Map<string, number>();
  let refusedSince = 0;
  server.on('connection', (socket: Socket) => {
    const source = sourceOf(socket);
    if (trusted?.allows(source) === true) return;
    const n = (open.get(source) ?? 0) + 1;
    if (n > cap) {
      // Logged at most once a second: a flood must not become a log flood.
      const now = Date.now();
      if (now - refusedSince > 1_000) {
        refusedSince = now;
        log.warn({ limit: cap }, 'connection refused: too many open connections from one source');
      }
      socket.destroy();
      return;
    }
    open.set(source, n);
    socket.once('close', () => {
      const left = (open.get(source) ?? 1) - 1;
      if (left <= 0) open.delete(source);
      else open.set(source, left);
    });
  });
}

/** The peer's address, an IPv4-mapped IPv6 address as its IPv4 (a dual-stack socket reports both forms). */
function sourceOf(socket: Socket): string {
  const a = socket.remoteAddress ?? '';
  return a.startsWith('::ffff:') && a.includes('.') ? a.slice(7) : a;
}
