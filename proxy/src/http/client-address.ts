import { IpAllowlist, type Caller } from '@gateway/shared';
import { apiKeyFrom } from './request-headers.js';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/** What stands for a forwarded address that is not one (RFC 7239's "unknown"): no allowlist matches it. */
export const UNKNOWN_SOURCE = 'unknown';

/**
 * The request's source address: the socket's peer, unless that peer is a trusted proxy; then the right-most
 * X-Forwarded-For entry that is not a trusted proxy. X-Forwarded-For from anyone else is ignored. Entries are
 * read strictly (dotted-quad IPv4 or standard IPv6, a port or brackets as some balancers add them); any other
 * spelling (`127.1`, `0x7f.1`, `017.0.0.1`, garbage) is "unknown", never read as some other address.
 */
export class ClientAddressResolver {
  private readonly trusted: IpAllowlist | null;

  constructor(trustedProxies: readonly string[]) {
    this.trusted = trustedProxies.length === 0 ? null : new IpAllowlist(trustedProxies);
  }

  resolve(req: IncomingMessage): string {
    const peer = req.socket.remoteAddress ?? '';
    if (this.trusted === null || !this.trusted.allows(peer)) return peer;
    const header = req.headers['x-forwarded-for'];
    const hops = (Array.isArray(header) ? header.join(',') : header ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')
      .map(forwardedAddress);
    for (let i = hops.length - 1; i >= 0; i -= 1) {
      const hop = hops[i] as string;
      if (!this.trusted.allows(hop)) return hop;
    }
    // Every hop was a trusted proxy: the left-most is as close to the client as we can see.
    return hops[0] ?? peer;
  }
}

/** An X-Forwarded-For entry as a standard address (`1.2.3.4:80` and `[2001:db8::1]:443` lose the port), or "unknown". */
export function forwardedAddress(entry: string): string {
  if (isIP(entry) !== 0) return entry;
  const v6 = /^\[([0-9A-Fa-f:.]+)\](?::\d{1,5})?$/.exec(entry);
  if (v6 !== null && isIP(v6[1] as string) === 6) return v6[1] as string;
  const v4 = /^([0-9.]+):\d{1,5}$/.exec(entry);
  if (v4 !== null && isIP(v4[1] as string) === 4) return v4[1] as string;
  return UNKNOWN_SOURCE;
}

/** Who is calling: the key as sent and the source address. */
export function callerOf(req: IncomingMessage, addresses: ClientAddressResolver, requestId: string): Caller {
  return { api_key: apiKeyFrom(req.headers), source_ip: addresses.resolve(req), request_id: requestId };
}
