import type { Caller } from './generated/gateway/policy/v1/Caller.js';
import type { DecideRequest } from './generated/gateway/policy/v1/DecideRequest.js';
import type { RouteEvidence } from './generated/gateway/policy/v1/RouteEvidence.js';
import type { SessionRequest } from './generated/gateway/policy/v1/SessionRequest.js';
import type { TokenUsage } from './generated/gateway/policy/v1/TokenUsage.js';
import type { UsageReport } from './generated/gateway/policy/v1/UsageReport.js';
import type { Decision } from './generated/gateway/policy/v1/Decision.js';
import type { Denial } from './generated/gateway/policy/v1/Denial.js';
import type { Grant } from './generated/gateway/policy/v1/Grant.js';
import type { KeyIdentity } from './generated/gateway/policy/v1/KeyIdentity.js';
import type { RateLimitPosition } from './generated/gateway/policy/v1/RateLimitPosition.js';
import type { Route } from './generated/gateway/policy/v1/Route.js';
import type { SessionFault } from './generated/gateway/policy/v1/SessionFault.js';
import type { SessionResponse } from './generated/gateway/policy/v1/SessionResponse.js';
import type { UsageAck } from './generated/gateway/policy/v1/UsageAck.js';

/**
 * The Session stream's messages written straight to the wire, as static code generated from the .proto would:
 * SessionRequest (a decision, a usage report, or a batch of them: what the proxy sends per request) and
 * SessionResponse (a decision or an ack: what the policy service sends back). The field numbers are
 * proto/policy.proto's (shared/test/session-encoder.test.ts checks every field of every message against it).
 * proto-loader builds a protobufjs message per nested object (fromObject) and a list of write operations before
 * the bytes; this writes the bytes in one pass. Fields at their proto3 default are left out, as the wire allows.
 * Decoding is still proto-loader's, on both sides, so unknown fields and older peers are handled as before.
 */

const OPERATION: Record<string, number> = { OPERATION_UNSPECIFIED: 0, CREATE_MESSAGE: 1, COUNT_TOKENS: 2 };

type Int64 = number | string | { toNumber(): number };
const num = (v: Int64 | undefined): number => (v === undefined ? 0 : typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : v.toNumber());

