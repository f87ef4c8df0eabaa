import { createHash, sign as signEd25519 } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Grant, KeyIdentity, Logger, Route, UpstreamPlatform } from '@gateway/shared';
import { attestationClaims, type AttestationFacts, type AttestedAttempt } from './attestation-claims.js';
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
    /** hex SHA-256 of the person-name model this process loaded and checked at start */
    private readonly namesModelSha256: string,
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
      namesModelSha256: this.namesModelSha256,
    });
  }

  /**
   * Puts the attestation of a refusal the policy service answered on `res`. A refusal after authentication names
   * the key; one without a key is a 401 (nothing to attest), or comes from a policy service that predates naming
   * the key on refusals, whose answer is attested with what is known (the identity fields null).
   */
  refusal(res: ServerResponse, requestId: string, c: RefusalContext): void {
    if (c.key === null && c.error.status === 401) return;
    const facts: AttestationFacts = { requestId, key: c.key, catalogueSha256: c.catalogueSha256, route: null, evidence: null, piiCounts: {}, forwardedSha256: null, namesModelSha256: this.namesModelSha256 };
    new RequestAttestation(this, facts).attach(res, c.error.status);
  }

  jwks(): ReturnType<AttestationKeyRing['jwks']> {
    return this.ring.jwks();
  }

  /**
   * The compact JWS (RFC 7515 §7.1) of one statement; undefined (and logged) if signing failed: the answer still
   * goes out. Signed with node:crypto's one-shot Ed25519, synchronously: 39 µs against 75 µs through jose's
   * WebCrypto path, which also hops to libuv's pool and back (docs/decisions.md, "Attestation signing").
   */
  sign(facts: AttestationFacts, status: number): string | undefined {
    const { protectedHeader, key } = this.ring.signer;
    const payload = Buffer.from(JSON.stringify(attestationClaims(facts, status, Math.floor(Date.now() / 1000)))).toString('base64url');
    const signingInput = `${protectedHeader}.${payload}`;
    try {
      return `${signingInput}.${signEd25519(null, Buffer.from(signingInput, 'latin1'), key).toString('base64url')}`;
    } catch (err) {
      this.log.error({ err: { message: err instanceof Error ? err.message : String(err) }, request_id: facts.requestId }, 'attestation could not be signed');
      return undefined;
    }
  }
}

interface Signed {
  status: number;
  /** undefined if signing failed */
  jws: string | undefined;
}

/**
 * The attestation of one request. Facts are noted as the request goes (the forwarded bytes last); the statement
 * is signed for the status the response goes out with. The bytes' digest is taken where they are final; the
 * statement of a 200 answer is signed on the next turn of the event loop, after the request has gone upstream,
 * so the signature is made while the upstream works and is ready when its answer starts.
 */
export class RequestAttestation {
  private signed: Signed | undefined;
  private early: NodeJS.Immediate | undefined;

  constructor(
    private readonly attestor: Attestor,
    private readonly facts: AttestationFacts,
  ) {}

  /**
   * An upstream attempt is about to call `route`: the statement names it (a 200 as served by it); `done` are the
   * attempts that ended before it (the caller's list, read when a statement is signed).
   */
  attempting(route: Route, platform: UpstreamPlatform, done: ReadonlyArray<AttestedAttempt>): void {
    this.facts.route = route;
    this.facts.evidence = route.evidence;
    this.facts.attempts = done;
    this.facts.current = { platform, call_region: route.call_region };
    this.signed = undefined;
  }

  /** The attempt in flight ended (it is in the caller's list of those done now). */
  attemptEnded(): void {
    this.facts.current = null;
    this.signed = undefined;
  }

  /** What the privacy step found (counts per type). */
  privacy(counts: Readonly<Record<string, number | undefined>>): void {
    this.facts.piiCounts = counts;
  }

  /** The exact bytes sent upstream (or answered by the test stub): hashed, and a 200 statement signed ahead. */
  forwarded(bytes: Uint8Array | string): void {
    this.facts.forwardedSha256 = createHash('sha256').update(bytes).digest('hex');
    this.signed = undefined;
    if (this.early === undefined) {
      this.early = setImmediate(() => {
        this.early = undefined;
        this.statement(200);
      });
    }
  }

  /**
   * Puts the attestation of a `status` answer on `res` (replacing one set for another status). Call before the
   * response's headers go; after that it does nothing.
   */
  attach(res: ServerResponse, status: number): void {
    if (res.headersSent) return;
    const { jws } = this.statement(status);
    if (jws === undefined) res.removeHeader(ATTESTATION_HEADER);
    else res.setHeader(ATTESTATION_HEADER, jws);
  }

  private statement(status: number): Signed {
    if (this.signed?.status === status) return this.signed;
    this.signed = { status, jws: this.attestor.sign(this.facts, status) };
    return this.signed;
  }
}
