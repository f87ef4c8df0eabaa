import { readFile } from 'node:fs/promises';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader, errors, type JSONWebKeySet } from 'jose';
import { publicJwks, readKeyFile, rotateKeyFile, type GatewayConfig } from '@gateway/shared';
import { UsageError, optionalString, parseCommand } from './args.js';

/** What an attestation command prints, and its exit code (verify: 1 when the attestation is not valid). */
export interface AttestationOutput {
  json: unknown;
  text: string;
  exitCode: number;
}

type AttestationCommand = (config: GatewayConfig, argv: string[]) => Promise<AttestationOutput>;

/** The outcome of checking one attestation: its payload only when the signature holds. */
export interface Verification {
  valid: boolean;
  reason: string | null;
  kid: string | null;
  payload: Record<string, unknown> | null;
}

/**
 * Whether each segment is base64url as an encoder writes it. Decoders (jose's included) ignore the unused low bits
 * of a segment's last character, so a signature with those bits changed would verify: another string, the same
 * bytes. An attestation is compared as text, so only the canonical form is accepted.
 */
function canonical(jws: string): boolean {
  return jws.split('.').every((s) => /^[A-Za-z0-9_-]+$/.test(s) && Buffer.from(s, 'base64url').toString('base64url') === s);
}

/** Checks a compact JWS against a JWKS: EdDSA only, the key named by its kid, the payload a JSON object. */
export async function verifyAttestation(jws: string, jwks: JSONWebKeySet): Promise<Verification> {
  let kid: string | null = null;
  if (!canonical(jws)) return { valid: false, reason: 'not a compact JWS in canonical base64url', kid, payload: null };
  try {
    const header = decodeProtectedHeader(jws);
    kid = typeof header.kid === 'string' ? header.kid : null;
    if (header.alg !== 'EdDSA') return { valid: false, reason: `algorithm ${String(header.alg)} is not EdDSA`, kid, payload: null };
    const { payload } = await compactVerify(jws, createLocalJWKSet(jwks), { algorithms: ['EdDSA'] });
    const claims = JSON.parse(new TextDecoder().decode(payload)) as unknown;
    if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) return { valid: false, reason: 'the payload is not a JSON object', kid, payload: null };
    return { valid: true, reason: null, kid, payload: claims as Record<string, unknown> };
  } catch (err) {
    return { valid: false, reason: whyInvalid(err), kid, payload: null };
  }
}

function whyInvalid(err: unknown): string {
  if (err instanceof errors.JWKSNoMatchingKey) return 'no key in the JWKS has this attestation\'s kid';
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'the signature does not match the header and payload';
  if (err instanceof errors.JOSEError) return `not a valid attestation: ${err.message}`;
  if (err instanceof SyntaxError) return 'the payload is not JSON';
  return `not a valid attestation: ${err instanceof Error ? err.message : String(err)}`;
}

async function loadJwks(config: GatewayConfig, file: string | undefined): Promise<JSONWebKeySet> {
  if (file === undefined) return publicJwks(await readKeyFile(config.attestation.keyFile), new Date(), config.attestation.retainDays) as JSONWebKeySet;
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`--jwks ${file}: ${err instanceof SyntaxError ? 'not JSON' : (err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || !Array.isArray((parsed as { keys?: unknown }).keys)) {
    throw new UsageError(`--jwks ${file}: not a JWKS (an object with a "keys" array)`);
  }
  return parsed as JSONWebKeySet;
}

export const ATTESTATION_COMMANDS: Record<string, AttestationCommand> = {
  /** gatewayctl attestation verify <jws> [--jwks FILE]: offline, against a JWKS file or this gateway's own keys. */
  'attestation verify': async (config, argv) => {
    const cmd = parseCommand(argv, ['jwks']);
    const jws = cmd.positionals[0];
    if (jws === undefined || cmd.positionals.length > 1) throw new UsageError('usage: gatewayctl attestation verify <jws> [--jwks FILE]');
    const v = await verifyAttestation(jws.trim(), await loadJwks(config, optionalString(cmd.flags, 'jwks')));
    const text = v.valid
      ? `valid: signed by key ${v.kid ?? '?'}\n${JSON.stringify(v.payload, null, 2)}`
      : `NOT valid: ${v.reason ?? ''}`;
    return { json: { valid: v.valid, reason: v.reason, kid: v.kid, payload: v.payload }, text, exitCode: v.valid ? 0 : 1 };
  },
  /** gatewayctl attestation rotate: a new signing key in the key file; the old ones stay published for the retention. */
  'attestation rotate': async (config, argv) => {
    parseCommand(argv, []);
    const r = await rotateKeyFile(config.attestation.keyFile, new Date(), config.attestation.retainDays);
    const json = { key_file: config.attestation.keyFile, kid: r.kid, created: r.created, published: r.published, dropped: r.dropped, retain_days: config.attestation.retainDays };
    const text = r.created
      ? `Created ${config.attestation.keyFile} with signing key ${r.kid}.`
      : `New signing key ${r.kid} in ${config.attestation.keyFile}; published: ${r.published.join(', ')}` +
        `${r.dropped.length > 0 ? `; dropped (retired over ${config.attestation.retainDays} days ago): ${r.dropped.join(', ')}` : ''}.\n` +
        'Running proxies reading this file pick it up within a second; for a Kubernetes Secret, update the Secret from it.';
    return { json, text, exitCode: 0 };
  },
  /** gatewayctl attestation jwks: the public keys as GET /v1/attestation/keys serves them, for an auditor's file. */
  'attestation jwks': async (config, argv) => {
    parseCommand(argv, []);
    const jwks = publicJwks(await readKeyFile(config.attestation.keyFile), new Date(), config.attestation.retainDays);
    return { json: jwks, text: JSON.stringify(jwks, null, 2), exitCode: 0 };
  },
};
