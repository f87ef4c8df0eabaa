/**
 * The tracing settings (CONTRACT.md "Traces"): only the standard OTEL_* variables, plus OTEL_GATEWAY_TRUST_INCOMING.
 * No endpoint (or OTEL_SDK_DISABLED=true): undefined, and no SDK is started at all. The exporter itself still reads
 * the OTEL_EXPORTER_OTLP_* variables it owns (headers, timeout, compression), as the SDK documents them.
 */
export interface TracingConfig {
  /** Where spans go: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. */
  readonly endpoint: string;
  /** OTEL_SERVICE_NAME; undefined: each process names itself (gateway-proxy, gateway-policy). */
  readonly serviceName: string | undefined;
  readonly sampler: { readonly kind: SamplerKind; readonly ratio: number };
  /** OTEL_RESOURCE_ATTRIBUTES, decoded. */
  readonly resourceAttributes: Readonly<Record<string, string>>;
  /** true: an incoming traceparent becomes the parent; false: a new trace linked to it. */
  readonly trustIncoming: boolean;
}

export type SamplerKind =
  | 'always_on'
  | 'always_off'
  | 'traceidratio'
  | 'parentbased_always_on'
  | 'parentbased_always_off'
  | 'parentbased_traceidratio';

const SAMPLERS: ReadonlySet<string> = new Set<SamplerKind>([
  'always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio',
]);

type Env = Readonly<Record<string, string | undefined>>;

/** The tracing settings of `env`, or undefined when tracing is off; problems are pushed onto `problems`. */
export function tracingConfig(env: Env, problems: string[]): TracingConfig | undefined {
  const str = (name: string): string | undefined => {
    const raw = env[name]?.trim();
    return raw === undefined || raw === '' ? undefined : raw;
  };
  const disabled = str('OTEL_SDK_DISABLED');
  if (disabled !== undefined && disabled !== 'true' && disabled !== 'false') problems.push('OTEL_SDK_DISABLED must be true or false');
  const trustRaw = str('OTEL_GATEWAY_TRUST_INCOMING') ?? 'true';
  if (trustRaw !== 'true' && trustRaw !== 'false') problems.push('OTEL_GATEWAY_TRUST_INCOMING must be true or false');
  const protocol = str('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? str('OTEL_EXPORTER_OTLP_PROTOCOL') ?? 'http/protobuf';
  if (protocol !== 'http/protobuf') problems.push(`OTEL_EXPORTER_OTLP_PROTOCOL: only http/protobuf is supported (got "${protocol}")`);

  const samplerRaw = str('OTEL_TRACES_SAMPLER') ?? 'parentbased_always_on';
  let kind: SamplerKind = 'parentbased_always_on';
  if (SAMPLERS.has(samplerRaw)) kind = samplerRaw as SamplerKind;
  else problems.push(`OTEL_TRACES_SAMPLER must be one of ${[...SAMPLERS].join(', ')} (got "${samplerRaw}")`);
  const argRaw = str('OTEL_TRACES_SAMPLER_ARG');
  let ratio = 1;
  if (argRaw !== undefined && kind.endsWith('traceidratio')) {
    const n = Number(argRaw);
    if (!Number.isFinite(n) || n < 0 || n > 1) problems.push(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1 (got "${argRaw}")`);
    else ratio = n;
  }

  const resourceAttributes: Record<string, string> = {};
  for (const pair of (str('OTEL_RESOURCE_ATTRIBUTES') ?? '').split(',')) {
    if (pair.trim() === '') continue;
    const eq = pair.indexOf('=');
    if (eq <= 0) {
      problems.push('OTEL_RESOURCE_ATTRIBUTES must be key=value pairs separated by commas');
      break;
    }
    try {
      resourceAttributes[decodeURIComponent(pair.slice(0, eq).trim())] = decodeURIComponent(pair.slice(eq + 1).trim());
    } catch {
      problems.push('OTEL_RESOURCE_ATTRIBUTES holds a badly percent-encoded pair');
      break;
    }
  }

  const signal = str('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const base = str('OTEL_EXPORTER_OTLP_ENDPOINT');
  const endpoint = signal ?? (base === undefined ? undefined : `${base.replace(/\/+$/, '')}/v1/traces`);
  if (endpoint === undefined || disabled === 'true') return undefined;
  try {
    const url = new URL(endpoint);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    problems.push(`OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http(s) URL (got "${endpoint}")`);
  }
  return { endpoint, serviceName: str('OTEL_SERVICE_NAME'), sampler: { kind, ratio }, resourceAttributes, trustIncoming: trustRaw !== 'false' };
}
