import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { CompactSign } from 'jose';
import type { Grant, KeyIdentity, Logger } from '@gateway/shared';
import { attestationClaims, type AttestationFacts } from './attestation-claims.js';
import type { AttestationKeyRing } from './attestation-key-ring.js';

export const ATTESTATION_HEADER = 'x-gateway-attestation';

/** What a policy answer says for the attestation of a refusal. */
export interface RefusalContext {
  key: KeyIdentity | null;
  catalogueSha256: string | null;
  error: { status: number };
}

/** Signs attestations with the key ring's signing key; one RequestAttestation per answered request. */
export class Attestor {
  constructor(
    private readonly ring: AttestationKeyRing,
    private readonly log: Logger,
  ) {}

  /** An admitted request's attestation; what the privacy step and the forwarding add is noted as they happen. */
  admitted(requestId: string, grant: Grant, catalogueSha256: string | null): RequestAttestation {
    return new RequestAttestation(this, {
      requestId,
      key: grant.key,
      catalogueSha256,
      route: grant.route,
      evidence: grant.evidence,
      piiCounts: {},
      forwardedSha256: null,
    });
  }

  /**
   * Puts the attestation of a refusal the policy service answered on `res`. A refusal after authentication names
   * the key; one without a key is a 401 (nothing to attest), or comes from a policy service that predates naming
   * the key on refusals, whose answer is attested with what is known (the identity fields null).
   */
  async refusal(res: ServerResponse, requestId: string, c: RefusalContext): Promise<void> {
    if (c.key === null && c.error.status === 401) return;
    const facts: AttestationFacts = { requestId, key: c.key, catalogueSha256: c.catalogueSha256, route: null, evidence: null, piiCounts: {}, forwardedSha256: null };
    await new RequestAttestation(this, facts).attach(res, c.error.status);
  }

  jwks(): ReturnType<AttestationKeyRing['jwks']> {
    return this.ring.jwks();
  }

  /** The compact JWS of one statement; undefined (and logged) if signing failed: the answer still goes out. */
  async sign(facts: AttestationFacts, status: number): Promise<string | undefined> {
    const { kid, key } = this.ring.signer;
    const payload = Buffer.from(JSON.stringify(attestationClaims(facts, status, Math.floor(Date.now() / 1000))));
    try {
      return await new CompactSign(payload).setProtectedHeader({ alg: 'EdDSA', kid }).sign(key);
    } catch (err) {
      this.log.error({ err: { message: err instanceof Error ? err.message : String(err) }, request_id: facts.requestId }, 'attestation could not be signed');
      return undefined;
    }
  }
}

interface Signing {
  status: number;
  /** set once the signature is ready (undefined too if signing failed: `done` tells) */
  jws: string | undefined;
  done: boolean;
  promise: Promise<void>;
}

/**
 * The attestation of one request. Facts are noted as the request goes (the forwarded bytes last); the statement
 * is signed for the status the response goes out with. The bytes' digest is taken where they are final, and the
 * statement of a 200 answer is signed at once, while the upstream works: by the time its answer starts, the header
 * is ready without waiting (see attach).
 */
export class RequestAttestation {
  private signing: Signing | undefined;

  constructor(
    private readonly attestor: Attestor,
    private readonly facts: AttestationFacts,
  ) {}

  /** What the privacy step found (counts per type). */
  privacy(counts: Readonly<Record<string, number | undefined>>): void {
    this.facts.piiCounts = counts;
  }

  /** The exact bytes sent upstream (or answered by the test stub): hashed, and a 200 statement signed ahead. */
  forwarded(bytes: Uint8Array | string): void {
    this.facts.forwardedSha256 = createHash('sha256').update(bytes).digest('hex');
    this.prepare(200);
  }

  /**
   * Puts the attestation of a `status` answer on `res` (replacing one set for another status): at once when its
   * signature is ready (returns undefined), else a promise that settles once it is set. Call before the response's
   * headers go; after that it does nothing.
   */
  attach(res: ServerResponse, status: number): Promise<void> | undefined {
    if (res.headersSent) return undefined;
    const s = this.prepare(status);
    if (s.done) {
      setHeader(res, s.jws);
      return undefined;
    }
    // Only the newest statement is set: one signed for another status since then has taken its place.
    return s.promise.then(() => {
      if (this.signing === s) setHeader(res, s.jws);
    });
  }

  private prepare(status: number): Signing {
    if (this.signing?.status === status) return this.signing;
    const s: Signing = { status, jws: undefined, done: false, promise: Promise.resolve() };
    s.promise = this.attestor.sign({ ...this.facts }, status).then((jws) => {
      s.jws = jws;
      s.done = true;
    });
    this.signing = s;
    return s;
  }
}

function setHeader(res: ServerResponse, jws: string | undefined): void {
  if (res.headersSent) return;
  if (jws === undefined) res.removeHeader(ATTESTATION_HEADER);
  else res.setHeader(ATTESTATION_HEADER, jws);
}
