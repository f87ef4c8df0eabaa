import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('tracing settings (OTEL_*)', function () {
  it('is off without an endpoint, or with OTEL_SDK_DISABLED=true', function () {
    expect(loadConfig({}, '/srv').tracing).to.equal(undefined);
    expect(loadConfig({ OTEL_TRACES_SAMPLER: 'always_on' }, '/srv').tracing).to.equal(undefined);
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }, '/srv').tracing).to.equal(undefined);
  });

  it('adds /v1/traces to the base endpoint, takes the traces endpoint as given, and reads the standard settings', function () {
    const t = loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
      OTEL_SERVICE_NAME: 'edge-proxy',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=prod,team=a%2Cb',
      OTEL_GATEWAY_TRUST_INCOMING: 'false',
    }, '/srv').tracing;
    expect(t).to.deep.equal({
      endpoint: 'http://collector:4318/v1/traces',
      serviceName: 'edge-proxy',
      sampler: { kind: 'parentbased_traceidratio', ratio: 0.25 },
      resourceAttributes: { 'deployment.environment.name': 'prod', team: 'a,b' },
      trustIncoming: false,
    });
    const signal = loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b/otlp/traces' }, '/srv').tracing;
    expect(signal?.endpoint).to.equal('https://b/otlp/traces');
    expect(signal?.trustIncoming).to.equal(true);
    expect(signal?.sampler).to.deep.equal({ kind: 'parentbased_always_on', ratio: 1 });
  });

  it('reports every bad tracing setting with the others', function () {
    try {
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_TRACES_SAMPLER: 'sometimes',
        OTEL_GATEWAY_TRUST_INCOMING: 'yes',
        OTEL_RESOURCE_ATTRIBUTES: 'novalue',
      }, '/srv');
      expect.fail('should throw');
    } catch (err) {
      expect(err).to.be.instanceOf(ConfigError);
      const problems = (err as ConfigError).problems.join('\n');
      for (const name of ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_TRACES_SAMPLER', 'OTEL_GATEWAY_TRUST_INCOMING', 'OTEL_RESOURCE_ATTRIBUTES']) expect(problems).to.contain(name);
    }
  });
});
