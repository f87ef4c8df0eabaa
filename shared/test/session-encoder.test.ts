import { expect } from 'chai';
import * as protoLoader from '@grpc/proto-loader';
import { POLICY_PROTO_OPTIONS, POLICY_PROTO_PATH, loadPolicyPackageDefinition } from '../src/policy-proto.js';
import { encodeSessionRequest, encodeSessionResponse } from '../src/session-encoder.js';
import { decodeSessionResponse } from '../src/session-decoder.js';

// proto-loader's conversion is what every peer decodes with (and what encoded SessionRequest before): a message
// the encoder writes must read back as the same message proto-loader's own bytes do.
const loader = protoLoader.loadSync(POLICY_PROTO_PATH, POLICY_PROTO_OPTIONS);
const PKG = 'gateway.policy.v1.';
interface Field { name: string; type: string; label: string; typeName: string }
const typeOf = (name: string) => loader[PKG + name] as unknown as {
  type: { field: Field[] };
  serialize: (v: object) => Buffer;
  deserialize: (b: Buffer) => object;
};

const LONG_TEXT = `é☃ ${'x'.repeat(200)}`;
/**
 * A message of `name` with every field set to a value that is not its default (so a field the encoder left out,
 * or wrote under another number, reads back different), variant `n` choosing among values.
 */
function sample(name: string, n: number, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of typeOf(name).type.field) {
    const one = (): unknown => {
      switch (f.type) {
        case 'TYPE_STRING': return [`${f.name}-${n}`, LONG_TEXT, 'ü'][n % 3];
        case 'TYPE_BOOL': return true;
        case 'TYPE_UINT32': return [7, 4_000_000_000, 300][n % 3];
        case 'TYPE_UINT64': return [2 ** 40 + 3, 9_007_199_254_740_991, 1][n % 3];
        case 'TYPE_INT64': return [1_764_000_000_123, -5, 2 ** 31][n % 3];
        case 'TYPE_ENUM': return ['CREATE_MESSAGE', 'COUNT_TOKENS', 2][n % 3];
        case 'TYPE_MESSAGE': return sample(f.typeName, n, depth + 1);
        default: throw new Error(`no sample for ${f.type} (${name}.${f.name}): extend the test and the encoder`);
      }
    };
    if (f.type === 'TYPE_MESSAGE' && depth > 1) continue;
    out[f.name] = f.label === 'LABEL_REPEATED' ? [one(), f.type === 'TYPE_STRING' ? '' : one()] : one();
  }
  return out;
}

describe('SessionRequest encoder', function () {
  const request = typeOf('SessionRequest');
  const cases: Array<[string, Record<string, unknown>]> = [];
  for (let n = 0; n < 3; n += 1) {
    // the scalars of SessionRequest (its messages are a oneof: one at a time below)
    const top = sample('SessionRequest', n, 2);
    cases.push([`decide ${n}`, { ...top, decide: sample('DecideRequest', n) }]);
    cases.push([`report ${n}`, { ...top, report: sample('UsageReport', n) }]);
  }
  cases.push(['batch', { id: 0, batch: { requests: cases.map(([, m]) => m) } }]);
  cases.push(['defaults', { id: 0, decide: { caller: { api_key: '', source_ip: '', request_id: '' }, operation: 'OPERATION_UNSPECIFIED', model: '', stream: false, max_tokens: 0, input_tokens_estimate: 0, attempt_id: '' } }]);
  cases.push(['empty', {}]);

  for (const [label, message] of cases) {
    it(`writes what proto-loader reads back as its own: ${label}`, function () {
      const expected = request.deserialize(request.serialize(message));
      expect(request.deserialize(encodeSessionRequest(message))).to.deep.equal(expected);
    });
  }

});

