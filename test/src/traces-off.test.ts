import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './harness/gateway.js';

/**
 * Run in a process of its own (this one has loaded the SDK for other tests): both processes' modules, then the
 * tracing start with the settings the environment gives, then with an endpoint. Prints the OpenTelemetry SDK
 * packages loaded after each step, from the CommonJS module cache (the SDK packages are CommonJS builds).
 */
const PROBE = `
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const sdk = () => [...new Set(Object.keys(require.cache)
  .map((f) => /@opentelemetry[\\\\/]([a-z-]+)/.exec(f)?.[1])
  .filter((p) => p !== undefined && p !== 'api'))].sort();
const { loadConfig, startTracing } = await import('@gateway/shared');
await import('./proxy/dist/src/run.js');
await import('./policy/dist/src/run.js');
const log = { info() {}, warn() {}, error() {}, debug() {} };
const modules = sdk();
const off = await startTracing(loadConfig(process.env).tracing, 'gateway-proxy', log);
const afterOff = sdk();
const on = await startTracing(loadConfig({ ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }).tracing, 'gateway-proxy', log);
const afterOn = sdk();
await on.stop(100);
console.log(JSON.stringify({ modules, off: off.enabled, afterOff, on: on.enabled, afterOn }));
`;

describe('traces off (no endpoint)', function () {
  this.timeout(60_000);

  it('loads no part of the OpenTelemetry SDK: importing both processes and starting tracing without an endpoint leaves only the API; with one, the SDK and its exporter load', function () {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('OTEL_')) env[k] = v;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', PROBE], { cwd: REPO_ROOT, env, encoding: 'utf8' });
    const seen = JSON.parse(out.trim().split('\n').pop() as string) as { modules: string[]; off: boolean; afterOff: string[]; on: boolean; afterOn: string[] };
    expect(seen.modules, 'loaded by importing the proxy and the policy service').to.deep.equal([]);
    expect(seen.off).to.equal(false);
    expect(seen.afterOff, 'loaded by starting tracing without an endpoint').to.deep.equal([]);
    // The probe sees the SDK when it is loaded: what it saw missing above was missing.
    expect(seen.on).to.equal(true);
    expect(seen.afterOn).to.include.members(['sdk-trace-node', 'sdk-trace-base', 'exporter-trace-otlp-proto']);
    // Spans are placed by hand: no instrumentation package, even with tracing on.
    expect(seen.afterOn.filter((p) => p.includes('instrumentation'))).to.deep.equal([]);
  });

  it('depends on no automatic instrumentation in any workspace', function () {
    for (const ws of ['shared', 'proxy', 'policy', 'privacy', 'names-model', 'test', '.']) {
      const pkg = JSON.parse(readFileSync(join(REPO_ROOT, ws, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
      const deps = Object.keys({ ...pkg['dependencies'], ...pkg['devDependencies'], ...pkg['optionalDependencies'] });
      expect(deps.filter((d) => d.startsWith('@opentelemetry/') && d.includes('instrumentation')), ws).to.deep.equal([]);
    }
  });
});
