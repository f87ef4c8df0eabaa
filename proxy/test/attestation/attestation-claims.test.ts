import { expect } from 'chai';
import type { KeyIdentity, Route } from '@gateway/shared';
import { attestationClaims, type AttestationFacts } from '../../src/attestation/attestation-claims.js';

const key: KeyIdentity = { key_id: 'key_1', account_id: 'acct_1', environment: 'live', residency: 'eu', privacy_mode: 'flag' };
const route: Route = { upstream: 'default', evidence: null, upstream_model: 'eu.m', call_region: 'eu-central-1', processing_regions: ['eu-central-1', 'eu-west-1'] };
const facts = (over: Partial<AttestationFacts> = {}): AttestationFacts => ({
  requestId: 'req_1', key, catalogueSha256: 'c'.repeat(64), route, evidence: null, piiCounts: {}, forwardedSha256: 'f'.repeat(64), namesModelSha256: 'a'.repeat(64), ...over,
});

describe('attestation claims', function () {
  it('are the contract\'s fields in its order, taken from the request\'s facts', function () {
    expect(attestationClaims(facts({ piiCounts: { EMAIL: 2, PHONE: 0, IBAN: undefined } }), 200, 1_700_000_000)).to.deep.equal({
      request_id: 'req_1', account_id: 'acct_1', key_id: 'key_1', environment: 'live', status: 200, residency: 'eu',
      call_region: 'eu-central-1', processing_regions: ['eu-central-1', 'eu-west-1'], regions_basis: 'declared',
      evidence_at: null, evidence_sha256: null, upstream_model: 'eu.m', catalogue_sha256: 'c'.repeat(64),
      privacy_mode: 'flag', pii_counts: { EMAIL: 2 }, forwarded_body_sha256: 'f'.repeat(64), iat: 1_700_000_000,
      attempts: [], platform: null, names_model_sha256: 'a'.repeat(64),
    });
  });

  it('list the attempts in order: the failed ones, then for a 200 the one in flight as served with its platform', function () {
    const attempts = [{ platform: 'bedrock' as const, call_region: 'eu-central-1', outcome: 'unavailable' }];
    const current = { platform: 'vertex' as const, call_region: 'europe-west4' };
    expect(attestationClaims(facts({ attempts, current }), 200, 1)).to.deep.include({
      attempts: [...attempts, { platform: 'vertex', call_region: 'europe-west4', outcome: 'served' }], platform: 'vertex',
    });
    // Not a 200: nothing served, whatever was in flight.
    expect(attestationClaims(facts({ attempts, current }), 529, 1)).to.deep.include({ attempts, platform: null });
  });

  it('say "verified" only with the control plane\'s evidence, its time in RFC 3339 and its digest', function () {
    const evidence = { regions_basis: 'verified' as const, evidence_unix_ms: Date.UTC(2026, 10, 26, 9, 30, 5, 250), evidence_sha256: 'e'.repeat(64) };
    expect(attestationClaims(facts({ evidence }), 200, 1)).to.include({ regions_basis: 'verified', evidence_at: '2026-11-26T09:30:05Z', evidence_sha256: 'e'.repeat(64) });
    const declared = { regions_basis: 'declared' as const, evidence_unix_ms: 5, evidence_sha256: 'e'.repeat(64) };
    expect(attestationClaims(facts({ evidence: declared }), 200, 1)).to.include({ regions_basis: 'declared', evidence_at: null, evidence_sha256: null });
  });

  it('sign what is known from an older policy service: no catalogue digest, no key on a refusal', function () {
    const c = attestationClaims(facts({ key: null, catalogueSha256: null, route: null, forwardedSha256: null }), 429, 1);
    expect(c).to.include({ account_id: null, key_id: null, environment: null, residency: null, privacy_mode: null, catalogue_sha256: null, status: 429 });
    expect(c).to.include({ call_region: null, upstream_model: null, forwarded_body_sha256: null, regions_basis: 'declared' });
    expect(c.processing_regions).to.deep.equal([]);
  });

  it('copy the route\'s regions rather than share them', function () {
    const c = attestationClaims(facts(), 200, 1);
    c.processing_regions.push('us-east-1');
    expect(route.processing_regions).to.have.length(2);
  });
});
