import { IpAllowlist, type Caller } from '@gateway/shared';
import { apiKeyFrom } from './request-headers.js';
import type { IncomingMessage } from 'node:http';

/**
 * The request's source address: the socket's peer, unless that peer is a trusted proxy; then the right-most
 * X-Forwarded-For entry that is not a trusted proxy. X-Forwarded-For from anyone else is ignored.
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
      .filter((s) => s !== '');
    for (let i = hops.length - 1; i >= 0; i -= 1) {
      const hop = hops[i] as string;
      if (!this.trusted.allows(hop)) return hop;
    }
    // Every hop was a trusted proxy: the left-most is as close to the client as we can see.
    return hops[0] ?? peer;
  }
}

/** Who is calling: the key as sent and the source address. */
export function callerOf(req: IncomingMessage, addresses: ClientAddressResolver, requestId: string): Caller {
  return { api_key: apiKeyFrom(req.headers), source_ip: addresses.resolve(req), request_id: requestId };
}
