import { createHash } from 'node:crypto';
import * as ed25519 from '@noble/ed25519';

/**
 * An attestation checked the way an auditor without the gateway's code would: RFC 7515 compact serialisation
 * taken apart by hand, the key found by kid in the JWKS, the Ed25519 signature checked by @noble/ed25519 (pure
 * TypeScript, RFC 8032's strict rules), not by the OpenSSL the gateway signs with. Only its SHA-512 is node's.
 */
ed25519.hashes.sha512 = (m) => {
  const digest = createHash('sha512').update(m).digest();
  const out = new Uint8Array(new ArrayBuffer(digest.length));
  out.set(digest);
  return out;
};

export interface Jwk {
  kty: string;
  crv: string;
  x: string;
  kid: string;
  alg?: string;
  use?: string;
}

export type Verified =
  | { ok: true; header: Record<string, unknown>; payload: Record<string, unknown> }
  | { ok: false; reason: string };

const SEGMENT = /^[A-Za-z0-9_-]+$/;

function decodeSegment(s: string): Buffer | undefined {
  if (!SEGMENT.test(s)) return undefined;
  const bytes = Buffer.from(s, 'base64url');
  // Canonical only: a segment whose unused trailing bits are set decodes to the same bytes but is another text.
  return bytes.toString('base64url') === s ? bytes : undefined;
}

export function verifyIndependently(jws: string, jwks: { keys: Jwk[] }): Verified {
  const parts = jws.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'not three segments' };
  const [h, p, s] = parts as [string, string, string];
  const hb = decodeSegment(h);
  const pb = decodeSegment(p);
  const sb = decodeSegment(s);
  if (hb === undefined || pb === undefined || sb === undefined) return { ok: false, reason: 'a segment is not canonical base64url' };
  let header: Record<string, unknown>;
  let payload: Record<string, unknown>;
  try {
    header = JSON.parse(hb.toString('utf8')) as Record<string, unknown>;
    payload = JSON.parse(pb.toString('utf8')) as Record<string, unknown>;
  } catch {
    return { ok: false, reason: 'header or payload is not JSON' };
  }
  if (header['alg'] !== 'EdDSA') return { ok: false, reason: `alg ${String(header['alg'])}` };
  const jwk = jwks.keys.find((k) => k.kid === header['kid']);
  if (jwk === undefined) return { ok: false, reason: 'unknown kid' };
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') return { ok: false, reason: 'not an Ed25519 key' };
  const publicKey = Buffer.from(jwk.x, 'base64url');
  if (publicKey.length !== 32 || sb.length !== 64) return { ok: false, reason: 'bad key or signature length' };
  let valid: boolean;
  try {
    valid = ed25519.verify(sb, Buffer.from(`${h}.${p}`, 'ascii'), publicKey, { zip215: false });
  } catch {
    valid = false;
  }
  if (!valid) return { ok: false, reason: 'bad signature' };
  return { ok: true, header, payload };
}

/** RFC 7638 thumbprint of an Ed25519 JWK: SHA-256 of its required members in lexicographic order, base64url. */
export function thumbprint(jwk: Pick<Jwk, 'crv' | 'kty' | 'x'>): string {
  return createHash('sha256').update(`{"crv":"${jwk.crv}","kty":"${jwk.kty}","x":"${jwk.x}"}`).digest('base64url');
}

export const sha256Hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
