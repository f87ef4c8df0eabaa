import { expect } from 'chai';
import type { GatewayError } from '@gateway/shared';
import { apiKeyFrom, apiVersionFrom, testScenarioFrom } from '../../src/http/request-headers.js';

describe('request headers', function () {
  it('takes authorization: Bearer over x-api-key', function () {
    expect(apiKeyFrom({ authorization: 'Bearer gw_a', 'x-api-key': 'gw_b' })).to.equal('gw_a');
    expect(apiKeyFrom({ authorization: 'bearer   gw_a ' })).to.equal('gw_a');
    expect(apiKeyFrom({ 'x-api-key': 'gw_b' })).to.equal('gw_b');
    expect(apiKeyFrom({})).to.equal('');
    // a malformed authorization header is a malformed key, never a silent fallback to x-api-key
    expect(apiKeyFrom({ authorization: 'Basic abc', 'x-api-key': 'gw_b' })).to.equal('Basic abc');
  });

  it('accepts the two supported versions, defaults to 2023-06-01, and lets compat-version win', function () {
    expect(apiVersionFrom({})).to.equal('2023-06-01');
    expect(apiVersionFrom({ 'anthropic-version': '2026-10-21' })).to.equal('2026-10-21');
    expect(apiVersionFrom({ 'compat-version': '2023-06-01', 'anthropic-version': '2026-10-21' })).to.equal('2023-06-01');
    const bad = apiVersionFrom({ 'compat-version': '2020-01-01' }) as GatewayError;
    expect(bad.status).to.equal(400);
    expect(bad.message).to.contain('compat-version').and.contain('2026-10-21');
  });

  it('knows every test scenario and refuses others', function () {
    expect(testScenarioFrom({})).to.equal(undefined);
    expect(testScenarioFrom({ 'x-gateway-test-scenario': 'slow_stream' })).to.equal('slow_stream');
    expect((testScenarioFrom({ 'x-gateway-test-scenario': 'nope' }) as GatewayError).status).to.equal(400);
  });
});
