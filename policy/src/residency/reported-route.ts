import type { UsageReport } from '@gateway/shared';
import { ROUTE_NOT_RECORDED, type LedgerRoute } from '../db/usage-ledger.js';

/**
 * The residency columns of a report's ledger row: the route its decision granted, as the proxy sends it back.
 * A proxy that predates the fields sends none (residency empty): every column stays null rather than guessed.
 * Evidence is kept only for a verified route; a declared one has none, whatever else the report carries.
 */
export function routeOfReport(r: UsageReport): LedgerRoute {
  if (r.residency === '') return { ...ROUTE_NOT_RECORDED };
  const verified = r.evidence?.regions_basis === 'verified';
  return {
    residency: r.residency,
    call_region: r.call_region === '' ? null : r.call_region,
    processing_regions: JSON.stringify(r.processing_regions),
    regions_basis: verified ? 'verified' : 'declared',
    evidence_sha256: verified && r.evidence !== null && r.evidence.evidence_sha256 !== '' ? r.evidence.evidence_sha256 : null,
    evidence_at_ms: verified && r.evidence !== null && r.evidence.evidence_unix_ms > 0 ? r.evidence.evidence_unix_ms : null,
    platform: r.platform === '' ? null : r.platform,
  };
}
