import { isRecord } from './fake-behaviour.js';
import { startMessagesFake, type MessagesFake } from './messages-fake.js';
import type { RecordedRequest } from './fake-server.js';

export interface MockUpstreamConfig {
  port: number;
  /** undefined: any key is accepted. */
  apiKey: string | undefined;
}

/** Reads MOCK_UPSTREAM_PORT (default 8787) and MOCK_UPSTREAM_API_KEY; throws listing every problem. */
export function readMockUpstreamConfig(env: Readonly<Record<string, string | undefined>>): MockUpstreamConfig {
  const rawPort = env['MOCK_UPSTREAM_PORT'] ?? '8787';
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port > 65_535) throw new Error(`MOCK_UPSTREAM_PORT must be a port number, got '${rawPort}'`);
  const apiKey = env['MOCK_UPSTREAM_API_KEY'];
  return Object.freeze({ port, apiKey: apiKey === '' ? undefined : apiKey });
}

/** Starts the Messages fake on 127.0.0.1 and reports to `out`: one line on start, one per request. */
export async function runMockUpstream(config: MockUpstreamConfig, out: (line: string) => void): Promise<MessagesFake> {
  const fake = await startMessagesFake({
    port: config.port,
    host: '127.0.0.1',
    // A demo can run for hours; old records are of no use to anyone.
    maxRecorded: 100,
    onRequest: (r) => out(describe(r)),
    ...(config.apiKey !== undefined ? { apiKey: config.apiKey } : {}),
  });
  out(
    `mock upstream on ${fake.url} (${config.apiKey === undefined ? 'any key accepted' : 'key required'}); ` +
      `point the gateway at it: UPSTREAM_URL=${fake.url}/v1 UPSTREAM_API_KEY=${config.apiKey ?? 'any-key'} npm start`,
  );
  return fake;
}

/** Method, path and model only: bodies may hold anything. */
function describe(r: RecordedRequest): string {
  const model = isRecord(r.json) && typeof r.json['model'] === 'string' ? r.json['model'] : '-';
  const stream = isRecord(r.json) && r.json['stream'] === true ? ' stream' : '';
  return `${new Date(r.receivedAt).toISOString()} ${r.method} ${r.path} model=${model}${stream}`;
}
