import { expect } from 'chai';
import { ROOT_CONTEXT, propagation, trace } from '@opentelemetry/api';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startTracing } from '../../src/tracing/start-tracing.js';
import { contextFromTraceparent, gatewayTracer, tracingOn } from '../../src/tracing/trace-context.js';

const log = createLogger('tracing-test', 'silent');
/** A collector that is not there: nothing here waits for an export. */
const ENDPOINT = 'http://127.0.0.1:9';

/** How many of `n` new root spans, and of `n` spans under a sampled remote parent, the SDK records. */
async function recorded(env: Record<string, string>, n = 400): Promise<{ roots: number; underSampled: number }> {
  const tracing = await startTracing(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, ...env }, '/srv').tracing, 'gateway-proxy', log);
  try {
    expect(tracingOn()).to.equal(true);
    const sampledParent = contextFromTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    let roots = 0;
    let underSampled = 0;
    for (let i = 0; i < n; i += 1) {
      const root = gatewayTracer().startSpan('root', {}, ROOT_CONTEXT);
      const child = gatewayTracer().startSpan('child', {}, sampledParent);
      if (root.isRecording()) roots += 1;
      if (child.isRecording()) underSampled += 1;
    }
    return { roots, underSampled };
  } finally {
    await tracing.stop(200);
    // The next start registers its own provider and propagator.
    trace.disable();
    propagation.disable();
  }
}

describe('startTracing: the OTEL_TRACES_SAMPLER settings reach the SDK', function () {
  it('parentbased_always_on by default: every root and every child of a sampled parent', async function () {
    expect(await recorded({})).to.deep.equal({ roots: 400, underSampled: 400 });
  });

  it('always_off: nothing, whatever the parent says', async function () {
    expect(await recorded({ OTEL_TRACES_SAMPLER: 'always_off' })).to.deep.equal({ roots: 0, underSampled: 0 });
  });

  it('parentbased_traceidratio with OTEL_TRACES_SAMPLER_ARG: that share of new traces, every child of a sampled parent', async function () {
    const { roots, underSampled } = await recorded({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' });
    // 400 random trace ids at 0.25: 100 expected, outside 50-150 about once in 10^8 runs.
    expect(roots).to.be.within(50, 150);
    expect(underSampled).to.equal(400);
    expect(await recorded({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' })).to.deep.equal({ roots: 0, underSampled: 0 });
  });
});
