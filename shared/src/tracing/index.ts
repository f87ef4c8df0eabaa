export { tracingConfig } from './tracing-config.js';
export type { TracingConfig, SamplerKind } from './tracing-config.js';
export { startTracing } from './start-tracing.js';
export type { Tracing } from './start-tracing.js';
export { gatewayTracer, traceparentOf, contextFromTraceparent, inSpan, endWhenSettled, errorTypeOf, tracingOn } from './trace-context.js';
