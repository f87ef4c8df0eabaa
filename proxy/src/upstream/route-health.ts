import type { AttemptOutcome } from './attempt-outcome.js';

/** 0 closed, 1 half-open, 2 open (the value of gateway_route_state). */
export type RouteStateValue = 0 | 1 | 2;

/** One route's health in this proxy. */
export interface RouteHealthState {
  /** consecutive failures while closed */
  failures: number;
  /** open until then (ms); 0 when closed */
  openUntil: number;
  /** a half-open probe is in flight */
  probing: boolean;
  /** a 429's retry-after: skipped until then, without counting as a failure */
  skipUntil: number;
}

export interface BreakerSettings {
  failureThreshold: number;
  coolDownMs: number;
}

export const closedState = (): RouteHealthState => ({ failures: 0, openUntil: 0, probing: false, skipUntil: 0 });

/** The gauge value of a state now. */
export function stateValue(s: RouteHealthState, now: number): RouteStateValue {
  if (s.openUntil === 0) return 0;
  return now < s.openUntil ? 2 : 1;
}

/** Whether a request may try the route now without waiting: closed and not skipped, or half-open with no probe out. */
export function isAvailable(s: RouteHealthState, now: number): boolean {
  if (now < s.skipUntil) return false;
  if (s.openUntil === 0) return true;
  return now >= s.openUntil && !s.probing;
}

/** When the route may be tried again: the later of its cool-down and its skip (for "the one whose cool-down ends first"). */
export function availableAt(s: RouteHealthState): number {
  return Math.max(s.openUntil, s.skipUntil);
}

/** The state after an attempt on the route ended (pure). 429 skips, other platform failures count, the rest closes. */
export function afterAttempt(s: RouteHealthState, outcome: AttemptOutcome, now: number, b: BreakerSettings, retryAfterMs = 1_000): RouteHealthState {
  if (outcome === 'throttled') return { ...s, probing: false, skipUntil: now + retryAfterMs };
  // The route answered (a client's own mistake included): it is healthy.
  if (outcome === 'served' || outcome === 'client_error') return closedState();
  const failures = s.failures + 1;
  // A failed probe, or the threshold reached: open for a fresh cool-down.
  if (s.openUntil !== 0 || failures >= b.failureThreshold) return { failures, openUntil: now + b.coolDownMs, probing: false, skipUntil: s.skipUntil };
  return { ...s, failures };
}

/**
 * The route to try next among those not tried yet, in catalogue order: the first available one; when none is
 * and nothing was tried yet, the one that becomes available first (a request is never refused by the breaker
 * alone); otherwise none.
 */
export function pickRoute<R>(candidates: readonly R[], stateOf: (r: R) => RouteHealthState, now: number, firstAttempt: boolean): R | undefined {
  let soonest: R | undefined;
  let soonestAt = Infinity;
  for (const r of candidates) {
    const s = stateOf(r);
    if (isAvailable(s, now)) return r;
    const at = availableAt(s);
    if (at < soonestAt) {
      soonest = r;
      soonestAt = at;
    }
  }
  return firstAttempt ? soonest : undefined;
}

/** A route's identity for its health: the endpoint and the model it calls there. */
export interface HealthKeyed {
  upstream: string;
  call_region: string;
  upstream_model: string;
}

export interface RouteGauge {
  set(labels: { upstream: string; platform: string; call_region: string }, value: number): void;
}

/**
 * The health of every route this proxy has called. Small (one entry per route used), and the only state the
 * route loop keeps between requests besides the retry budget.
 */
export class RouteHealth {
  private readonly states = new Map<string, { state: RouteHealthState; platform: string; route: HealthKeyed }>();

  constructor(
    private readonly settings: BreakerSettings,
    private readonly gauge: RouteGauge | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  stateOf = (r: HealthKeyed): RouteHealthState => this.states.get(keyOf(r))?.state ?? CLOSED;

  /** The route chosen for an attempt: a half-open one becomes this request's probe. */
  begin(r: HealthKeyed, platform: string): void {
    const s = this.stateOf(r);
    if (s.openUntil !== 0 && this.now() >= s.openUntil && !s.probing) this.put(r, platform, { ...s, probing: true });
  }

  /** The attempt ended with `outcome`; undefined: it ended without a verdict on the route (the client left). */
  end(r: HealthKeyed, platform: string, outcome: AttemptOutcome | undefined, retryAfterMs?: number): void {
    const s = this.stateOf(r);
    if (outcome === undefined) {
      if (s.probing) this.put(r, platform, { ...s, probing: false });
      return;
    }
    const next = afterAttempt(s, outcome, this.now(), this.settings, retryAfterMs);
    if (next.failures === 0 && next.openUntil === 0 && next.skipUntil === 0 && !this.states.has(keyOf(r))) return;
    this.put(r, platform, next);
  }

  /** Gauge values are the worst state over the routes sharing (upstream, platform, call region), refreshed at scrape. */
  refreshGauge(): void {
    if (this.gauge === undefined) return;
    const now = this.now();
    const worst = new Map<string, { labels: { upstream: string; platform: string; call_region: string }; value: number }>();
    for (const { state, platform, route } of this.states.values()) {
      const k = `${route.upstream}\u0000${platform}\u0000${route.call_region}`;
      const v = stateValue(state, now);
      const seen = worst.get(k);
      if (seen === undefined || v > seen.value) worst.set(k, { labels: { upstream: route.upstream, platform, call_region: route.call_region }, value: v });
    }
    for (const { labels, value } of worst.values()) this.gauge.set(labels, value);
  }

  private put(r: HealthKeyed, platform: string, state: RouteHealthState): void {
    this.states.set(keyOf(r), { state, platform, route: { upstream: r.upstream, call_region: r.call_region, upstream_model: r.upstream_model } });
    this.refreshGauge();
  }
}

const CLOSED: RouteHealthState = Object.freeze(closedState());
const keyOf = (r: HealthKeyed): string => `${r.upstream}\u0000${r.call_region}\u0000${r.upstream_model}`;
