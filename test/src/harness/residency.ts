import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AwsCredentials } from '../fakes/index.js';
import { REPO_ROOT, type TestGateway } from './gateway.js';
import { sleep } from './clock.js';

interface CatalogueFile {
  tiers: Record<string, { regions: string[] }>;
  models: Array<{ id: string; routes: Record<string, Array<{ upstream?: string; upstream_model: string; call_region: string; processing_regions: string[] }>> }>;
}

export const CATALOGUE_FILE = resolve(REPO_ROOT, 'policy/catalogue/catalogue.json');
export const catalogue = (): CatalogueFile => JSON.parse(readFileSync(CATALOGUE_FILE, 'utf8')) as CatalogueFile;

/** Every cross-region profile the shipped catalogue routes to, with the destinations the platform gives it today. */
export function catalogueProfiles(): Record<string, string[]> {
  const c = catalogue();
  const out: Record<string, string[]> = {};
  for (const m of c.models) for (const r of Object.values(m.routes).flat()) if (/^eu\./.test(r.upstream_model)) out[r.upstream_model] = [...r.processing_regions];
  return out;
}

/** Waits until the proxy's /readyz is 200 (route verification done); fails after `timeoutMs`. */
export async function waitReady(gw: TestGateway, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(gw.url('/readyz'));
    if (res.status === 200) return;
    if (Date.now() > deadline) throw new Error(`/readyz still ${res.status} after ${timeoutMs} ms`);
    await sleep(100);
  }
}

/**
 * A gateway's environment for a Bedrock upstream (the fake runtime and the fake control plane at these URLs):
 * the credentials through the standard AWS sources, here the environment alone (no instance metadata, and an
 * empty HOME, so no ~/.aws of the machine's is read).
 */
export function bedrockGatewayEnv(runtimeUrl: string, controlUrl: string, credentials: AwsCredentials): Record<string, string> {
  return {
    UPSTREAM_KIND: 'bedrock',
    UPSTREAM_URL: `${runtimeUrl}/{region}`,
    UPSTREAM_CONTROL_URL: `${controlUrl}/{region}`,
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_EC2_METADATA_DISABLED: 'true',
    HOME: mkdtempSync(join(tmpdir(), 'gw-home-')),
  };
}

type ShippedRoute = CatalogueFile['models'][number]['routes'][string][number];

/**
 * A catalogue and an upstreams file in `dir` for alpha-sonnet-5's eu tier served by its first shipped Bedrock
 * route, then by Vertex's EU multi-region on the upstream `vertexUpstream` (the tier widened by the `eu` location,
 * as an operator would); `vertex` names the Vertex upstreams and their fakes' URLs. Returns the gateway's
 * environment (Bedrock credentials, CATALOGUE_FILE, UPSTREAMS_FILE) and the Bedrock route kept first.
 */
export function bedrockThenVertexEu(
  dir: string,
  aws: { runtimeUrl: string; controlUrl: string; credentials: AwsCredentials },
  vertex: { upstreams: Record<string, string>; vertexUpstream: string; project: string },
): { env: Record<string, string>; bedrockRoute: ShippedRoute } {
  const shipped = catalogue();
  shipped.tiers['eu']?.regions.push('eu');
  const sonnet = shipped.models.find((m) => m.id === 'alpha-sonnet-5');
  const bedrockRoute = sonnet?.routes['eu']?.[0];
  if (sonnet === undefined || bedrockRoute === undefined) throw new Error('the shipped catalogue has no eu route for alpha-sonnet-5');
  sonnet.routes['eu'] = [bedrockRoute, { upstream: vertex.vertexUpstream, upstream_model: 'alpha-sonnet-5@20260930', call_region: 'eu', processing_regions: ['eu'] }];
  writeFileSync(join(dir, 'catalogue.json'), JSON.stringify(shipped));
  const { UPSTREAM_KIND: _kind, UPSTREAM_URL: runtime, UPSTREAM_CONTROL_URL: control, ...credentials } = bedrockGatewayEnv(aws.runtimeUrl, aws.controlUrl, aws.credentials);
  const upstreams: Record<string, Record<string, string | undefined>> = { default: { platform: 'bedrock', url: runtime, control_url: control } };
  for (const [name, url] of Object.entries(vertex.upstreams)) upstreams[name] = { platform: 'vertex', project: vertex.project, url };
  writeFileSync(join(dir, 'upstreams.json'), JSON.stringify(upstreams));
  return { env: { ...credentials, CATALOGUE_FILE: join(dir, 'catalogue.json'), UPSTREAMS_FILE: join(dir, 'upstreams.json') }, bedrockRoute };
}
