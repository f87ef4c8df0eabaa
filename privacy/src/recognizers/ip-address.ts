import { isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';
import { hasContextBefore } from '../context.js';
import { RANK_FORMAT } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';

// IPv4 by a regex whose octet alternatives already reject values over 255 and leading zeros; IPv6 by
// scanning outwards from each ':' over hex digits, ':' and '.', then validating with node:net. What counts is
// an address that can point at a person's machine: a host address, such as a client IP in a log line, public or
// private (an office network's address is an employee's). Not reported: addresses that identify no one
// (unspecified, loopback, broadcast, netmasks), a private IPv4 address written as a service's endpoint (with a
// port below the ephemeral range, or in a URL: "10.0.3.7:5432", "redis://10.0.3.7"), network ranges in
// CIDR notation ("10.0.0.0/16" in infrastructure code names a network, not a host; a /32 is one host and is
// reported), `x.0.0.0`, and dotted
// quads written as a version number ("version 1.2.3.4", `Version=4.0.0.0`, `AssemblyVersion("1.2.3.4")`).

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4_RE = new RegExp(`(?<![\\w.])(?:${OCTET}\\.){3}${OCTET}(?![\\w]|\\.\\d)`, 'g');
// `version` without a word boundary: AssemblyVersion, FileVersion, ProductVersion.
const VERSION_CONTEXT_RE = /(?:\bv|\bver\.?|version|\brelease|\bbuild|\bfirmware)[\s=:("']{0,4}$/i;
/** A prefix length after the address: a network range, not a host (but /32 and /128, which are one host). */
const CIDR_SUFFIX_RE = /^\/(?!32(?!\d)|128(?!\d))\d{1,3}(?!\d)/;
const IGNORED_RANGES = new Set(['unspecified', 'loopback', 'broadcast']);
/** Ranges of a private network: an address there with a port or in a URL is a service's, not a person's. */
const INTERNAL_RANGES = new Set(['private', 'carrierGradeNat', 'linkLocal']);
/** A service's port: below the ephemeral range (32768 and up), where clients' source ports are. */
const SERVICE_PORT_AFTER_RE = /^:(?:\d{1,4}|[12]\d{4}|3[01]\d{3}|32[0-6]\d{2}|327[0-5]\d|3276[0-7])(?!\d)/;
const URL_BEFORE_RE = /(?::\/\/|@)$/;
const MAX_IPV6_LENGTH = 45;

function isRange(text: string, end: number): boolean {
  return text.charCodeAt(end) === 47 /* / */ && CIDR_SUFFIX_RE.test(text.slice(end, end + 5));
}

/**
 * "10.0.3.7:5432", "redis://10.0.3.7", "app@10.0.3.7": where a service listens. "192.168.1.23:51544" is a client
 * and its source port, and is reported.
 */
function isEndpoint(text: string, start: number, end: number): boolean {
  return SERVICE_PORT_AFTER_RE.test(text.slice(end, end + 7)) || URL_BEFORE_RE.test(text.slice(Math.max(0, start - 3), start));
}

function isReportableIPv4(text: string, start: number, value: string): boolean {
  if (isRange(text, start + value.length) || value.endsWith('.0.0.0')) return false;
  const addr = ipaddr.IPv4.parse(value);
  if (IGNORED_RANGES.has(addr.range())) return false;
  if (INTERNAL_RANGES.has(addr.range()) && isEndpoint(text, start, start + value.length)) return false;
  if (addr.prefixLengthFromSubnetMask() !== null) return false;
  return !hasContextBefore(text, start, 12, VERSION_CONTEXT_RE);
}

function isIPv6Char(code: number): boolean {
  return (
    (code >= 48 && code <= 58) /* 0-9 : */ ||
    (code >= 65 && code <= 70) ||
    (code >= 97 && code <= 102) ||
    code === 46 /* . */
  );
}

function isWordChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95
  );
}

/** At least three non-empty groups and a digit: rejects code such as `a::b` or `dead::beef`. */
function isReportableIPv6(value: string): boolean {
  // Count groups by hand first: it rejects most colon runs before the costlier checks.
  let groups = 0;
  let inGroup = false;
  for (let i = 0; i < value.length; i++) {
    const colon = value.charCodeAt(i) === 58;
    if (!colon && !inGroup) groups++;
    inGroup = !colon;
  }
  if (groups < 3 || !/\d/.test(value) || !isIPv6(value)) return false;
  return !IGNORED_RANGES.has(ipaddr.IPv6.parse(value).range());
}

function findIPv6(text: string, out: Candidate[]): void {
  let colon = text.indexOf(':');
  while (colon !== -1) {
    // The maximal run of address characters around this colon; a run longer than any address is skipped
    // whole, so each character is visited a bounded number of times.
    let start = colon;
    while (start > 0 && colon - start <= MAX_IPV6_LENGTH && isIPv6Char(text.charCodeAt(start - 1))) start--;
    let runEnd = colon + 1;
    while (runEnd < text.length && runEnd - start <= MAX_IPV6_LENGTH && isIPv6Char(text.charCodeAt(runEnd))) runEnd++;
    if (runEnd - start > MAX_IPV6_LENGTH) {
      while (runEnd < text.length && isIPv6Char(text.charCodeAt(runEnd))) runEnd++;
      colon = text.indexOf(':', runEnd);
      continue;
    }
    // Trailing ':' or '.' is punctuation ("address fe80::1:" or end of sentence), not part of it.
    let end = runEnd;
    while (end > colon && (text.charCodeAt(end - 1) === 46 || text.charCodeAt(end - 1) === 58)) end--;
    while (start < colon && text.charCodeAt(start) === 46) start++;
    const bounded =
      (start === 0 || !isWordChar(text.charCodeAt(start - 1))) &&
      (runEnd === text.length || !isWordChar(text.charCodeAt(runEnd)));
    if (end - start >= 3 && bounded) addIPv6(text, text.slice(start, end), start, out);
    colon = text.indexOf(':', runEnd);
  }
}

function addIPv6(text: string, value: string, start: number, out: Candidate[]): void {
  if (isRange(text, start + value.length)) return;
  if (isReportableIPv6(value)) {
    out.push({ type: 'IP_ADDRESS', start, end: start + value.length, rank: RANK_FORMAT });
    return;
  }
  // "2001:db8::1:8080" written with a port and no brackets: try without the last group.
  const lastColon = value.lastIndexOf(':');
  if (lastColon > 0 && isReportableIPv6(value.slice(0, lastColon))) {
    out.push({ type: 'IP_ADDRESS', start, end: start + lastColon, rank: RANK_FORMAT });
  }
}

function find(text: string, out: Candidate[]): void {
  IPV4_RE.lastIndex = 0;
  for (let m = IPV4_RE.exec(text); m !== null; m = IPV4_RE.exec(text)) {
    if (isReportableIPv4(text, m.index, m[0])) {
      out.push({ type: 'IP_ADDRESS', start: m.index, end: m.index + m[0].length, rank: RANK_FORMAT });
    }
  }
  findIPv6(text, out);
}

export const ipAddressRecognizer: Recognizer = { name: 'ip-address', find };