class Writer {
  buf = Buffer.allocUnsafe(1024);
  pos = 0;

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  varint(v: number): void {
    this.ensure(10);
    const buf = this.buf;
    if (v < 0) {
      // a negative int64: ten bytes of two's complement
      let b = BigInt.asUintN(64, BigInt(Math.trunc(v)));
      for (let i = 0; i < 9; i += 1, b >>= 7n) buf[this.pos++] = Number(b & 0x7fn) | 0x80;
      buf[this.pos++] = Number(b);
      return;
    }
    while (v > 0x7fffffff) {
      buf[this.pos++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    while (v > 0x7f) {
      buf[this.pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    buf[this.pos++] = v;
  }

  /** A varint field (uint32, uint64, int64, enum) unless 0. */
  uint(field: number, v: number): void {
    if (v === 0 || Number.isNaN(v)) return;
    this.varint(field << 3);
    this.varint(v);
  }

  bool(field: number, v: boolean | undefined): void {
    if (v !== true) return;
    this.varint(field << 3);
    this.varint(1);
  }

  string(field: number, s: string | undefined): void {
    if (s !== undefined && s !== '') this.element(field, s);
  }

  /** A string written even when empty (an element of a repeated field). */
  element(field: number, s: string): void {
    this.varint((field << 3) | 2);
    const len = s.length;
    if (len < 0x80) {
      // Short ASCII (ids, names, regions: nearly every string here) copied in JS: a native byteLength and write
      // per string cost more than the copy.
      this.ensure(len + 1);
      const buf = this.buf;
      const at = this.pos + 1;
      let i = 0;
      for (; i < len; i += 1) {
        const c = s.charCodeAt(i);
        if (c > 0x7f) break;
        buf[at + i] = c;
      }
      if (i === len) {
        buf[this.pos] = len;
        this.pos = at + len;
        return;
      }
    }
    const n = Buffer.byteLength(s);
    this.varint(n);
    this.ensure(n);
    this.pos += this.buf.write(s, this.pos, n, 'utf8');
  }

  /** A message field, present (even if empty) whenever not null: its length is written once its bytes are. */
  message<T>(field: number, v: T | null | undefined, write: (w: Writer, v: T) => void): void {
    if (v === null || v === undefined) return;
    this.varint((field << 3) | 2);
    this.ensure(1);
    const start = ++this.pos; // one byte for the length, enough below 128 bytes
    write(this, v);
    const len = this.pos - start;
    if (len < 0x80) {
      this.buf[start - 1] = len;
      return;
    }
    let extra = 0;
    for (let x = len >>> 7; x > 0; x >>>= 7) extra += 1;
    this.ensure(extra);
    this.buf.copyWithin(start + extra, start, this.pos);
    this.pos = start - 1;
    this.varint(len);
    this.pos += len;
  }
}

function caller(w: Writer, c: Caller): void {
  w.string(1, c.api_key);
  w.string(2, c.source_ip);
  w.string(3, c.request_id);
}

function decide(w: Writer, d: DecideRequest): void {
  w.message(1, d.caller, caller);
  w.uint(2, typeof d.operation === 'number' ? d.operation : OPERATION[d.operation ?? ''] ?? 0);
  w.string(3, d.model);
  w.bool(4, d.stream);
  w.uint(5, d.max_tokens ?? 0);
  w.uint(6, d.input_tokens_estimate ?? 0);
  w.string(8, d.attempt_id);
}

function tokenUsage(w: Writer, u: TokenUsage): void {
  w.uint(1, num(u.input_tokens));
  w.uint(2, num(u.output_tokens));
  w.uint(3, num(u.cache_creation_input_tokens));
  w.uint(4, num(u.cache_read_input_tokens));
}

function evidence(w: Writer, e: RouteEvidence): void {
  w.string(1, e.regions_basis);
  w.uint(2, num(e.evidence_unix_ms));
  w.string(3, e.evidence_sha256);
}

function report(w: Writer, r: UsageReport): void {
  w.string(1, r.request_id);
  w.string(2, r.decision_id);
  w.string(3, r.key_id);
  w.string(4, r.account_id);
  w.string(5, r.environment);
  w.string(6, r.model);
  w.message(7, r.usage, tokenUsage);
  w.string(8, r.lease_id);
  w.uint(9, num(r.reserved_units));
  w.string(10, r.outcome);
  w.uint(11, num(r.finished_unix_ms));
  w.string(20, r.residency);
  w.string(21, r.call_region);
  for (const region of r.processing_regions ?? []) w.element(22, region);
  w.message(23, r.evidence, evidence);
  w.string(24, r.platform);
}

function sessionRequest(w: Writer, m: SessionRequest): void {
  w.uint(1, num(m.id));
  w.message(2, m.decide, decide);
  w.message(3, m.report, report);
  if (m.batch !== null && m.batch !== undefined) w.message(4, m.batch, (bw, b) => { for (const r of b.requests ?? []) bw.message(1, r, sessionRequest); });
  w.string(15, m.traceparent);
}

function rateLimit(w: Writer, r: RateLimitPosition): void {
  w.uint(1, r.limit ?? 0);
  w.uint(2, r.remaining ?? 0);
  w.uint(3, num(r.reset_unix));
}

function keyIdentity(w: Writer, k: KeyIdentity): void {
  w.string(1, k.key_id);
  w.string(2, k.account_id);
  w.string(3, k.environment);
  w.string(4, k.residency);
  w.string(5, k.privacy_mode);
}

function route(w: Writer, r: Route): void {
  w.string(1, r.upstream_model);
  w.string(2, r.call_region);
  for (const region of r.processing_regions ?? []) w.element(3, region);
  w.string(4, r.upstream);
  w.message(5, r.evidence, evidence);
}

function grant(w: Writer, g: Grant): void {
  w.message(1, g.key, keyIdentity);
  w.string(2, g.model);
  w.message(3, g.route, route);
  w.string(4, g.lease_id);
  w.uint(5, num(g.lease_expires_unix_ms));
  w.uint(6, num(g.reserved_units));
  w.message(20, g.evidence, evidence);
  for (const r of g.routes ?? []) w.message(21, r, route);
}

function denial(w: Writer, d: Denial): void {
  w.uint(1, d.http_status ?? 0);
  w.string(2, d.error_type);
  w.string(3, d.message);
  w.uint(4, d.retry_after_seconds ?? 0);
  w.string(5, d.should_retry);
  w.string(6, d.code);
  w.message(20, d.key, keyIdentity);
}

function decision(w: Writer, d: Decision): void {
  w.string(1, d.decision_id);
  w.message(2, d.rate_limit, rateLimit);
  w.message(3, d.allow, grant);
  w.message(4, d.deny, denial);
  w.string(20, d.catalogue_sha256);
}

function usageAck(w: Writer, a: UsageAck): void {
  w.bool(1, a.recorded);
}

function sessionFault(w: Writer, f: SessionFault): void {
  w.bool(1, f.unavailable);
  w.string(2, f.message);
}

function sessionResponse(w: Writer, m: SessionResponse): void {
  w.uint(1, num(m.id));
  w.message(2, m.decision, decision);
  w.message(3, m.ack, usageAck);
  w.message(4, m.fault, sessionFault);
  // SessionDrain has no fields: present or not
  w.message(5, m.drain, () => undefined);
}

// One writer reused: grpc-js takes the bytes synchronously, and they are copied out before it returns.
const shared = new Writer();

function encode<T>(write: (w: Writer, m: T) => void, m: T): Buffer {
  shared.pos = 0;
  write(shared, m);
  return Buffer.from(shared.buf.subarray(0, shared.pos));
}

/** The bytes of one SessionRequest. */
export const encodeSessionRequest = (m: SessionRequest): Buffer => encode(sessionRequest, m);

/** The bytes of one SessionResponse. */
export const encodeSessionResponse = (m: SessionResponse): Buffer => encode(sessionResponse, m);
