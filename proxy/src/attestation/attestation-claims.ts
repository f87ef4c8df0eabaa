import type { Environment, KeyIdentity, PrivacyMode, Residency, Route, RouteEvidence, UpstreamPlatform } from '@gateway/shared';

/** One upstream attempt as attested (CONTRACT.md "Routes and failover"): no timings, no upstream names. */
export interface AttestedAttempt {
  platform: UpstreamPlatform;
  call_region: string;
  outcome: string;
}

/** The payload of x-gateway-attestation, field for field as CONTRACT.md fixes it; a field that does not apply is null. */
export interface AttestationClaims {
  request_id: string;
  account_id: string | null;
  key_id: string | null;
  environment: Environment | null;
  status: number;
  residency: Residency | null;
  call_region: string | null;
  processing_regions: string[];
  regions_basis: 'verified' | 'declared';
  evidence_at: string | null;
  evidence_sha256: string | null;
  upstream_model: string | null;
  catalogue_sha256: string | null;
  privacy_mode: PrivacyMode | null;
  pii_counts: Record<string, number>;
  forwarded_body_sha256: string | null;
  iat: number;
  /** the request's upstream attempts in order; [] when none was made */
  attempts: AttestedAttempt[];
  /** the platform of the route that served; null when none did */
  platform: UpstreamPlatform | null;
  /** hex SHA-256 of the person-name model the proxy ran */
  names_model_sha256: string | null;
}

/** What the proxy knows about one request when it answers it. */
export interface AttestationFacts {
  requestId: string;
  /** null only for a refusal from a policy service that predates naming the key on refusals */
  key: KeyIdentity | null;
  /** hex SHA-256 of the catalogue the decision used; null from a policy service that predates the field */
  catalogueSha256: string | null;
  /** the route taken (admitted requests; test keys: the route a live call would have taken) */
  route: Route | null;
  /** what the route's regions rest on; null: the catalogue's declaration */
  evidence: RouteEvidence | null;
  /** what the privacy step found, per type (counts only: values never reach the attestation) */
  piiCounts: Readonly<Record<string, number | undefined>>;
  /** hex SHA-256 of the bytes sent upstream (test keys: those the stub answered); null when nothing was */
  forwardedSha256: string | null;
  /** attempts that ended, in order (absent: none) */
  attempts?: ReadonlyArray<AttestedAttempt>;
  /** the attempt in flight: it is the one that served if the answer is a 200 */
  current?: { platform: UpstreamPlatform; call_region: string } | null;
  /** hex SHA-256 of the person-name model the proxy runs (the privacy step's, whatever the key's mode) */
  namesModelSha256: string | null;
}

/** RFC 3339 UTC, seconds precision. */
function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The claims of one response. Only ids and counts: never the key, an account secret, a text or a detected value.
 * A route's regions are "verified" only when the policy service says the platform's control plane resolved them.
 */
export function attestationClaims(f: AttestationFacts, status: number, iat: number): AttestationClaims {
  const verified = f.evidence?.regions_basis === 'verified';
  const counts: Record<string, number> = {};
  for (const [type, n] of Object.entries(f.piiCounts)) if (n !== undefined && n > 0) counts[type] = n;
  return {
    request_id: f.requestId,
    account_id: f.key?.account_id ?? null,
    key_id: f.key?.key_id ?? null,
    environment: f.key?.environment ?? null,
    status,
    residency: f.key?.residency ?? null,
    call_region: f.route?.call_region ?? null,
    processing_regions: f.route === null ? [] : [...f.route.processing_regions],
    regions_basis: verified ? 'verified' : 'declared',
    evidence_at: verified && f.evidence !== null && f.evidence.evidence_unix_ms > 0 ? rfc3339(f.evidence.evidence_unix_ms) : null,
    evidence_sha256: verified && f.evidence !== null && f.evidence.evidence_sha256 !== '' ? f.evidence.evidence_sha256 : null,
    upstream_model: f.route?.upstream_model ?? null,
    catalogue_sha256: f.catalogueSha256,
    privacy_mode: f.key?.privacy_mode ?? null,
    pii_counts: counts,
    forwarded_body_sha256: f.forwardedSha256,
    iat,
    ...attemptClaims(f, status),
    names_model_sha256: f.namesModelSha256,
  };
}

function attemptClaims(f: AttestationFacts, status: number): Pick<AttestationClaims, 'attempts' | 'platform'> {
  const attempts = (f.attempts ?? []).map((a) => ({ platform: a.platform, call_region: a.call_region, outcome: a.outcome }));
  const serving = status === 200 ? f.current ?? null : null;
  if (serving !== null) attempts.push({ platform: serving.platform, call_region: serving.call_region, outcome: 'served' });
  return { attempts, platform: serving?.platform ?? null };
}
