import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** A key's allowed_ips, parsed once: single addresses and CIDR ranges, IPv4 and IPv6. */
export class IpAllowlist {
  private readonly ranges: Range[];

  /** An entry that does not parse matches nothing (fail closed); gatewayctl refuses such entries up front. */
  constructor(entries: readonly string[]) {
    this.ranges = [];
    for (const entry of entries) {
      try {
        this.ranges.push(parseEntry(entry));
      } catch {
        // matches nothing
      }
    }
  }

  /**
   * Whether `address` (as the socket or X-Forwarded-For gave it) lies in any range. Only the standard spellings
   * count (dotted-quad decimal IPv4, RFC 4291 IPv6): ipaddr.js would also read `127.1`, `0x7f.1` or `2130706433`
   * as 127.0.0.1 and `017.0.0.1` as 15.0.0.1, which lets a header name an address other than the one it shows.
   * Anything else → false.
   */
  allows(address: string): boolean {
    let addr: ipaddr.IPv4 | ipaddr.IPv6;
    if (isIP(stripZone(address)) === 0) return false;
    try {
      // process() turns an IPv4-mapped IPv6 address (::ffff:10.0.0.1) back into IPv4.
      addr = ipaddr.process(stripZone(address));
    } catch {
      return false;
    }
    for (const range of this.ranges) {
      if (range[0].kind() === addr.kind() && addr.match(range)) return true;
    }
    return false;
  }
}

function stripZone(a: string): string {
  const i = a.indexOf('%');
  return i === -1 ? a : a.slice(0, i);
}

function parseEntry(entry: string): Range {
  if (entry.includes('/')) {
    const [addr, bits] = ipaddr.parseCIDR(entry);
    if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
      return [(addr as ipaddr.IPv6).toIPv4Address(), bits - 96];
    }
    return [addr, bits];
  }
  const addr = ipaddr.process(entry);
  return [addr, addr.kind() === 'ipv4' ? 32 : 128];
}

/** Validates an allowed_ips entry for gatewayctl; returns a problem or undefined. */
export function allowlistEntryProblem(entry: string): string | undefined {
  try {
    parseEntry(entry);
    return undefined;
  } catch {
    return `"${entry}" is not an IPv4/IPv6 address or CIDR range`;
  }
}
