import { GatewayError, type Grant, type Route, type UpstreamPlatform } from '@gateway/shared';
import { abortReason, attemptExchange, zeroUsage, type AttemptRecord, type CountContext, type Exchange, type ExchangeResult, type Responder } from '../exchange.js';
import { setRoutingHeaders } from '../http/response-headers.js';
import type { ProxyMetrics } from '../proxy-metrics.js';
import type { AbortHandle } from '../abort-handle.js';
import type { AttestedAttempt } from '../attestation/attestation-claims.js';
import type { AttemptFailure, AttemptOutcome } from './attempt-outcome.js';
import type { RetryBudget } from './retry-budget.js';
import { pickRoute, type RouteHealth } from './route-health.js';
import type { UpstreamRegistry } from './upstream-registry.js';

/** The ordered routes of a grant; from a policy service that predates `routes`, its one route. */
export function routesOf(grant: Grant): Route[] {
  if (grant.routes.length > 0) return grant.routes;
  return [{ ...grant.route, upstream: grant.route.upstream === '' ? 'default' : grant.route.upstream, evidence: grant.evidence }];
}

export interface RouteLoopOptions {
  registry: UpstreamRegistry;
  maxAttempts: number;
  /** live keys: the upstreams; test keys: the stub on every route */
  responderFor: (upstream: string) => Responder | undefined;
  /** live keys only: test keys never touch route health, the budget or the upstream metrics */
  health?: RouteHealth;
  budget?: RetryBudget;
  metrics?: ProxyMetrics;
}

interface Candidate {
  route: Route;
  name: string;
  platform: UpstreamPlatform;
  responder: Responder;
}

/**
 * The request's trip through its routes (CONTRACT.md "Routes and failover"): the routes of the key's tier in
 * order, healthy ones first; on to the next only on a failover cause and only while nothing reached the client;
 * at most `maxAttempts`, retries within the budget; each attempt settled (and its upstream call aborted) before
 * the next starts. The result is the serving attempt's (so it is metered once), or the last failure's.
 */
export class RouteLoop implements Responder {
  constructor(private readonly o: RouteLoopOptions) {}

  async respond(x: Exchange): Promise<ExchangeResult> {
    const candidates = this.candidates(x.grant);
    if (candidates.length === 0) throw notConfigured();
    this.o.budget?.request();
    const attempts: AttemptRecord[] = [];
    const failed: AttestedAttempt[] = [];
    const tried = new Set<Candidate>();
    // The last attempt's result and route. The result is completed in place at the end: spreading it into a new
    // object per attempt and again at the end was ~10 µs a request of this function's self time (profile,
    // bench:floor under load).
    let last: ExchangeResult | undefined;
    let lastTried: Candidate | undefined;
    for (let n = 0; n < this.o.maxAttempts; n += 1) {
      // Revoked or gone between attempts: nothing more is sent, and failed attempts bill nothing.
      if (x.signal.aborted) return { ...aborted(x.signal), attempts, ...(lastTried === undefined ? {} : { route: lastTried.route, platform: lastTried.platform }) };
      const next = this.pick(candidates.filter((c) => !tried.has(c)), n);
      if (next === undefined) break;
      if (n > 0) {
        // The budget keeps retries from piling load on the surviving routes. A retry after a refused connection
        // adds none: the failed attempt reached no platform, so the request still costs the upstreams one call.
        const free = last?.failure?.outcome === 'refused';
        if (!free && this.o.budget !== undefined && !this.o.budget.tryRetry()) break;
        this.o.metrics?.upstreamFailovers.inc({ tier: x.grant.key.residency });
      }
      tried.add(next);
      const r = await this.attempt(next, n, x, failed);
      attempts.push(r.record);
      last = r.result;
      lastTried = next;
      const failure = r.result.failure;
      if (failure === undefined || x.res.headersSent) break;
      // Not served: the answer, whichever it is, attests this attempt as failed.
      failed.push({ platform: next.platform, call_region: next.route.call_region, outcome: failure.outcome });
      x.attestation.attemptEnded();
      if (!failure.retryable) break;
    }
    const result = last as ExchangeResult;
    result.attempts = attempts;
    if (lastTried !== undefined) {
      result.route = lastTried.route;
      result.platform = lastTried.platform;
    }
    return result;
  }

