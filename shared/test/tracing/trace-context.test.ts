import { expect } from 'chai';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, propagation, trace, type Context } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { inSpan, markTracingOff, markTracingOn, traceparentOf, tracingOn } from '../../src/tracing/trace-context.js';

/** A failure whose message quotes what must never reach a span (as Node's JSON parse errors quote the body). */
class QuotingError extends Error {
  readonly code = 'invalid_request';
}

describe('step spans (inSpan, endWhenSettled)', function () {
  const exporter = new InMemorySpanExporter();

  it('runs the step as it is, with no span and no context, before an SDK is started', async function () {
    expect(tracingOn()).to.equal(false);
    let given: Context | undefined = ROOT_CONTEXT;
    expect(await inSpan('step', {}, ROOT_CONTEXT, (ctx) => {
      given = ctx;
      return Promise.resolve(7);
    })).to.equal(7);
    expect(given).to.equal(undefined);
    expect(traceparentOf(undefined)).to.equal('');
  });

  describe('with an SDK', function () {
    before(function () {
      // As startTracing registers them, without a context manager.
      trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
      markTracingOn();
    });
    beforeEach(() => exporter.reset());
    // The suite's other tests run in this process: they see the API's no-op implementations again.
    after(function () {
      markTracingOff();
      trace.disable();
      propagation.disable();
    });

    it('parents a step on the context given (never an ambient one), and hands the step its own span\'s context', async function () {
      const result = await inSpan('outer', { kind: SpanKind.SERVER }, ROOT_CONTEXT, (outer) =>
        // After an await: no context manager is registered, so only the argument carries the parent.
        Promise.resolve().then(() => inSpan('inner', { kind: SpanKind.CLIENT }, outer, async (inner) => traceparentOf(inner))),
      );
      const [inner, outer] = exporter.getFinishedSpans();
      expect(outer?.name).to.equal('outer');
      expect(inner?.name).to.equal('inner');
      expect(inner?.parentSpanContext?.spanId).to.equal(outer?.spanContext().spanId);
      expect(inner?.spanContext().traceId).to.equal(outer?.spanContext().traceId);
      expect(result).to.equal(`00-${inner?.spanContext().traceId}-${inner?.spanContext().spanId}-01`);
    });

    it('makes no span for a request without a trace (no parent)', async function () {
      expect(await inSpan('step', {}, undefined, () => Promise.resolve('done'))).to.equal('done');
      expect(exporter.getFinishedSpans()).to.deep.equal([]);
    });

    it('describes a result, and ends a failed step with error.type and ERROR, never the error\'s message', async function () {
      await inSpan('ok', {}, ROOT_CONTEXT, () => Promise.resolve({ n: 3 }), (span, r) => span.setAttribute('gateway.count', r.n));
      let thrown: unknown;
      try {
        await inSpan('fails', {}, ROOT_CONTEXT, () => Promise.reject(new QuotingError('Unexpected token in {"secret-lynx-9081"')));
      } catch (err) {
        thrown = err;
      }
      expect(thrown).to.be.instanceOf(QuotingError);
      // A step that throws before it returns a promise is a failed step too.
      expect(() => inSpan('throws', {}, ROOT_CONTEXT, () => {
        throw new TypeError('secret-lynx-9081');
      }).catch(() => undefined)).to.not.throw();
      await new Promise((r) => setImmediate(r));
      const [ok, fails, throws] = exporter.getFinishedSpans();
      expect(ok?.attributes).to.deep.equal({ 'gateway.count': 3 });
      expect(ok?.status.code).to.equal(SpanStatusCode.UNSET);
      expect(fails?.attributes).to.deep.equal({ 'error.type': 'invalid_request' });
      expect(fails?.status.code).to.equal(SpanStatusCode.ERROR);
      expect(throws?.attributes).to.deep.equal({ 'error.type': 'TypeError' });
      expect(JSON.stringify(exporter.getFinishedSpans().map((s) => [s.attributes, s.events, s.status]))).to.not.include('secret-lynx');
    });
  });
});
