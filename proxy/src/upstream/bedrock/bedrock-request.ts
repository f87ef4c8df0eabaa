import { Sha256 } from '@aws-crypto/sha256-js';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentityProvider } from '@smithy/types';

/** The Messages body as Bedrock's InvokeModel wants it: no model or stream, the Bedrock API version, betas as an array. */
export function bedrockBody(body: Record<string, unknown>, betaHeader: string | string[] | undefined): Buffer {
  const { model: _model, stream: _stream, ...rest } = body;
  const out: Record<string, unknown> = { anthropic_version: 'bedrock-2023-05-31', ...rest };
  const betas = (Array.isArray(betaHeader) ? betaHeader.join(',') : betaHeader ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b !== '');
  if (betas.length > 0) out['anthropic_beta'] = betas;
  return Buffer.from(JSON.stringify(out));
}

export interface SignedRequest {
  url: URL;
  headers: Record<string, string>;
}

/**
 * Signs InvokeModel requests with SigV4 (service `bedrock`) in the call region, with credentials from the
 * standard AWS sources (environment, shared config and SSO, container and instance roles), or sends a Bedrock
 * API key as a bearer token when one is configured.
 */
export class BedrockSigner {
  private readonly credentials: AwsCredentialIdentityProvider;

  constructor(private readonly bearerToken: string | undefined, awsProfile?: string) {
    this.credentials = defaultProvider(awsProfile === undefined ? {} : { profile: awsProfile });
  }

  async sign(url: URL, region: string, body: Buffer, accept: string): Promise<SignedRequest> {
    const headers: Record<string, string> = {
      host: url.host,
      'content-type': 'application/json',
      accept,
      'content-length': String(body.length),
    };
    if (this.bearerToken !== undefined) {
      return { url, headers: { ...headers, authorization: `Bearer ${this.bearerToken}` } };
    }
    const signer = new SignatureV4({ service: 'bedrock', region, credentials: this.credentials, sha256: Sha256 });
    const request = new HttpRequest({
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port === '' ? {} : { port: Number(url.port) }),
      path: url.pathname,
      headers,
      body,
    });
    const signed = await signer.sign(request);
    return { url, headers: signed.headers as Record<string, string> };
  }
}
