// The attestation module: signs what the proxy did with each message request (CONTRACT.md, docs/residency.md).
export { AttestationKeyRing } from './attestation-key-ring.js';
export { Attestor, RequestAttestation, ATTESTATION_HEADER, type RefusalContext } from './request-attestation.js';
export { attestationClaims, type AttestationClaims, type AttestationFacts } from './attestation-claims.js';
