import type { Logger, Residency } from '@gateway/shared';
import type { CatalogueRoute, ModelCatalogue } from '../catalogue.js';
import { ControlPlaneError, type ControlPlaneFailure, type Resolution } from './control-plane.js';
import { checkRoute, type RouteCheck, type RouteResolution } from './route-evidence.js';

/** While some route has never been answered, failed resolutions are retried this often (not every interval). */
const PENDING_RETRY_MS = 5_000;

export interface RouteState {
  model: string;
  tier: Residency;
  /** served now: verified inside the tier and fresh */
  verified: boolean;
  /** seconds since the last successful resolution; null when there was none */
  ageSeconds: number | null;
}

/** Resolves routes against their platform's control plane; routes it cannot verify stay declared. */
export interface RouteResolver {
  verifiable(route: CatalogueRoute): boolean;
  resolve(route: CatalogueRoute): Promise<Resolution>;
}

const DECLARED = { regions_basis: 'declared', evidence_unix_ms: 0, evidence_sha256: '' } as const;

interface Target {
  model: string;
  tier: Residency;
  /** the route's place in its tier's list */
  index: number;
  route: CatalogueRoute;
}

/**
 * Keeps every catalogue route's evidence: resolves each against the platform's control plane at start and every
 * `intervalMs`. A control-plane outage keeps the last evidence (service goes on until it is too old); an answer
 * with a region outside the tier stops the route at once. Pending (the proxies' /readyz is 503) until every route
 * has had an answer.
 */
export class RouteVerifier {
  private readonly last = new Map<string, RouteResolution>();
  private readonly answered = new Set<string>();
  private readonly targets: Target[];
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly catalogue: ModelCatalogue,
    private readonly resolver: RouteResolver,
    private readonly opts: { intervalMs: number; maxAgeMs: number },
    private readonly log: Logger,
    private readonly onFailure: (kind: ControlPlaneFailure) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.targets = catalogue.models.flatMap((m) =>
      (Object.entries(m.routes) as Array<[Residency, CatalogueRoute[]]>).flatMap(([tier, routes]) =>
        routes.map((route, index) => ({ model: m.id, tier, index, route }))),
    ).filter((t) => resolver.verifiable(t.route));
  }

  get pending(): boolean {
    return this.targets.some((t) => !this.answered.has(keyOf(t)));
  }

  /** Resolves now, then keeps resolving; returns once the first round is done. */
  async start(): Promise<void> {
    await this.refresh();
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
  }

  /** Whether the `index`th route of (model, tier) may be served now, on its own evidence. */
  check(model: string, tier: Residency, index: number, route: CatalogueRoute, nowMs = this.now()): RouteCheck {
    if (!this.resolver.verifiable(route)) return { ok: true, route, evidence: { ...DECLARED } };
    return checkRoute(model, tier, route, this.catalogue.tiers[tier].regions, this.last.get(keyOf({ model, tier, index })), nowMs, this.opts.maxAgeMs);
  }

  /**
   * One state per (model, tier), as the metrics and /readyz detail name them: verified while at least one of its
   * routes is (the others are skipped), aged by its freshest evidence.
   */
  states(nowMs = this.now()): RouteState[] {
    const byTier = new Map<string, RouteState>();
    for (const t of this.targets) {
      const last = this.last.get(keyOf(t));
      const verified = this.check(t.model, t.tier, t.index, t.route, nowMs).ok;
      const ageSeconds = last === undefined ? null : (nowMs - last.atMs) / 1000;
      const k = `${t.model}\u0000${t.tier}`;
      const seen = byTier.get(k);
      if (seen === undefined) byTier.set(k, { model: t.model, tier: t.tier, verified, ageSeconds });
      else {
        seen.verified ||= verified;
        if (ageSeconds !== null && (seen.ageSeconds === null || ageSeconds < seen.ageSeconds)) seen.ageSeconds = ageSeconds;
      }
    }
    return [...byTier.values()];
  }

  /** One round: every route resolved at once (a handful of calls). */
  async refresh(): Promise<void> {
    await Promise.all(this.targets.map((t) => this.resolveOne(t)));
  }

  private async resolveOne(t: Target): Promise<void> {
    const key = keyOf(t);
    try {
      const r = await this.resolver.resolve(t.route);
      const atMs = this.now();
      this.last.set(key, { atMs, regions: r.regions, sha256: r.sha256 });
      this.answered.add(key);
      const check = this.check(t.model, t.tier, t.index, t.route, atMs);
      if (!check.ok) this.log.error({ model: t.model, tier: t.tier, call_region: t.route.call_region, regions: r.regions }, `route refused: ${check.reason}`);
    } catch (err) {
      const kind: ControlPlaneFailure = err instanceof ControlPlaneError ? err.kind : 'unavailable';
      this.onFailure(kind);
      // A model the platform does not know has an answer: the route stays refused, and readiness does not wait on it.
      if (kind === 'not_found') this.answered.add(key);
      const message = err instanceof Error ? err.message : String(err);
      this.log[kind === 'unauthorised' ? 'error' : 'warn']({ model: t.model, tier: t.tier, call_region: t.route.call_region, kind }, `route resolution failed: ${message}`);
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    const delay = this.pending ? Math.min(PENDING_RETRY_MS, this.opts.intervalMs) : this.opts.intervalMs;
    this.timer = setTimeout(() => {
      void this.refresh().finally(() => this.schedule());
    }, delay);
    this.timer.unref();
  }
}

const keyOf = (t: { model: string; tier: Residency; index: number }): string => `${t.model}\u0000${t.tier}\u0000${t.index}`;
