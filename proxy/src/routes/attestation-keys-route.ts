import type { Request, Response } from 'express';
import type { ProxyDeps } from '../proxy-deps.js';

/**
 * GET /v1/attestation/keys: the public keys that verify x-gateway-attestation (a JWKS of OKP/Ed25519 keys, RFC
 * 8037), the signing key and every retired key still within ATTESTATION_KEY_RETAIN_DAYS. No key needed: public
 * keys are for anyone who holds an attestation. Cached briefly, so a rotation reaches verifiers within a minute
 * (a verifier that meets an unknown kid fetches again).
 */
export function attestationKeysRoute(deps: ProxyDeps) {
  return (_req: Request, res: Response): void => {
    res.setHeader('cache-control', 'public, max-age=60');
    res.status(200).type('application/jwk-set+json').send(JSON.stringify(deps.attestor.jwks()));
  };
}
