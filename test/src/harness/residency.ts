import { mkdtempSync, readFileSync } from 'node:fs';
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
