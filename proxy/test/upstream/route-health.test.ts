import { expect } from 'chai';
import { afterAttempt, closedState, isAvailable, pickRoute, stateValue, type RouteHealthState } from '../../src/upstream/route-health.js';
import { RetryBudget } from '../../src/upstream/retry-budget.js';
import { failureOfNetwork, failureOfStatus } from '../../src/upstream/attempt-outcome.js';

const B = { failureThreshold: 3, coolDownMs: 1_000 };

describe('route health and the retry budget', function () {
  it('opens after the threshold of consecutive failures, half-opens after the cool-down, closes on a served probe', function () {
    let s = closedState();
    s = afterAttempt(s, 'unavailable', 0, B);
    s = afterAttempt(s, 'refused', 0, B);
    expect(stateValue(s, 0)).to.equal(0);
    s = afterAttempt(s, 'timeout', 10, B);
    expect(stateValue(s, 10)).to.equal(2);
    expect(isAvailable(s, 500)).to.equal(false);
    expect(stateValue(s, 1_010)).to.equal(1);
    expect(isAvailable(s, 1_010)).to.equal(true);
    expect(isAvailable({ ...s, probing: true }, 1_010)).to.equal(false);
    // A failed probe opens it for a fresh cool-down; a served one closes it.
    expect(stateValue(afterAttempt({ ...s, probing: true }, 'unavailable', 1_010, B), 1_500)).to.equal(2);
    expect(afterAttempt({ ...s, probing: true }, 'served', 1_010, B)).to.deep.equal(closedState());
  });

  it('skips a throttled route for its retry-after without counting it towards opening', function () {
    let s = closedState();
    for (let i = 0; i < 10; i += 1) s = afterAttempt(s, 'throttled', 0, B, 2_000);
    expect(s.failures).to.equal(0);
    expect(stateValue(s, 0)).to.equal(0);
    expect(isAvailable(s, 1_999)).to.equal(false);
    expect(isAvailable(s, 2_000)).to.equal(true);
  });

  it('picks the first available route in order; with none, the one available soonest, and only for a first attempt', function () {
    const states = new Map<string, RouteHealthState>([
      ['a', { failures: 3, openUntil: 5_000, probing: false, skipUntil: 0 }],
      ['b', { failures: 0, openUntil: 0, probing: false, skipUntil: 3_000 }],
      ['c', closedState()],
    ]);
    const of = (r: string) => states.get(r) as RouteHealthState;
    expect(pickRoute(['a', 'b', 'c'], of, 0, true)).to.equal('c');
    expect(pickRoute(['a', 'b'], of, 0, true)).to.equal('b');
    expect(pickRoute(['a', 'b'], of, 0, false)).to.equal(undefined);
  });

  it('keeps retries within 20% of requests over 10 s, at least 10, and forgets seconds that passed', function () {
    let now = 0;
    const budget = new RetryBudget(0.2, 10, () => now);
    for (let i = 0; i < 100; i += 1) budget.request();
    let granted = 0;
    for (let i = 0; i < 50; i += 1) if (budget.tryRetry()) granted += 1;
    expect(granted).to.equal(20);
    now = 10_500;
    for (let i = 0; i < 5; i += 1) budget.request();
    granted = 0;
    for (let i = 0; i < 50; i += 1) if (budget.tryRetry()) granted += 1;
    expect(granted).to.equal(10);
  });

  it('moves on only on CONTRACT\'s causes', function () {
    for (const s of [401, 403, 404, 429, 500, 502, 503, 529]) expect(failureOfStatus(s, {}).retryable, String(s)).to.equal(true);
    for (const s of [400, 413, 422, 504, 402]) expect(failureOfStatus(s, {}).retryable, String(s)).to.equal(false);
    expect(failureOfStatus(429, { 'retry-after': '7' })).to.deep.equal({ outcome: 'throttled', retryable: true, retryAfterMs: 7_000 });
    expect(failureOfNetwork({ code: 'ECONNREFUSED' })).to.deep.equal({ outcome: 'refused', retryable: true });
    expect(failureOfNetwork({ code: 'UND_ERR_CONNECT_TIMEOUT' })).to.deep.equal({ outcome: 'timeout', retryable: true });
    expect(failureOfNetwork({ code: 'ECONNRESET' }).retryable).to.equal(false);
  });
});

describe('routes of a grant (negotiated with older policy services)', function () {
  it('uses Grant.routes when sent, else the one route (a policy service that predates routes), on the default upstream', async function () {
    const { routesOf } = await import('../../src/upstream/route-loop.js');
    const route = { upstream: '', upstream_model: 'm', call_region: 'eu-west-2', processing_regions: ['eu-west-2'], evidence: null };
    const evidence = { regions_basis: 'verified' as const, evidence_unix_ms: 1, evidence_sha256: 'ab' };
    const grant = { key: { key_id: 'k', account_id: 'a', environment: 'live', residency: 'uk', privacy_mode: 'off' }, model: 'x', route, lease_id: '', lease_expires_unix_ms: 0, reserved_units: 0, evidence, routes: [] } as const;
    expect(routesOf({ ...grant, routes: [] })).to.deep.equal([{ ...route, upstream: 'default', evidence }]);
    const two = [{ ...route, upstream: 'a' }, { ...route, upstream: 'b', call_region: 'eu-west-1' }];
    expect(routesOf({ ...grant, routes: two })).to.equal(two);
  });
});
