import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';

/**
 * The attestation keys: a file of PEM Ed25519 private keys (PKCS#8), the first of which signs while every key is
 * published. The same format serves ATTESTATION_KEY_FILE (a Kubernetes Secret) and the data directory's own file.
 * Text outside a PEM block is explanatory (RFC 7468 §5.2, ignored by openssl); gatewayctl writes a line before
 * each key saying when it was added and, once a newer key took over, when it was retired, which is what
 * ATTESTATION_KEY_RETAIN_DAYS is counted from.
 */
export interface AttestationKey {
  /** RFC 7638 thumbprint of the public key: the same key has the same kid in every pod. */
  readonly kid: string;
  readonly privateKey: KeyObject;
  /** The public key as a JWK (OKP, Ed25519) with kid, alg and use. */
  readonly jwk: PublicJwk;
  readonly addedAt: Date | null;
  readonly retiredAt: Date | null;
  /** The PEM block as it stands in the file. */
  readonly pem: string;
}

export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

const PEM_BLOCK = /-----BEGIN PRIVATE KEY-----[\s\S]*?-----END PRIVATE KEY-----/g;
const RFC3339 = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/;
const DAY_MS = 86_400_000;

/** Thrown for a key file that cannot be used; its message names the problem, never key material. */
export class AttestationKeyError extends Error {
  override readonly name = 'AttestationKeyError';
}

function timeAfter(label: string, text: string): Date | null {
  const m = new RegExp(`${label}\\s+(${RFC3339.source})`).exec(text);
  return m === null ? null : new Date(m[1] as string);
}

/** The keys of a key file, first (the signing key) first. */
export async function parseKeyFile(text: string, source: string): Promise<AttestationKey[]> {
  const keys: AttestationKey[] = [];
  let textStart = 0;
  for (const m of text.matchAll(PEM_BLOCK)) {
    const note = text.slice(textStart, m.index);
    textStart = m.index + m[0].length;
    let privateKey: KeyObject;
    try {
      privateKey = createPrivateKey(m[0]);
    } catch {
      throw new AttestationKeyError(`${source}: key ${keys.length + 1} is not a readable PKCS#8 private key`);
    }
    if (privateKey.asymmetricKeyType !== 'ed25519') {
      throw new AttestationKeyError(`${source}: key ${keys.length + 1} is ${privateKey.asymmetricKeyType ?? 'unknown'}, not Ed25519`);
    }
    const { x } = createPublicKey(privateKey).export({ format: 'jwk' }) as { x: string };
    const kid = await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x } satisfies JWK, 'sha256');
    keys.push({
      kid,
      privateKey,
      jwk: { kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' },
      addedAt: timeAfter('added', note),
      retiredAt: timeAfter('retired', note),
      pem: m[0],
    });
  }
  if (keys.length === 0) throw new AttestationKeyError(`${source}: no PEM private key ("BEGIN PRIVATE KEY") found`);
  return keys;
}

/** The file's text for these keys, each after a line saying when it was added (and retired). */
export function formatKeyFile(keys: ReadonlyArray<Pick<AttestationKey, 'kid' | 'pem' | 'addedAt' | 'retiredAt'>>): string {
  return keys
    .map((k, i) => {
      const role = i === 0 ? 'Attestation signing key' : 'Attestation key';
      const added = k.addedAt === null ? '' : `, added ${k.addedAt.toISOString()}`;
      const retired = k.retiredAt === null ? '' : `, retired ${k.retiredAt.toISOString()}`;
      return `${role} ${k.kid}${added}${retired}\n${k.pem.trim()}\n`;
    })
    .join('');
}

/** A fresh Ed25519 key as a PKCS#8 PEM block. */
export function newKeyPem(): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  return (privateKey.export({ format: 'pem', type: 'pkcs8' }) as string).trim();
}

/** Whether a key is still published: not retired, or retired less than `retainDays` ago. */
export function isPublished(key: Pick<AttestationKey, 'retiredAt'>, now: Date, retainDays: number): boolean {
  return key.retiredAt === null || now.getTime() - key.retiredAt.getTime() < retainDays * DAY_MS;
}

/** The JWKS to publish: the signing key and every key still within its retention. */
export function publicJwks(keys: readonly AttestationKey[], now: Date, retainDays: number): { keys: PublicJwk[] } {
  return { keys: keys.filter((k, i) => i === 0 || isPublished(k, now, retainDays)).map((k) => k.jwk) };
}

/**
 * The key file after a rotation: a new signing key first, the previous signing key retired now, and keys retired
 * longer than `retainDays` ago dropped.
 */
export async function rotatedKeyFile(current: readonly AttestationKey[], now: Date, retainDays: number): Promise<{ text: string; added: AttestationKey; dropped: string[] }> {
  const [added] = await parseKeyFile(newKeyPem(), 'new key');
  const fresh = { ...(added as AttestationKey), addedAt: now };
  const kept = current.map((k, i) => (i === 0 && k.retiredAt === null ? { ...k, retiredAt: now } : k)).filter((k) => isPublished(k, now, retainDays));
  const dropped = current.filter((k) => !kept.some((c) => c.kid === k.kid)).map((k) => k.kid);
  return { text: formatKeyFile([fresh, ...kept]), added: fresh, dropped };
}
