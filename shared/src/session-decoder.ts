import type { SessionResponse__Output } from './generated/gateway/policy/v1/SessionResponse.js';
import type { Decision__Output } from './generated/gateway/policy/v1/Decision.js';
import type { Denial__Output } from './generated/gateway/policy/v1/Denial.js';
import type { Grant__Output } from './generated/gateway/policy/v1/Grant.js';
import type { KeyIdentity__Output } from './generated/gateway/policy/v1/KeyIdentity.js';
import type { RateLimitPosition__Output } from './generated/gateway/policy/v1/RateLimitPosition.js';
import type { Route__Output } from './generated/gateway/policy/v1/Route.js';
import type { RouteEvidence__Output } from './generated/gateway/policy/v1/RouteEvidence.js';
import type { SessionFault__Output } from './generated/gateway/policy/v1/SessionFault.js';
import type { UsageAck__Output } from './generated/gateway/policy/v1/UsageAck.js';

/**
 * SessionResponse (a decision or an ack: what the proxy reads per request) read straight from the wire into the
 * objects proto-loader makes with POLICY_PROTO_OPTIONS: every field present with its proto3 default (a message
 * field null, a repeated one []), 64-bit integers as numbers, a set oneof member named by its oneof. proto-loader
 * decodes into protobufjs message instances and then converts them (toObject with defaults): two objects per
 * message. Fields this decoder does not know (a newer policy service's) are skipped by wire type, and a known
 * field number with another wire type is skipped rather than misread. The field numbers are
 * proto/policy.proto's; shared/test/session-encoder.test.ts checks every field against proto-loader's reading.
 */

const STRING = 2;
const VARINT = 0;
const tag = (field: number, wireType: number): number => (field << 3) | wireType;

class Reader {
  pos = 0;
  /** the halves of the last 64-bit varint read */
  lo = 0;
  hi = 0;

  constructor(readonly buf: Buffer) {}

  /** A varint of at most 32 significant bits (tags, lengths, uint32): its low 32 bits, unsigned. */
  uint32(): number {
    const b = this.buf[this.pos];
    if (b !== undefined && b < 0x80) {
      this.pos += 1;
      return b;
    }
    this.varint64();
    return this.lo;
  }

  varint64(): void {
    const buf = this.buf;
    let lo = 0;
    let hi = 0;
    let shift = 0;
    let b: number;
    do {
      const next = buf[this.pos++];
      if (next === undefined) throw new RangeError('SessionResponse: truncated varint');
      b = next;
      if (shift < 28) lo |= (b & 0x7f) << shift;
      else if (shift === 28) {
        lo |= (b & 0x0f) << 28;
        hi |= (b & 0x7f) >> 4;
      } else if (shift < 64) hi |= (b & 0x7f) << (shift - 32);
      shift += 7;
    } while (b & 0x80);
    this.lo = lo >>> 0;
    this.hi = hi >>> 0;
  }

  uint64(): number {
    this.varint64();
    return this.hi * 0x100000000 + this.lo;
  }

  int64(): number {
    this.varint64();
    if (this.hi < 0x80000000) return this.hi * 0x100000000 + this.lo;
    // two's complement
    return -((~this.hi >>> 0) * 0x100000000 + (~this.lo >>> 0) + 1);
  }

  bool(): boolean {
    this.varint64();
    return this.lo !== 0 || this.hi !== 0;
  }

  /** The end of a length-delimited field starting here. */
  end(): number {
    const n = this.uint32();
    const end = this.pos + n;
    if (end > this.buf.length) throw new RangeError('SessionResponse: truncated field');
    return end;
  }

  string(): string {
    const end = this.end();
    const start = this.pos;
    this.pos = end;
    return end === start ? '' : this.buf.toString('utf8', start, end);
  }

  message<T>(read: (r: Reader, end: number) => T): T {
    const end = this.end();
    const v = read(this, end);
    this.pos = end;
    return v;
  }

  skip(wireType: number): void {
    switch (wireType) {
      case 0:
        this.varint64();
        return;
      case 1:
        this.pos += 8;
        break;
      case 2:
        this.pos = this.end();
        return;
      case 3:
        // a group: up to its end tag
        for (let t = this.uint32(); (t & 7) !== 4; t = this.uint32()) this.skip(t & 7);
        return;
      case 5:
        this.pos += 4;
        break;
      default:
        throw new Error(`SessionResponse: wire type ${wireType}`);
    }
    if (this.pos > this.buf.length) throw new RangeError('SessionResponse: truncated field');
  }
}

function evidence(r: Reader, end: number): RouteEvidence__Output {
  const e: RouteEvidence__Output = { regions_basis: '', evidence_unix_ms: 0, evidence_sha256: '' };
  while (r.pos < end) {
    const t = r.uint32();
    if (t === tag(1, STRING)) e.regions_basis = r.string();
    else if (t === tag(2, VARINT)) e.evidence_unix_ms = r.int64();
    else if (t === tag(3, STRING)) e.evidence_sha256 = r.string();
    else r.skip(t & 7);
  }
  return e;
}

function keyIdentity(r: Reader, end: number): KeyIdentity__Output {
  const k: KeyIdentity__Output = { key_id: '', account_id: '', environment: '', residency: '', privacy_mode: '' };
  while (r.pos < end) {
    const t = r.uint32();
    if (t === tag(1, STRING)) k.key_id = r.string();
    else if (t === tag(2, STRING)) k.account_id = r.string();
    else if (t === tag(3, STRING)) k.environment = r.string();
    else if (t === tag(4, STRING)) k.residency = r.string();
    else if (t === tag(5, STRING)) k.privacy_mode = r.string();
    else r.skip(t & 7);
  }
  return k;
}

