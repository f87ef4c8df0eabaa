import { createHash } from 'node:crypto';
import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** What the verifier needs of a request, exactly as it arrived. */
export interface SignedRequest {
  method: string;
  /** The path as sent, still percent-encoded: SigV4 signs it encoded once more. */
  rawPath: string;
  rawQuery: string;
  /** Lower-case names; repeated headers keep every value. */
  headers: Record<string, string[]>;
  body: Buffer;
  /** The `{region}` path segment, which the credential scope must name. */
  pathRegion: string;
}

export type SigV4Result =
  | { ok: true }
  | { ok: false; errorType: 'InvalidSignatureException' | 'UnrecognizedClientException'; message: string };

const SERVICE = 'bedrock';
const MAX_SKEW_MS = 5 * 60 * 1000;
const AUTH = /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/;
const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

const invalid = (message: string): SigV4Result => ({ ok: false, errorType: 'InvalidSignatureException', message });
const unrecognized = (message: string): SigV4Result => ({ ok: false, errorType: 'UnrecognizedClientException', message });

/**
 * Checks an `AWS4-HMAC-SHA256` Authorization header the way AWS does: scope, clock skew, payload hash,
 * then the signature itself, recomputed with @smithy/signature-v4 over the headers the client said it signed.
 */
export async function verifySigV4(req: SignedRequest, credentials: AwsCredentials, now: Date): Promise<SigV4Result> {
  const authorization = first(req.headers['authorization']);
  if (authorization === '') return unrecognized('Missing Authentication Token');
  const auth = AUTH.exec(authorization);
  if (auth === null) return invalid(`Authorization header is not a valid AWS4-HMAC-SHA256 header: ${authorization.slice(0, 40)}…`);
  const [, credential = '', signedHeaderList = '', signature = ''] = auth;
  const [accessKeyId, scopeDate, scopeRegion, scopeService, terminator, ...rest] = credential.split('/');
  if (rest.length > 0 || terminator !== 'aws4_request') return invalid('Credential scope must end in aws4_request.');
  if (accessKeyId !== credentials.accessKeyId) return unrecognized('The security token included in the request is invalid.');
  if (first(req.headers['x-amz-security-token']) !== (credentials.sessionToken ?? '')) {
    return unrecognized('The security token included in the request is invalid.');
  }
  if (scopeService !== SERVICE) return invalid(`Credential should be scoped to correct service: '${SERVICE}'.`);
  if (scopeRegion !== req.pathRegion) {
    return invalid(`Credential should be scoped to a valid region, not '${scopeRegion ?? ''}' (the path names '${req.pathRegion}').`);
  }

  const signedHeaders = signedHeaderList.split(';');
  if (!signedHeaders.includes('host')) return invalid("'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.");
  if (!signedHeaders.includes('x-amz-date')) return invalid("'X-Amz-Date' must be a 'SignedHeader' in the AWS Authorization.");
  const missing = signedHeaders.filter((h) => req.headers[h] === undefined);
  if (missing.length > 0) return invalid(`Signed headers missing from the request: ${missing.join(', ')}.`);

  const amzDate = first(req.headers['x-amz-date']);
  const signingDate = parseAmzDate(amzDate);
  if (signingDate === null) return invalid(`X-Amz-Date '${amzDate}' is not in the ISO 8601 basic format YYYYMMDD'T'HHMMSS'Z'.`);
  if (scopeDate !== amzDate.slice(0, 8)) return invalid(`Date in Credential scope does not match YYYYMMDD from X-Amz-Date '${amzDate}'.`);
  const skew = signingDate.getTime() - now.getTime();
  if (skew < -MAX_SKEW_MS) return invalid(`Signature expired: ${amzDate} is now earlier than 5 minutes before ${now.toISOString()}.`);
  if (skew > MAX_SKEW_MS) return invalid(`Signature not yet current: ${amzDate} is later than 5 minutes after ${now.toISOString()}.`);

  const declaredHash = first(req.headers['x-amz-content-sha256']);
  if (declaredHash !== '' && declaredHash !== createHash('sha256').update(req.body).digest('hex')) {
    return invalid("The provided 'x-amz-content-sha256' header does not match what was computed.");
  }

  const expected = await recompute(req, credentials, signedHeaders, signingDate, scopeRegion);
  if (expected.signedHeaders !== signedHeaderList || expected.signature !== signature) {
    return invalid(
      'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
    );
  }
  return { ok: true };
}

async function recompute(
  req: SignedRequest,
  credentials: AwsCredentials,
  signedHeaders: string[],
  signingDate: Date,
  region: string,
): Promise<{ signedHeaders: string; signature: string }> {
  // The signer sets x-amz-date and the token itself, so only the other signed headers are handed over.
  const headers: Record<string, string> = {};
  for (const name of signedHeaders) {
    if (name === 'x-amz-date' || name === 'x-amz-security-token' || name === 'authorization') continue;
    headers[name] = (req.headers[name] ?? []).join(',');
  }
  const signsToken = signedHeaders.includes('x-amz-security-token');
  const signer = new SignatureV4({
    service: SERVICE,
    region,
    sha256: Sha256,
    applyChecksum: false,
    credentials: {
      accessKeyId: credentials.accessKeyId,
      secretAccessKey: credentials.secretAccessKey,
      ...(signsToken && credentials.sessionToken !== undefined ? { sessionToken: credentials.sessionToken } : {}),
    },
  });
  const signed = await signer.sign(
    new HttpRequest({
      method: req.method,
      protocol: 'http:',
      hostname: first(req.headers['host']),
      path: req.rawPath,
      query: parseQuery(req.rawQuery),
      headers,
      body: req.body,
    }),
    { signingDate, signableHeaders: new Set(signedHeaders) },
  );
  const authHeader = String(signed.headers['authorization'] ?? '');
  const match = AUTH.exec(authHeader);
  return { signedHeaders: match?.[2] ?? '', signature: match?.[3] ?? '' };
}

function parseAmzDate(value: string): Date | null {
  const m = AMZ_DATE.exec(value);
  if (m === null) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  const date = new Date(Date.UTC(y ?? 0, (mo ?? 1) - 1, d, h, mi, s));
  return Number.isNaN(date.getTime()) ? null : date;
}

function parseQuery(raw: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const existing = query[key];
    if (existing === undefined) query[key] = value;
    else query[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return query;
}

function first(values: string[] | undefined): string {
  return values?.[0] ?? '';
}