  /**
   * One attempt on one route: the routing headers and the attestation name it, the body carries its model id,
   * its platform's responder makes the call. One function per attempt, so a trace span can wrap it.
   */
  private async attempt(c: Candidate, n: number, x: Exchange, failed: readonly AttestedAttempt[]): Promise<{ result: ExchangeResult; record: AttemptRecord }> {
    const { route, name, platform } = c;
    const health = this.o.health;
    const started = performance.now();
    // The messages route named the grant's first route before the loop: set again only for another one.
    if (n > 0 || !sameRouting(route, x.grant.route)) setRoutingHeaders(x.res, x.grant.key.residency, route);
    x.attestation.attempting(route, platform, failed);
    health?.begin(keyed(c), platform);
    let result: ExchangeResult;
    try {
      result = await c.responder.respond(attemptExchange(x, { ...x.grant, route, evidence: route.evidence }, { ...x.body, model: route.upstream_model }, n));
    } catch (err) {
      const error = err instanceof GatewayError ? err : new GatewayError('upstream_fault', 500, 'api_error', 'The gateway failed calling the upstream.', false, { cause: err });
      result = { usage: zeroUsage(), outcome: 'error', error, failure: { outcome: error.status < 500 ? 'client_error' : 'unavailable', retryable: false } };
    }
    const outcome = outcomeOf(result, x);
    health?.end(keyed(c), platform, outcome, result.failure?.retryAfterMs);
    if (outcome !== undefined) this.o.metrics?.upstreamAttempts.inc({ upstream: name, platform, call_region: route.call_region, outcome });
    return { result, record: { upstream: name, platform, call_region: route.call_region, outcome: outcome ?? 'client_error', ms: performance.now() - started } };
  }

  /**
   * A count goes down the same routes on the same causes (CONTRACT.md "Routes and failover" names no exception,
   * and a tier whose first route is down must still count): open routes skipped, at most `maxAttempts`, retries
   * within the budget. A count bills nothing and Bedrock's is the gateway's own estimate, so its attempts feed
   * neither the breaker nor the upstream metrics; those follow the message calls.
   */
  async countTokens(body: Record<string, unknown>, c: CountContext): Promise<number> {
    const candidates = this.candidates(c.grant);
    if (candidates.length === 0) throw notConfigured();
    this.o.budget?.request();
    const failed: AttestedAttempt[] = [];
    let lastError: unknown;
    let lastFailure: AttemptFailure | undefined;
    const tried: Candidate[] = [];
    for (let n = 0; n < this.o.maxAttempts; n += 1) {
      const next = this.pick(candidates.filter((x) => !tried.includes(x)), n);
      if (next === undefined || c.signal.aborted) break;
      if (n > 0 && lastFailure?.outcome !== 'refused' && this.o.budget !== undefined && !this.o.budget.tryRetry()) break;
      tried.push(next);
      c.routing?.(next.route);
      c.attestation.attempting(next.route, next.platform, failed);
      let failure: AttemptFailure | undefined;
      try {
        return await next.responder.countTokens(
          { ...body, model: next.route.upstream_model },
          { ...c, grant: { ...c.grant, route: next.route, evidence: next.route.evidence }, failed: (f) => (failure = f) },
        );
      } catch (err) {
        lastError = err;
        lastFailure = failure;
        if (failure === undefined || !failure.retryable) throw err;
        failed.push({ platform: next.platform, call_region: next.route.call_region, outcome: failure.outcome });
        c.attestation.attemptEnded();
      }
    }
    throw lastError ?? notConfigured();
  }

  /** The next route of those left: the first available by health; a first attempt takes the soonest to reopen. */
  private pick(left: readonly Candidate[], n: number): Candidate | undefined {
    const health = this.o.health;
    return health === undefined ? left[0] : pickRoute(left, (c) => health.stateOf(keyed(c)), Date.now(), n === 0);
  }

  /** The grant's routes whose upstream is configured here, in order (the others are skipped). */
  private candidates(grant: Grant): Candidate[] {
    const out: Candidate[] = [];
    for (const route of routesOf(grant)) {
      const upstream = this.o.registry.get(route.upstream);
      const responder = upstream === undefined ? undefined : this.o.responderFor(upstream.name);
      if (upstream !== undefined && responder !== undefined) out.push({ route, name: upstream.name, platform: upstream.platform, responder });
    }
    return out;
  }
}

/** How the attempt went for the route; undefined when the client left or the key was revoked before it answered. */
function outcomeOf(r: ExchangeResult, x: Exchange): AttemptOutcome | undefined {
  if (r.failure !== undefined) return r.failure.outcome;
  if (r.outcome === 'client_disconnect' || r.outcome === 'revoked') return x.res.headersSent ? 'served' : undefined;
  return 'served';
}

/** Whether two routes show the same routing headers (x-gateway-model, x-gateway-regions). */
function sameRouting(a: Route, b: Route): boolean {
  if (a.upstream_model !== b.upstream_model || a.processing_regions.length !== b.processing_regions.length) return false;
  return a.processing_regions.every((r, i) => r === b.processing_regions[i]);
}

const keyed = (c: Candidate) => ({ upstream: c.name, call_region: c.route.call_region, upstream_model: c.route.upstream_model });

function aborted(signal: AbortHandle): ExchangeResult {
  const reason = abortReason(signal);
  return { usage: zeroUsage(), outcome: reason === undefined ? 'client_disconnect' : 'revoked', ...(reason === undefined ? {} : { error: reason }) };
}

export function notConfigured(): GatewayError {
  return new GatewayError('no_upstream', 503, 'api_error', 'no upstream configured', true, { shouldRetry: false });
}

