import { diag, DiagLogLevel, type DiagLogger } from '@opentelemetry/api';
import type { Sampler } from '@opentelemetry/sdk-trace-base';
import type { Logger } from '../logger.js';
import { markTracingOff, markTracingOn } from './trace-context.js';
import type { TracingConfig } from './tracing-config.js';

/** The SDK of one process, or nothing (tracing off): stop() flushes what is queued within the time given. */
export interface Tracing {
  readonly enabled: boolean;
  /** Exports what is queued and stops, waiting at most `withinMs` (what is left of the drain timeout). */
  stop(withinMs: number): Promise<void>;
}

const OFF: Tracing = { enabled: false, stop: () => Promise.resolve() };

/** The SDK's own complaints (an unreachable collector, a refused export): at most one log line a minute. */
const DIAG_EVERY_MS = 60_000;

/**
 * Starts the OpenTelemetry SDK for this process (CONTRACT.md "Traces"): a tracer provider with a bounded batch
 * processor and the OTLP/HTTP protobuf exporter and the W3C trace-context propagator (no baggage); no context
 * manager (trace-context.ts: contexts are passed by hand). No automatic instrumentation is loaded: spans are opened
 * by hand.
 * Without a TracingConfig nothing is started, and the API's no-op implementations stay in place.
 */
export async function startTracing(config: TracingConfig | undefined, defaultServiceName: string, log: Logger): Promise<Tracing> {
  if (config === undefined) return OFF;
  // Loaded only now: with tracing off the SDK is not even loaded (it costs about a second of start-up on a busy
  // machine).
  const [{ W3CTraceContextPropagator }, { OTLPTraceExporter }, { defaultResource, resourceFromAttributes }, base, { NodeTracerProvider }] = await Promise.all([
    import('@opentelemetry/core'),
    import('@opentelemetry/exporter-trace-otlp-proto'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/sdk-trace-node'),
  ]);
  let lastDiag = 0;
  const complain = (message: string): void => {
    const now = Date.now();
    if (now - lastDiag < DIAG_EVERY_MS) return;
    lastDiag = now;
    log.warn({ otel: message.slice(0, 300) }, 'trace export trouble (spans may be dropped; serving is unaffected)');
  };
  const logger: DiagLogger = {
    error: complain,
    warn: complain,
    info: () => undefined,
    debug: () => undefined,
    verbose: () => undefined,
  };
  diag.setLogger(logger, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });

  const attributes: Record<string, string> = { ...config.resourceAttributes };
  attributes['service.name'] = config.serviceName ?? config.resourceAttributes['service.name'] ?? defaultServiceName;
  const provider = new NodeTracerProvider({
    resource: defaultResource().merge(resourceFromAttributes(attributes)),
    sampler: samplerOf(config, base),
    // The queue is bounded (OTEL_BSP_MAX_QUEUE_SIZE, 2048 by default): spans past it are dropped, never buffered,
    // so a slow or absent collector costs memory up to the bound and nothing on the request path.
    spanProcessors: [new base.BatchSpanProcessor(new OTLPTraceExporter({ url: config.endpoint }))],
  });
  provider.register({ propagator: new W3CTraceContextPropagator(), contextManager: null });
  markTracingOn();
  log.info({ endpoint: config.endpoint, sampler: config.sampler.kind, service: attributes['service.name'] }, 'tracing on');
  return {
    enabled: true,
    async stop(withinMs: number): Promise<void> {
      markTracingOff();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), Math.max(0, withinMs))));
      const done = provider.shutdown().then(
        () => 'done' as const,
        () => 'done' as const,
      );
      if ((await Promise.race([done, late])) === 'late') log.warn({ within_ms: withinMs }, 'spans not exported before the drain timeout were dropped');
      clearTimeout(timer);
    },
  };
}

type SdkBase = typeof import('@opentelemetry/sdk-trace-base');

function samplerOf(config: TracingConfig, sdk: SdkBase): Sampler {
  const { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler } = sdk;
  const { kind, ratio } = config.sampler;
  switch (kind) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
  }
}