function route(r: Reader, end: number): Route__Output {
  const o: Route__Output = { upstream_model: '', call_region: '', processing_regions: [], upstream: '', evidence: null };
  while (r.pos < end) {
    const t = r.uint32();
    if (t === tag(1, STRING)) o.upstream_model = r.string();
    else if (t === tag(2, STRING)) o.call_region = r.string();
    else if (t === tag(3, STRING)) o.processing_regions.push(r.string());
    else if (t === tag(4, STRING)) o.upstream = r.string();
    else if (t === tag(5, STRING)) o.evidence = r.message(evidence);
    else r.skip(t & 7);
  }
  return o;
}

function grant(r: Reader, end: number): Grant__Output {
  const g: Grant__Output = { key: null, model: '', route: null, lease_id: '', lease_expires_unix_ms: 0, reserved_units: 0, evidence: null, routes: [] };
  while (r.pos < end) {
    const t = r.uint32();
    if (t === tag(1, STRING)) g.key = r.message(keyIdentity);
    else if (t === tag(2, STRING)) g.model = r.string();
    else if (t === tag(3, STRING)) g.route = r.message(route);
    else if (t === tag(4, STRING)) g.lease_id = r.string();
    else if (t === tag(5, VARINT)) g.lease_expires_unix_ms = r.int64();
    else if (t === tag(6, VARINT)) g.reserved_units = r.uint64();
    else if (t === tag(20, STRING)) g.evidence = r.message(evidence);
    else if (t === tag(21, STRING)) g.routes.push(r.message(route));
    else r.skip(t & 7);
  }
  return g;
}

function denial(r: Reader, end: number): Denial__Output {
  const d: Denial__Output = { http_status: 0, error_type: '', message: '', retry_after_seconds: 0, should_retry: '', code: '', key: null };
  while (r.pos < end) {
    const t = r.uint32();
    if (t === tag(1, VARINT)) d.http_status = r.uint32();
    else if (t === tag(2, STRING)) d.error_type = r.string();
    else if (t === tag(3, STRING)) d.message = r.string();
    else if (t === tag(4, VARINT)) d.retry_after_seconds = r.uint32();
    else if (t === tag(5, STRING)) d.should_retry = r.string();
    else if (t === tag(6, STRING)) d.code = r.string();
    else if (t === tag(20, STRING)) d.key = r.message(keyIdentity);
    else r.skip(t & 7);
  }
  return d;
}

function rateLimit(r: Reader, end: number): RateLimitPosition__Output {
  const p: RateLimitPosition__Output = { limit: 0, remaining: 0, reset_unix: 0 };
  while (r.pos < end) {
    const t = r.uint32();
    if (t === tag(1, VARINT)) p.limit = r.uint32();
    else if (t === tag(2, VARINT)) p.remaining = r.uint32();
    else if (t === tag(3, VARINT)) p.reset_unix = r.int64();
    else r.skip(t & 7);
  }
  return p;
}

function decision(r: Reader, end: number): Decision__Output {
  const d: Decision__Output = { decision_id: '', rate_limit: null, catalogue_sha256: '' };
  while (r.pos < end) {
    const t = r.uint32();
    if (t === tag(1, STRING)) d.decision_id = r.string();
    else if (t === tag(2, STRING)) d.rate_limit = r.message(rateLimit);
    else if (t === tag(3, STRING)) {
      d.allow = r.message(grant);
      // Two members of a oneof on the wire (no peer sends that): both kept, the oneof names the later field, as
      // proto-loader reads it.
      if (d.outcome !== 'deny') d.outcome = 'allow';
    } else if (t === tag(4, STRING)) {
      d.deny = r.message(denial);
      d.outcome = 'deny';
    } else if (t === tag(20, STRING)) d.catalogue_sha256 = r.string();
    else r.skip(t & 7);
  }
  return d;
}

function usageAck(r: Reader, end: number): UsageAck__Output {
  const a: UsageAck__Output = { recorded: false };
  while (r.pos < end) {
    const t = r.uint32();
    if (t === tag(1, VARINT)) a.recorded = r.bool();
    else r.skip(t & 7);
  }
  return a;
}

function sessionFault(r: Reader, end: number): SessionFault__Output {
  const f: SessionFault__Output = { unavailable: false, message: '' };
  while (r.pos < end) {
    const t = r.uint32();
    if (t === tag(1, VARINT)) f.unavailable = r.bool();
    else if (t === tag(2, STRING)) f.message = r.string();
    else r.skip(t & 7);
  }
  return f;
}

function sessionDrain(r: Reader, end: number): Record<string, never> {
  while (r.pos < end) r.skip(r.uint32() & 7);
  return {};
}

/** The oneof's members in field order: with two on the wire (no peer sends that), both kept, the later named. */
const BODY = ['decision', 'ack', 'fault', 'drain'] as const;

/** One SessionResponse, as proto-loader would read it. */
export function decodeSessionResponse(bytes: Buffer): SessionResponse__Output {
  const r = new Reader(bytes);
  const m: SessionResponse__Output = { id: 0 };
  const set = (name: (typeof BODY)[number]): void => {
    if (m.body === undefined || BODY.indexOf(m.body) < BODY.indexOf(name)) m.body = name;
  };
  while (r.pos < bytes.length) {
    const t = r.uint32();
    if (t === tag(1, VARINT)) m.id = r.uint64();
    else if (t === tag(2, STRING)) {
      set('decision');
      m.decision = r.message(decision);
    } else if (t === tag(3, STRING)) {
      set('ack');
      m.ack = r.message(usageAck);
    } else if (t === tag(4, STRING)) {
      set('fault');
      m.fault = r.message(sessionFault);
    } else if (t === tag(5, STRING)) {
      set('drain');
      m.drain = r.message(sessionDrain);
    } else r.skip(t & 7);
  }
  return m;
}