describe('SessionResponse encoder', function () {
  const response = typeOf('SessionResponse');
  const cases: Array<[string, Record<string, unknown>]> = [];
  for (let n = 0; n < 3; n += 1) {
    // the scalars of SessionResponse (its messages are a oneof: one at a time)
    const top = sample('SessionResponse', n, 2);
    const { allow, deny, ...d } = sample('Decision', n);
    cases.push([`allow ${n}`, { ...top, decision: { ...d, allow } }]);
    cases.push([`deny ${n}`, { ...top, decision: { ...d, deny } }]);
    cases.push([`ack ${n}`, { ...top, ack: sample('UsageAck', n) }]);
    cases.push([`fault ${n}`, { ...top, fault: sample('SessionFault', n) }]);
  }
  const { allow } = sample('Decision', 0);
  cases.push(['drain', { id: 0, drain: {} }]);
  cases.push(['an older policy service\'s grant (no routes, no evidence)', { id: 1, decision: { decision_id: 'd', rate_limit: null, allow: { ...(allow as object), routes: [], evidence: null } } }]);
  cases.push(['a refusal with nothing but defaults', { id: 1, decision: { decision_id: '', rate_limit: { limit: 0, remaining: 0, reset_unix: 0 }, deny: { http_status: 0, key: null } } }]);
  cases.push(['ack recorded false', { id: 2, ack: { recorded: false } }]);
  cases.push(['empty', {}]);

  for (const [label, message] of cases) {
    it(`writes what proto-loader reads back as its own: ${label}`, function () {
      const expected = response.deserialize(response.serialize(message));
      expect(response.deserialize(encodeSessionResponse(message))).to.deep.equal(expected);
    });
    it(`reads proto-loader's bytes as proto-loader does: ${label}`, function () {
      const bytes = response.serialize(message);
      expect(decodeSessionResponse(bytes)).to.deep.equal(response.deserialize(bytes));
    });
  }

  /** A length-delimited field (field number < 16, length < 128) around `bytes`. */
  const ld = (field: number, bytes: Buffer): Buffer => Buffer.concat([Buffer.from([(field << 3) | 2, bytes.length]), bytes]);
  // field 99 as a string, 98 a varint, 97 fixed64, 96 fixed32, 95 a group (start 3, a varint inside, end 4)
  const unknown = Buffer.from([0x9a, 0x06, 0x03, 0x61, 0x62, 0x63, 0x90, 0x06, 0xac, 0x02, 0x89, 0x06, 1, 2, 3, 4, 5, 6, 7, 8, 0x85, 0x06, 1, 2, 3, 4, 0xfb, 0x05, 0x08, 0x01, 0xfc, 0x05]);

  it('skips fields it does not know (a newer policy service\'s), at the top and inside a grant and its route', function () {
    const { allow } = sample('Decision', 0);
    const a = allow as Record<string, unknown>;
    const route = Buffer.concat([typeOf('Route').serialize(a['route'] as object), unknown]);
    const grant = Buffer.concat([typeOf('Grant').serialize({ ...a, route: null }), unknown, Buffer.from([(3 << 3) | 2, route.length]), route]);
    expect(grant.length).to.be.lessThan(4096);
    const grantField = Buffer.concat([Buffer.from([(3 << 3) | 2]), varint(grant.length), grant]);
    const decisionBytes = Buffer.concat([Buffer.from([(1 << 3) | 2, 1, 0x64]), grantField, unknown]);
    const bytes = Buffer.concat([Buffer.from([0x08, 0x07]), Buffer.from([(2 << 3) | 2]), varint(decisionBytes.length), decisionBytes, unknown, ld(3, Buffer.from([0x08, 0x01]))]);
    expect(decodeSessionResponse(bytes)).to.deep.equal(response.deserialize(bytes));
  });

  it('refuses truncated bytes rather than reading past them', function () {
    const bytes = response.serialize(cases[0]?.[1] ?? {});
    expect(() => decodeSessionResponse(bytes.subarray(0, bytes.length - 3))).to.throw(RangeError);
  });
});

function varint(n: number): Buffer {
  const out: number[] = [];
  for (; n > 0x7f; n >>>= 7) out.push((n & 0x7f) | 0x80);
  out.push(n);
  return Buffer.from(out);
}

describe('the Session method', function () {
  it('writes with the encoders, on both processes\' definition', function () {
    const session = (loadPolicyPackageDefinition()[`${PKG}Policy`] as unknown as Record<string, Record<string, unknown>>)['Session'];
    expect(session?.['requestSerialize']).to.equal(encodeSessionRequest);
    expect(session?.['responseSerialize']).to.equal(encodeSessionResponse);
    expect(session?.['responseDeserialize']).to.equal(decodeSessionResponse);
  });
});
