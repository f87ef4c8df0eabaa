import { expect } from 'chai';
import { regionsOfAnswer } from '../../src/residency/control-plane.js';
import { checkRoute } from '../../src/residency/route-evidence.js';
import type { CatalogueRoute } from '../../src/catalogue.js';

const EU = ['eu-central-1', 'eu-west-1', 'eu-west-3', 'eu-north-1', 'eu-south-1', 'eu-south-2', 'eu-central-2'];
const route: CatalogueRoute = { upstream: 'default', upstream_model: 'eu.m-v1:0', call_region: 'eu-central-1', processing_regions: EU };
const HOUR = 3_600_000;

describe('route evidence', function () {
  it('serves a route verified inside its tier, in the verified regions, with the evidence\'s time and digest', function () {
    const c = checkRoute('m', 'eu', route, EU, { atMs: 1_000, regions: ['eu-west-1', 'eu-central-1'], sha256: 'ab' }, 1_000 + HOUR, 24 * HOUR);
    expect(c).to.deep.equal({
      ok: true,
      route: { ...route, processing_regions: ['eu-central-1', 'eu-west-1'] },
      evidence: { regions_basis: 'verified', evidence_unix_ms: 1_000, evidence_sha256: 'ab' },
    });
  });

  it('refuses a route never verified, one reaching outside the tier (naming the region), and one verified too long ago', function () {
    expect(checkRoute('m', 'eu', route, EU, undefined, 0, HOUR)).to.deep.include({ ok: false });
    const wide = checkRoute('m', 'eu', route, EU, { atMs: 0, regions: [...EU, 'us-east-1'], sha256: 'ab' }, 1, HOUR);
    expect(wide.ok === false && wide.reason).to.match(/us-east-1, outside the tier/);
    const old = checkRoute('m', 'eu', route, EU, { atMs: 0, regions: EU, sha256: 'ab' }, 25 * HOUR, 24 * HOUR);
    expect(old.ok === false && old.reason).to.match(/last verified 25 h ago/);
    expect(checkRoute('m', 'eu', route, EU, { atMs: 0, regions: EU, sha256: 'ab' }, 24 * HOUR, 24 * HOUR).ok).to.equal(true);
  });

  it('reads the destination regions from the control plane\'s answers, and nothing from a malformed one', function () {
    const profile = { models: [{ modelArn: 'arn:aws:bedrock:eu-west-1::foundation-model/m' }, { modelArn: 'arn:aws:bedrock:eu-central-2::foundation-model/m' }, { modelArn: 'arn:aws:bedrock:eu-west-1::foundation-model/m' }] };
    expect(regionsOfAnswer('profile', profile)).to.deep.equal(['eu-west-1', 'eu-central-2']);
    expect(regionsOfAnswer('model', { modelDetails: { modelArn: 'arn:aws:bedrock:eu-west-2::foundation-model/m' } })).to.deep.equal(['eu-west-2']);
    expect(regionsOfAnswer('profile', { models: [] })).to.equal(undefined);
    expect(regionsOfAnswer('profile', { models: [{ modelArn: 'not-an-arn' }] })).to.equal(undefined);
    expect(regionsOfAnswer('model', { modelDetails: {} })).to.equal(undefined);
  });
});
