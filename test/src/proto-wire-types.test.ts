import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadPolicyPackageDefinition } from '@gateway/shared';
import { REPO_ROOT } from './harness/gateway.js';

/**
 * The TypeScript wire types in shared/src/policy-wire.ts are written by hand against proto/policy.proto.
 * This checks that every field the proto declares appears in the matching interface, so the two cannot drift.
 */
const TS_NAMES: Record<string, string> = {
  DecideRequest: 'DecideRequest', Caller: 'Caller', Denial: 'Denial', RateLimitPosition: 'RateLimitPosition',
  KeyIdentity: 'KeyIdentity', Route: 'Route', Grant: 'Grant', Decision: 'DecisionWire', TokenUsage: 'TokenUsage',
  UsageReport: 'UsageReport', UsageAck: 'UsageAck', ReleaseRequest: 'ReleaseRequest', LeaseRef: 'LeaseRefWire',
  RenewLeasesRequest: 'RenewLeasesRequest', RenewLeasesAck: 'RenewLeasesAck', Revocation: 'Revocation',
  ListModelsRequest: 'ListModelsRequest', Pricing: 'Pricing', ModelEntry: 'ModelEntryWire', ModelPage: 'ModelPage',
  ListModelsResponse: 'ListModelsResponse', GetUsageResponse: 'GetUsageResponse',
};

describe('proto ↔ TypeScript wire types', function () {
  it('declares every proto field in the hand-written interfaces', function () {
    const ts = readFileSync(resolve(REPO_ROOT, 'shared/src/policy-wire.ts'), 'utf8');
    const def = loadPolicyPackageDefinition();
    let checked = 0;
    for (const [protoName, tsName] of Object.entries(TS_NAMES)) {
      const type = def[`gateway.policy.v1.${protoName}`] as { type: { field: Array<{ name: string }> } } | undefined;
      expect(type, protoName).to.not.equal(undefined);
      const body = new RegExp(`export interface ${tsName} \\{([\\s\\S]*?)\\n\\}`).exec(ts)?.[1];
      expect(body, `interface ${tsName}`).to.be.a('string');
      for (const f of type?.type.field ?? []) {
        expect(body, `${protoName}.${f.name}`).to.match(new RegExp(`\\b${f.name}\\??:`));
        checked += 1;
      }
    }
    expect(checked).to.be.greaterThan(60);
  });
});
