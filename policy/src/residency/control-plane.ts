import { createHash } from 'node:crypto';
import { Sha256 } from '@aws-crypto/sha256-js';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentityProvider } from '@smithy/types';

/** The platform's control-plane endpoint; `{region}` is the route's call region (UPSTREAM_CONTROL_URL overrides). */
export const DEFAULT_CONTROL_URL = 'https://bedrock.{region}.amazonaws.com';

/** A model id that names a cross-region inference profile (its prefix), as opposed to an in-region model. */
const PROFILE_ID = /^(eu|us|apac|global|jp|au|ca)\./;

/** What the control plane said about one route: the regions its calls may run in, and the digest of the answer. */
export interface Resolution {
  regions: string[];
  sha256: string;
}

/** Why a route could not be resolved. `unauthorised` is the deployment's fault (credentials, IAM) and alerts at once. */
export type ControlPlaneFailure = 'unavailable' | 'unauthorised' | 'not_found' | 'invalid';

/** What the control plane is asked about: a model id called in a region. */
export interface ResolvedRoute {
  upstream_model: string;
  call_region: string;
}

export class ControlPlaneError extends Error {
  override readonly name = 'ControlPlaneError';
  constructor(readonly kind: ControlPlaneFailure, message: string) {
    super(message);
  }
}

/** `arn:aws:bedrock:REGION:ACCOUNT:foundation-model/ID` → REGION. */
function regionOfArn(arn: unknown): string | undefined {
  if (typeof arn !== 'string') return undefined;
  const parts = arn.split(':');
  return parts[0] === 'arn' && parts[2] === 'bedrock' && parts[3] !== '' ? parts[3] : undefined;
}

/** The destination regions in an answer: a profile's model ARNs, or the one model's ARN. */
export function regionsOfAnswer(kind: 'profile' | 'model', json: unknown): string[] | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  if (kind === 'profile') {
    const models = (json as { models?: unknown }).models;
    if (!Array.isArray(models) || models.length === 0) return undefined;
    const regions = models.map((m) => regionOfArn((m as { modelArn?: unknown } | null)?.modelArn));
    return regions.every((r): r is string => r !== undefined) ? [...new Set(regions)] : undefined;
  }
  const region = regionOfArn((json as { modelDetails?: { modelArn?: unknown } }).modelDetails?.modelArn);
  return region === undefined ? undefined : [region];
}

/**
 * The platform's control plane, asked where a route's calls may run: GetInferenceProfile for a cross-region profile
 * id (the regions of its model ARNs), GetFoundationModel in the call region for an in-region id. Signed with SigV4
 * (service `bedrock`, the call region) from the same credential chain as the runtime calls, or a Bedrock API key as
 * a bearer token when one is configured.
 */
export class ControlPlaneClient {
  private readonly credentials: AwsCredentialIdentityProvider;

  constructor(
    private readonly urlTemplate: string,
    private readonly bearerToken: string | undefined,
    private readonly timeoutMs = 10_000,
    awsProfile?: string,
  ) {
    this.credentials = defaultProvider(awsProfile === undefined ? {} : { profile: awsProfile });
  }

  async resolve(route: ResolvedRoute): Promise<Resolution> {
    const kind = PROFILE_ID.test(route.upstream_model) ? 'profile' : 'model';
    const base = this.urlTemplate.replaceAll('{region}', route.call_region).replace(/\/+$/, '');
    const resource = kind === 'profile' ? 'inference-profiles' : 'foundation-models';
    const url = new URL(`${base}/${resource}/${encodeURIComponent(route.upstream_model)}`);
    let res: Response;
    try {
      res = await fetch(url, { headers: await this.headers(url, route.call_region), signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      throw new ControlPlaneError('unavailable', `the control plane in ${route.call_region} cannot be reached: ${err instanceof Error ? err.message : String(err)}`);
    }
    const body = Buffer.from(await res.arrayBuffer().catch(() => new ArrayBuffer(0)));
    if (res.status !== 200) throw failure(res.status, res.headers.get('x-amzn-errortype') ?? '', route);
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      throw new ControlPlaneError('invalid', `the control plane's answer for ${route.upstream_model} is not JSON`);
    }
    const regions = regionsOfAnswer(kind, json);
    if (regions === undefined) throw new ControlPlaneError('invalid', `the control plane's answer for ${route.upstream_model} names no model ARN with a region`);
    return { regions, sha256: createHash('sha256').update(body).digest('hex') };
  }

  private async headers(url: URL, region: string): Promise<Record<string, string>> {
    const headers: Record<string, string> = { host: url.host, accept: 'application/json' };
    if (this.bearerToken !== undefined) return { accept: 'application/json', authorization: `Bearer ${this.bearerToken}` };
    const signer = new SignatureV4({ service: 'bedrock', region, credentials: this.credentials, sha256: Sha256 });
    const signed = await signer.sign(new HttpRequest({
      method: 'GET',
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port === '' ? {} : { port: Number(url.port) }),
      path: url.pathname,
      headers,
    }));
    // fetch sets Host itself (to the same value, which is what was signed).
    const { host: _host, ...rest } = signed.headers as Record<string, string>;
    return rest;
  }
}

function failure(status: number, errorType: string, route: ResolvedRoute): ControlPlaneError {
  const type = errorType.split(':')[0] ?? '';
  const what = `${route.upstream_model} in ${route.call_region}: HTTP ${status}${type === '' ? '' : ` ${type}`}`;
  if (status === 401 || status === 403) return new ControlPlaneError('unauthorised', `the control plane refused the gateway's credentials for ${what}`);
  if (status === 404) return new ControlPlaneError('not_found', `the control plane does not know ${what}`);
  return new ControlPlaneError('unavailable', `the control plane failed for ${what}`);
}
