import { expect } from 'chai';
import { ConfigError, loadConfig } from '../src/config.js';

describe('config', function () {
  it('reads the contract\'s defaults', function () {
    const c = loadConfig({}, '/srv');
    expect(c.port).to.equal(8080);
    expect(c.policyAddr).to.deep.equal({ host: '127.0.0.1', port: 50051 });
    expect(c.metricsPort).to.equal(9464);
    expect(c.dataDir).to.equal('/srv/data');
    expect(c.redisUrl).to.equal(undefined);
    expect(c.upstream.kind).to.equal('messages');
    expect(Object.isFrozen(c) && Object.isFrozen(c.upstream)).to.equal(true);
  });

  it('reports every problem at once', function () {
    try {
      loadConfig({ PORT: 'x', POLICY_ADDR: 'nohost', REDIS_URL: 'http://x', UPSTREAM_KIND: 'grpc', TRUSTED_PROXIES: '10.0.0.0/8,10.0.0.0/33', LEASE_TTL_MS: '600000' });
      expect.fail('should throw');
    } catch (err) {
      expect(err).to.be.instanceOf(ConfigError);
      const problems = (err as ConfigError).problems.join('\n');
      for (const name of ['PORT', 'POLICY_ADDR', 'REDIS_URL', 'UPSTREAM_KIND', 'TRUSTED_PROXIES', 'LEASE_TTL_MS']) expect(problems).to.contain(name);
      expect((err as ConfigError).problems).to.have.length(6);
    }
  });

  it('reads PROXY_WORKERS: 1 by default, a count, or auto; anything else is a problem', function () {
    expect(loadConfig({}).proxyWorkers).to.equal(1);
    expect(loadConfig({ PROXY_WORKERS: '4' }).proxyWorkers).to.equal(4);
    expect(loadConfig({ PROXY_WORKERS: 'auto' }).proxyWorkers).to.equal('auto');
    for (const bad of ['0', '65', '2.5', 'all', '-1']) expect(() => loadConfig({ PROXY_WORKERS: bad }), bad).to.throw(ConfigError, 'PROXY_WORKERS');
  });

  it('reads the connection caps and request timeouts, with defaults', function () {
    expect(loadConfig({}).connections).to.deep.equal({ max: 10_000, maxPerSource: 1_000, headersTimeoutMs: 10_000, requestTimeoutMs: 120_000 });
    const c = loadConfig({ MAX_CONNECTIONS: '50', MAX_CONNECTIONS_PER_SOURCE: '5', HEADERS_TIMEOUT_MS: '2000', REQUEST_TIMEOUT_MS: '3000' });
    expect(c.connections).to.deep.equal({ max: 50, maxPerSource: 5, headersTimeoutMs: 2_000, requestTimeoutMs: 3_000 });
    expect(() => loadConfig({ MAX_CONNECTIONS: '0' })).to.throw(ConfigError, 'MAX_CONNECTIONS');
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '4000' })).to.throw(ConfigError, 'HEADERS_TIMEOUT_MS');
  });

  it('reads POLICY_TARGET: POLICY_ADDR by default, a list, or a DNS name; anything else is a problem', function () {
    expect(loadConfig({ POLICY_ADDR: '10.1.2.3:6000' }).policyTarget).to.deep.equal({ kind: 'list', addresses: ['10.1.2.3:6000'] });
    expect(loadConfig({ POLICY_TARGET: 'a:1, b:2,a:1' }).policyTarget).to.deep.equal({ kind: 'list', addresses: ['a:1', 'b:2'] });
    expect(loadConfig({ POLICY_TARGET: '[::1]:50051' }).policyTarget).to.deep.equal({ kind: 'list', addresses: ['[::1]:50051'] });
    expect(loadConfig({ POLICY_TARGET: 'dns:///policy.gateway.svc:50051' }).policyTarget).to.deep.equal({ kind: 'dns', host: 'policy.gateway.svc', port: 50051 });
    for (const bad of ['policy', 'a:1,', 'dns:///policy', 'a:70000', 'dns://policy:1']) {
      expect(() => loadConfig({ POLICY_TARGET: bad }), bad).to.throw(ConfigError, 'POLICY_TARGET');
    }
  });

  it('reads route verification: on for Bedrock only, its interval, maximum age and control-plane URL', function () {
    expect(loadConfig({}).residency).to.deep.equal({ verify: false, verifyIntervalMs: 600_000, maxAgeMs: 86_400_000, controlUrl: undefined });
    const c = loadConfig({ UPSTREAM_KIND: 'bedrock', RESIDENCY_VERIFY_INTERVAL_MS: '5000', RESIDENCY_VERIFY_MAX_AGE_MS: '60000', UPSTREAM_CONTROL_URL: 'http://127.0.0.1:9/{region}' });
    expect(c.residency).to.deep.equal({ verify: true, verifyIntervalMs: 5_000, maxAgeMs: 60_000, controlUrl: 'http://127.0.0.1:9/{region}' });
    expect(() => loadConfig({ RESIDENCY_VERIFY_INTERVAL_MS: '60000', RESIDENCY_VERIFY_MAX_AGE_MS: '5000', UPSTREAM_CONTROL_URL: 'not a url' }))
      .to.throw(ConfigError, /UPSTREAM_CONTROL_URL is not a URL[\s\S]*RESIDENCY_VERIFY_MAX_AGE_MS must not be less/);
  });

  it('reads DATABASE_URL, and the policy service refuses it without REDIS_URL', function () {
    const url = 'postgres://gw:secret@db.internal:5432/gateway';
    expect(loadConfig({}).databaseUrl).to.equal(undefined);
    // gatewayctl and the proxy need no counters: the same settings are fine for them.
    expect(loadConfig({ DATABASE_URL: url }).databaseUrl).to.equal(url);
    expect(loadConfig({ DATABASE_URL: url }, '/', { service: 'cli' }).databaseUrl).to.equal(url);
    expect(loadConfig({ DATABASE_URL: url, REDIS_URL: 'redis://r:6379' }, '/', { service: 'policy' }).databaseUrl).to.equal(url);
    expect(() => loadConfig({ DATABASE_URL: url }, '/', { service: 'policy' })).to.throw(ConfigError, /DATABASE_URL is set but REDIS_URL is not/);
    try {
      loadConfig({ DATABASE_URL: 'mysql://x/y', PORT: 'x' }, '/', { service: 'policy' });
      expect.fail('should throw');
    } catch (err) {
      // Reported with every other problem, and without echoing a value that may hold a password.
      const problems = (err as ConfigError).problems;
      expect(problems).to.have.length(3);
      expect(problems.join('\n')).to.contain('DATABASE_URL must be a PostgreSQL URL').and.not.contain('mysql://');
    }
  });
});
