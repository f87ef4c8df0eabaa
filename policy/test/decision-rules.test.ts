import { expect } from 'chai';
import { IpAllowlist, NOT_PERMITTED_MESSAGE, type GatewayError } from '@gateway/shared';
import { ModelCatalogue, type CatalogueModel } from '../src/catalogue.js';
import {
  authenticate,
  callableModels,
  checkMaxTokens,
  checkModelPermitted,
  checkSource,
  resolveModel,
  routesInTier,
} from '../src/decision-rules.js';
import type { CachedKey } from '../src/key-cache.js';
import type { KeyRecord } from '../src/db/records.js';

const catalogue = ModelCatalogue.load();
const KEY = `gw_test_${'a'.repeat(32)}`;

function entry(over: Partial<KeyRecord> = {}, planModels: string[] | null = null, expiresAtMs: number | null = null): CachedKey {
  const record: KeyRecord = {
    id: 'key_1', account_id: 'acct_1', name: 'k', key_hash: 'h', display: 'd', environment: 'test', residency: 'eu',
    privacy_mode: 'off', allowed_models: null, allowed_ips: null, expires_at: null, requests_per_minute: null,
    rotated_from: null, created_at: '', revoked_at: null, last_used_at: null, ...over,
  };
  return {
    record,
    residency: record.residency,
    account: { id: 'acct_1', name: 'a', plan: 'p', anchor_day: null, created_at: '', overrides: { requests_per_minute: null, concurrency: null, allowance: null, overage_allowed: null, overage_ceiling: null } },
    limits: { plan: 'p', residency: 'eu', requests_per_minute: 10, concurrency: 2, allowance: 100, overage_allowed: false, overage_ceiling: 0, models: planModels, anchor_day: null },
    allowlist: record.allowed_ips === null ? null : new IpAllowlist(record.allowed_ips),
    expiresAtMs,
  };
}

const model = (id: string) => catalogue.resolve(id) as CatalogueModel;
const err = (v: unknown) => v as GatewayError;

describe('decision rules', function () {
  describe('authenticate', function () {
    const found = entry();
    const lookup = (k: string) => (k === KEY ? found : undefined);

    it('refuses missing, malformed and unknown keys with 401 without looking malformed ones up', function () {
      let lookups = 0;
      const counting = (k: string) => {
        lookups += 1;
        return lookup(k);
      };
      expect(err(authenticate('', counting, 0)).status).to.equal(401);
      expect(err(authenticate('gw_test_short', counting, 0)).type).to.equal('authentication_error');
      expect(err(authenticate(`gw_prod_${'a'.repeat(32)}`, counting, 0)).status).to.equal(401);
      expect(lookups).to.equal(0);
      expect(err(authenticate(`gw_test_${'b'.repeat(32)}`, counting, 0)).status).to.equal(401);
      expect(lookups).to.equal(1);
    });

    it('refuses revoked and expired keys, and admits a key until its expiry instant', function () {
      expect(err(authenticate(KEY, () => entry({ revoked_at: '2026-01-01T00:00:00Z' }), 0)).message).to.contain('revoked');
      const expiring = entry({}, null, 1000);
      expect(authenticate(KEY, () => expiring, 999)).to.equal(expiring);
      expect(err(authenticate(KEY, () => expiring, 1000)).message).to.contain('expired');
      expect(authenticate(KEY, lookup, 0)).to.equal(found);
    });
  });

  describe('source address', function () {
    it('admits anyone without allowed_ips', function () {
      expect(checkSource(entry(), '198.51.100.7')).to.equal(undefined);
    });

    it('matches single addresses and CIDRs, IPv4, IPv6 and IPv4-mapped IPv6', function () {
      const e = entry({ allowed_ips: ['192.0.2.10', '10.0.0.0/8', '2001:db8::/32', '::1'] });
      for (const ok of ['192.0.2.10', '10.200.1.1', '::ffff:10.1.2.3', '2001:db8:ffff::1', '::1']) {
        expect(checkSource(e, ok), ok).to.equal(undefined);
      }
      for (const bad of ['192.0.2.11', '11.0.0.1', '2001:db9::1', '::2', 'not-an-ip', '']) {
        const r = checkSource(e, bad);
        expect(r?.status, bad).to.equal(403);
        expect(r?.message).to.equal(NOT_PERMITTED_MESSAGE);
      }
    });
  });

  describe('models', function () {
    it('404s unknown models, alpha-fable-5 included', function () {
      expect(err(resolveModel(catalogue, 'alpha-fable-5')).status).to.equal(404);
      expect(err(resolveModel(catalogue, 'alpha-fable-5')).type).to.equal('not_found_error');
      expect((resolveModel(catalogue, 'alpha-haiku-4-5-20251015') as CatalogueModel).id).to.equal('alpha-haiku-4-5');
    });

    it('caps max_tokens at the model maximum', function () {
      expect(checkMaxTokens(model('alpha-sonnet-4-6'), 64000)).to.equal(undefined);
      expect(checkMaxTokens(model('alpha-sonnet-4-6'), 64001)?.status).to.equal(400);
    });

    it('refuses models outside allowed_models or the plan with the one permission body', function () {
      const keyLimited = entry({ allowed_models: ['alpha-sonnet-5'] });
      expect(checkModelPermitted(keyLimited, model('alpha-sonnet-5'))).to.equal(undefined);
      const refused = checkModelPermitted(keyLimited, model('alpha-opus-5'));
      expect(refused?.status).to.equal(403);
      expect(refused?.type).to.equal('permission_error');
      expect(refused?.message).to.equal(NOT_PERMITTED_MESSAGE);
      const planLimited = entry({}, ['alpha-haiku-4-5']);
      expect(checkModelPermitted(planLimited, model('alpha-sonnet-5'))?.status).to.equal(403);
    });
  });

  describe('residency', function () {
    it('never widens: a uk key has no route for an eu-only model', function () {
      const r = err(routesInTier(catalogue, model('alpha-haiku-4-5'), 'uk'));
      expect(r.status).to.equal(403);
      expect(r.type).to.equal('residency_unavailable');
      const ok = routesInTier(catalogue, model('alpha-sonnet-4-6'), 'uk');
      expect(ok).to.deep.equal([{ upstream: 'default', upstream_model: 'anthropic.alpha-sonnet-4-6-v1:0', call_region: 'eu-west-2', processing_regions: ['eu-west-2'] }]);
    });

    it('lists what a key can call: tier ∩ plan ∩ allowed_models', function () {
      expect(callableModels(catalogue, entry({ residency: 'uk' })).map((m) => m.id)).to.deep.equal(['alpha-sonnet-4-6', 'alpha-opus-4-6']);
      expect(callableModels(catalogue, entry()).length).to.equal(5);
      expect(callableModels(catalogue, entry({ residency: 'uk', allowed_models: ['alpha-opus-4-6', 'alpha-haiku-4-5'] })).map((m) => m.id)).to.deep.equal(['alpha-opus-4-6']);
      expect(callableModels(catalogue, entry({}, ['alpha-opus-5', 'alpha-haiku-4-5'])).map((m) => m.id)).to.deep.equal(['alpha-opus-5', 'alpha-haiku-4-5']);
    });
  });
});
