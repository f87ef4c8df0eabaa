import { readFileSync } from 'node:fs';

/** The platforms an upstream can be (CONTRACT.md "Routes and failover"). */
export type UpstreamPlatform = 'bedrock' | 'vertex' | 'messages';

export interface BedrockUpstreamSettings {
  readonly platform: 'bedrock';
  /** runtime endpoint base, may contain `{region}`; unset: AWS's regional endpoint */
  readonly url: string | undefined;
  /** control-plane endpoint base, may contain `{region}`; unset: AWS's regional endpoint */
  readonly controlUrl: string | undefined;
  /** a Bedrock API key (bearer); unset: SigV4 from the standard AWS sources or `awsProfile` */
  readonly apiKey: string | undefined;
  readonly awsProfile: string | undefined;
}

export interface VertexUpstreamSettings {
  readonly platform: 'vertex';
  readonly project: string;
  /** a service-account key file; unset: application default credentials */
  readonly credentialsFile: string | undefined;
  /** replaces the endpoint's scheme and host (a private endpoint, or a fake in tests) */
  readonly url: string | undefined;
}

export interface MessagesUpstreamSettings {
  readonly platform: 'messages';
  /** base URL ending in /v1, may contain `{region}`; unset: the upstream is not configured */
  readonly url: string | undefined;
  readonly apiKey: string | undefined;
}

export type UpstreamSettings = BedrockUpstreamSettings | VertexUpstreamSettings | MessagesUpstreamSettings;

/** The upstream every route without an `upstream` name calls. */
export const DEFAULT_UPSTREAM = 'default';

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

/**
 * UPSTREAMS_FILE: `{"<name>": {"platform": …, …}}`, snake_case keys as documented. Returns the upstreams, or
 * pushes every problem found (the process then refuses to start). Credentials are never copied into messages.
 */
export function readUpstreamsFile(file: string, problems: string[]): Record<string, UpstreamSettings> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    problems.push(`UPSTREAMS_FILE ${file} cannot be read as JSON: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    problems.push(`UPSTREAMS_FILE ${file} must be an object of named upstreams`);
    return {};
  }
  const out: Record<string, UpstreamSettings> = {};
  for (const [name, raw] of Object.entries(parsed as Record<string, unknown>)) {
    const p = upstreamProblems(name, raw);
    if (typeof p === 'string') problems.push(`UPSTREAMS_FILE: ${p}`);
    else out[name] = p;
  }
  return out;
}

function upstreamProblems(name: string, raw: unknown): UpstreamSettings | string {
  if (!NAME.test(name)) return `"${name}" is not a valid upstream name (letters, digits, . _ -)`;
  if (typeof raw !== 'object' || raw === null) return `${name} must be an object`;
  const o = raw as Record<string, unknown>;
  const opt = (k: string): string | undefined | Error => {
    const v = o[k];
    if (v === undefined || v === null || v === '') return undefined;
    return typeof v === 'string' ? v : new Error(`${name}.${k} must be a string`);
  };
  const url = (k: string): string | undefined | Error => {
    const v = opt(k);
    if (v === undefined || v instanceof Error) return v;
    try {
      new URL(v.replaceAll('{region}', 'region'));
      return v;
    } catch {
      return new Error(`${name}.${k} is not a URL`);
    }
  };
  const fields = (keys: string[], read: (k: string) => string | undefined | Error): Record<string, string | undefined> | string => {
    const r: Record<string, string | undefined> = {};
    for (const k of keys) {
      const v = read(k);
      if (v instanceof Error) return v.message;
      r[k] = v;
    }
    return r;
  };
  const known: Record<string, string[]> = {
    bedrock: ['platform', 'url', 'control_url', 'api_key', 'aws_profile'],
    vertex: ['platform', 'project', 'credentials_file', 'url'],
    messages: ['platform', 'url', 'api_key'],
  };
  const platform = o['platform'];
  if (platform !== 'bedrock' && platform !== 'vertex' && platform !== 'messages') {
    return `${name}.platform must be "bedrock", "vertex" or "messages"`;
  }
  const unknown = Object.keys(o).filter((k) => !(known[platform] as string[]).includes(k));
  if (unknown.length > 0) return `${name}: unknown setting(s) ${unknown.join(', ')} for platform ${platform}`;
  if (platform === 'bedrock') {
    const u = fields(['url', 'control_url'], url);
    const s = fields(['api_key', 'aws_profile'], opt);
    if (typeof u === 'string') return u;
    if (typeof s === 'string') return s;
    return { platform, url: u['url'], controlUrl: u['control_url'], apiKey: s['api_key'], awsProfile: s['aws_profile'] };
  }
  if (platform === 'vertex') {
    const u = fields(['url'], url);
    const s = fields(['project', 'credentials_file'], opt);
    if (typeof u === 'string') return u;
    if (typeof s === 'string') return s;
    if (s['project'] === undefined) return `${name}.project is required for a vertex upstream`;
    return { platform, project: s['project'], credentialsFile: s['credentials_file'], url: u['url'] };
  }
  const u = fields(['url'], url);
  const s = fields(['api_key'], opt);
  if (typeof u === 'string') return u;
  if (typeof s === 'string') return s;
  return { platform, url: u['url'], apiKey: s['api_key'] };
}
