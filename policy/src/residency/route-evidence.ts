import type { Residency, RouteEvidence } from '@gateway/shared';
import type { CatalogueRoute } from '../catalogue.js';

/** The last successful resolution of one route against the platform's control plane. */
export interface RouteResolution {
  atMs: number;
  /** every region the platform may run the route's calls in */
  regions: readonly string[];
  /** hex SHA-256 of the control plane's answer */
  sha256: string;
}

export type RouteCheck = { ok: true; route: CatalogueRoute; evidence: RouteEvidence } | { ok: false; reason: string };

/**
 * Whether a route may be served on its evidence (pure: the caller holds the resolutions). Only while its last
 * successful resolution put every destination inside the tier's regions and is younger than `maxAgeMs`; the route
 * served then runs in the verified regions (in the tier's order), which may be fewer than the catalogue declares.
 */
export function checkRoute(
  modelId: string,
  tier: Residency,
  route: CatalogueRoute,
  tierRegions: readonly string[],
  last: RouteResolution | undefined,
  nowMs: number,
  maxAgeMs: number,
): RouteCheck {
  const prefix = `${modelId} cannot be served in the ${tier} residency tier:`;
  if (last === undefined) return { ok: false, reason: `${prefix} its route has not been verified with the inference platform yet.` };
  const outside = last.regions.filter((r) => !tierRegions.includes(r));
  if (outside.length > 0) {
    return { ok: false, reason: `${prefix} the platform routes ${route.upstream_model} to ${outside.join(', ')}, outside the tier.` };
  }
  const ageMs = nowMs - last.atMs;
  if (ageMs > maxAgeMs) {
    return { ok: false, reason: `${prefix} its route was last verified ${Math.floor(ageMs / 3_600_000)} h ago, longer than allowed.` };
  }
  return {
    ok: true,
    route: { ...route, processing_regions: tierRegions.filter((r) => last.regions.includes(r)) },
    evidence: { regions_basis: 'verified', evidence_unix_ms: last.atMs, evidence_sha256: last.sha256 },
  };
}
