import { expect } from 'chai';
import * as protoLoader from '@grpc/proto-loader';
import { POLICY_PROTO_OPTIONS, POLICY_PROTO_PATH, loadPolicyPackageDefinition } from '../src/policy-proto.js';
import { encodeSessionRequest, encodeSessionResponse } from '../src/session-encoder.js';

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
  }
});

describe('the Session method', function () {
  it('writes with the encoders, on both processes\' definition', function () {
    const session = (loadPolicyPackageDefinition()[`${PKG}Policy`] as unknown as Record<string, Record<string, unknown>>)['Session'];
    expect(session?.['requestSerialize']).to.equal(encodeSessionRequest);
    expect(session?.['responseSerialize']).to.equal(encodeSessionResponse);
  });
});
