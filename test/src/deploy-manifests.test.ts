import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, parse } from 'yaml';
import { loadConfig, parsePolicyTarget } from '@gateway/shared';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { PrometheusRule, ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import { REPO_ROOT } from './harness/gateway.js';

type Obj = { apiVersion: string; kind: string; metadata: { name: string }; spec?: Record<string, unknown> } & Record<string, unknown>;
interface Container {
  name: string;
  args?: string[];
  ports?: Array<{ name: string; containerPort: number }>;
  env?: Array<{ name: string; value?: string }>;
  readinessProbe?: { httpGet?: { path: string; port: string }; grpc?: { port: number } };
  livenessProbe?: { httpGet?: { path: string; port: string }; grpc?: { port: number } };
}
interface PodSpec {
  terminationGracePeriodSeconds?: number;
  containers: Container[];
}
interface PodSpecWithVolumes {
  containers: Array<Container & { volumeMounts?: Array<{ name: string; mountPath: string; readOnly?: boolean; subPath?: string }> }>;
  volumes?: Array<{ name: string; secret?: { secretName: string; items?: Array<{ key: string; path: string }> } }>;
}

const MODELS: Record<string, new (o: never) => { validate(): void }> = {
  StatefulSet, Deployment, Service, ConfigMap, Secret, NetworkPolicy, PodDisruptionBudget, HorizontalPodAutoscaler, ServiceMonitor, PrometheusRule,
};

function render(dir: string): Obj[] {
  let out: string;
  try {
    out = execFileSync('kubectl', ['kustomize', join(REPO_ROOT, dir)], { encoding: 'utf8' });
  } catch (err) {
    throw new Error(`kubectl kustomize ${dir} failed (is kubectl installed?): ${String(err)}`);
  }
  return parseAllDocuments(out).map((d) => d.toJS() as Obj);
}

const podSpec = (o: Obj): PodSpec => ((o.spec as { template: { spec: PodSpec } }).template.spec);
const podSpecWithVolumes = (o: Obj): PodSpecWithVolumes => ((o.spec as { template: { spec: PodSpecWithVolumes } }).template.spec);
const envOf = (c: Container): Record<string, string> => Object.fromEntries((c.env ?? []).map((e) => [e.name, e.value ?? '']));
const portOf = (c: Container, name: string): number | undefined => c.ports?.find((p) => p.name === name)?.containerPort;

/**
 * Every environment variable the gateway reads: the names in shared/src/config.ts and the tracing settings it reads
 * through shared/src/tracing/tracing-config.ts (nothing else reads the environment).
 */
const CONFIG_ENV = new Set(
  ['shared/src/config.ts', 'shared/src/tracing/tracing-config.ts']
    .flatMap((f) => [...readFileSync(join(REPO_ROOT, f), 'utf8').matchAll(/\b(?:str|int|bool)\('([A-Z_]+)'/g)])
    .map((m) => m[1]!),
);

/** Every metric name the processes register, with the series names Prometheus derives from histograms. */
function exposedMetrics(): Set<string> {
  const names = new Set<string>();
  for (const file of ['proxy/src/proxy-metrics.ts', 'policy/src/policy-metrics.ts']) {
    for (const m of readFileSync(join(REPO_ROOT, file), 'utf8').matchAll(/name: '([a-z_:]+)'/g)) {
      for (const suffix of ['', '_bucket', '_sum', '_count']) names.add(`${m[1]}${suffix}`);
    }
  }
  return names;
}
/** The OpenTelemetry label names share the metrics' prefix; they are labels, not metrics. */
const LABELS = new Set(['gen_ai_request_model', 'gen_ai_token_type', 'gen_ai_operation_name']);
const referencedMetrics = (text: string): string[] =>
  [...new Set([...text.matchAll(/\b((?:gateway|gen_ai)_[a-z_]+)\b/g)].map((m) => m[1]!))].filter((m) => !LABELS.has(m));

describe('deployment: kustomize, Docker, compose, Grafana and alerts agree with the code', function () {
  this.timeout(60_000);
  const defaults = loadConfig({});
  const base = render('deploy/k8s/base');
  const scaled = render('deploy/k8s/overlays/scaled');
  const ha = render('deploy/k8s/overlays/ha');
  const haCnpg = render('deploy/k8s/overlays/ha-cloudnativepg');

  it('every kustomization renders, and every object passes its schema', function () {
    for (const [name, objects] of [['base', base], ['scaled', scaled], ['ha', ha], ['ha-cloudnativepg', haCnpg]] as const) {
      expect(objects.length, name).to.be.greaterThan(5);
      for (const o of objects) {
        // The operator's own resource: its schema is the operator's (CRD), not in kubernetes-models.
        if (o.apiVersion === 'postgresql.cnpg.io/v1' && o.kind === 'Cluster') continue;
        const Model = MODELS[o.kind];
        expect(Model, `${name}: a schema for ${o.kind}`).to.not.equal(undefined);
        expect(() => new Model!(o as never).validate(), `${name}: ${o.kind}/${o.metadata.name}`).to.not.throw();
      }
    }
  });

  it('base is the sidecar pair: one pod, containers proxy and policy, gRPC over localhost, ports and probes as the config says', function () {
    const sts = base.find((o) => o.kind === 'StatefulSet')!;
    expect((sts.spec as { replicas: number }).replicas).to.equal(1);
    const pod = podSpec(sts);
    expect(pod.containers.map((c) => c.name)).to.deep.equal(['proxy', 'policy']);
    const [proxy, policy] = pod.containers as [Container, Container];
    expect(proxy.args).to.deep.equal(['proxy/dist/src/main.js']);
    expect(policy.args).to.deep.equal(['policy/dist/src/main.js']);
    // The proxy dials the policy service over localhost on the configured port.
    expect(envOf(proxy)['POLICY_ADDR']).to.equal(`127.0.0.1:${defaults.policyAddr.port}`);
    expect(envOf(policy)['POLICY_ADDR']).to.equal(`0.0.0.0:${defaults.policyAddr.port}`);
    expect(portOf(proxy, 'http')).to.equal(defaults.port).and.equal(Number(envOf(proxy)['PORT']));
    expect(portOf(proxy, 'metrics')).to.equal(defaults.metricsPort).and.equal(Number(envOf(proxy)['METRICS_PORT']));
    expect(portOf(policy, 'grpc')).to.equal(defaults.policyAddr.port);
    expect(portOf(policy, 'policy-metrics')).to.equal(Number(envOf(policy)['METRICS_PORT']) + 1);
    expect(portOf(policy, 'admin')).to.equal(defaults.adminPort).and.equal(Number(envOf(policy)['ADMIN_PORT']));
    expect(envOf(policy)['ADMIN_HOST']).to.equal('0.0.0.0');
    expect(proxy.readinessProbe?.httpGet).to.deep.equal({ path: '/readyz', port: 'http' });
    expect(proxy.livenessProbe?.httpGet).to.deep.equal({ path: '/healthz', port: 'http' });
    expect(policy.readinessProbe?.grpc?.port).to.equal(defaults.policyAddr.port);
    expect(policy.livenessProbe?.grpc?.port).to.equal(defaults.policyAddr.port);
    // Time to drain: longer than the drain timeout the processes run with.
    const settings = base.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('gateway-config'))!['data'] as Record<string, string>;
    const drainMs = Number(settings['DRAIN_TIMEOUT_MS']);
    expect(drainMs).to.equal(defaults.drain.timeoutMs);
    expect(pod.terminationGracePeriodSeconds! * 1000).to.be.greaterThan(drainMs);
  });

  it('every environment variable the manifests and compose set is one the gateway reads', function () {
    const named = new Set<string>();
    // The stores the gateway depends on run their own images with their own settings.
    const dependency = (o: Obj) => ['model-gateway-redis', 'model-gateway-postgres'].includes(o.metadata.name);
    for (const o of [...base, ...scaled, ...ha, ...haCnpg]) {
      if (o.kind === 'ConfigMap' && o.metadata.name.startsWith('gateway-config')) for (const k of Object.keys(o['data'] as object)) named.add(k);
      if (o.kind === 'Secret' && !o.metadata.name.startsWith('gateway-postgres-demo')) for (const k of Object.keys({ ...(o['data'] as object), ...(o['stringData'] as object) })) named.add(k);
      if ((o.kind === 'StatefulSet' || o.kind === 'Deployment') && !dependency(o)) {
        for (const c of podSpec(o).containers) for (const e of c.env ?? []) named.add(e.name);
      }
    }
    const compose = parse(readFileSync(join(REPO_ROOT, 'deploy/compose/docker-compose.yml'), 'utf8')) as { services: Record<string, { environment?: Record<string, string> }> };
    for (const svc of ['policy', 'proxy']) for (const k of Object.keys(compose.services[svc]?.environment ?? {})) named.add(k);
    expect([...named].filter((n) => !CONFIG_ENV.has(n))).to.deep.equal([]);
    expect(named.has('POLICY_ADDR') && named.has('UPSTREAM_API_KEY') && named.has('REDIS_URL')).to.equal(true);
  });

  it('scaled runs proxies as a Deployment with an HPA, dialling the policy Service; counters on Redis', function () {
    const sts = scaled.find((o) => o.kind === 'StatefulSet')!;
    expect(podSpec(sts).containers.map((c) => c.name)).to.deep.equal(['policy']);
    expect(envOf(podSpec(sts).containers[0]!)['REDIS_URL']).to.match(/^redis:\/\//);
    const proxies = scaled.find((o) => o.kind === 'Deployment' && o.metadata.name === 'model-gateway-proxy')!;
    const proxy = podSpec(proxies).containers[0]!;
    const policySvc = scaled.find((o) => o.kind === 'Service' && o.metadata.name === 'model-gateway-policy')!;
    const grpcPort = (policySvc.spec as { ports: Array<{ port: number }> }).ports[0]!.port;
    expect(envOf(proxy)['POLICY_ADDR']).to.equal(`model-gateway-policy:${grpcPort}`);
    expect(grpcPort).to.equal(defaults.policyAddr.port);
    const hpa = scaled.find((o) => o.kind === 'HorizontalPodAutoscaler')!;
    expect((hpa.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name).to.equal('model-gateway-proxy');
  });

  it('every proxy reads its attestation keys from the one Secret, mounted whole and read-only; the policy pod does not', function () {
    const proxies = [
      podSpecWithVolumes(base.find((o) => o.kind === 'StatefulSet')!),
      podSpecWithVolumes(scaled.find((o) => o.kind === 'Deployment' && o.metadata.name === 'model-gateway-proxy')!),
    ];
    for (const pod of proxies) {
      const proxy = pod.containers.find((c) => c.name === 'proxy')!;
      const file = envOf(proxy)['ATTESTATION_KEY_FILE'] as string;
      const mount = proxy.volumeMounts?.find((m) => file.startsWith(`${m.mountPath}/`));
      expect(mount, 'a mount holding ATTESTATION_KEY_FILE').to.not.equal(undefined);
      expect(mount?.readOnly).to.equal(true);
      expect(mount?.subPath, 'a subPath mount never sees the Secret change').to.equal(undefined);
      const volume = pod.volumes?.find((v) => v.name === mount?.name);
      expect(volume?.secret?.secretName).to.equal('gateway-attestation');
      expect(volume?.secret?.items?.map((i) => `${mount?.mountPath}/${i.path}`)).to.deep.equal([file]);
    }
    const policyOnly = podSpecWithVolumes(scaled.find((o) => o.kind === 'StatefulSet')!);
    expect(policyOnly.volumes?.some((v) => v.secret?.secretName === 'gateway-attestation')).to.equal(false);
    // No private key is rendered into the manifests.
    expect(JSON.stringify([...base, ...scaled])).to.not.contain('PRIVATE KEY');
  });

  it('ha runs three policy replicas without a volume on PostgreSQL and Redis, two always up, one replaced at a time', function () {
    for (const [name, objects] of [['ha', ha], ['ha-cloudnativepg', haCnpg]] as const) {
      expect(objects.filter((o) => o.kind === 'StatefulSet' && o.metadata.name === 'model-gateway'), name).to.deep.equal([]);
      const policy = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'model-gateway-policy')!;
      const spec = policy.spec as { replicas: number; strategy: { rollingUpdate: { maxUnavailable: number } }; template: { spec: { volumes: Array<Record<string, unknown>> } } };
      expect(spec.replicas, name).to.equal(3);
      expect(spec.strategy.rollingUpdate.maxUnavailable, name).to.equal(1);
      // No claim: every volume is scratch or configuration.
      for (const v of spec.template.spec.volumes) expect(Object.keys(v).filter((k) => k !== 'name'), `${name}: volume ${String(v['name'])}`).to.satisfy((ks: string[]) => ks.every((k) => ['emptyDir', 'configMap'].includes(k)));
      expect((policy as { spec: { volumeClaimTemplates?: unknown } }).spec.volumeClaimTemplates, name).to.equal(undefined);
      const container = podSpec(policy).containers[0]!;
      expect(envOf(container)['REDIS_URL'], name).to.match(/^redis:\/\//);
      const env = (container as unknown as { env: Array<{ name: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }> }).env;
      expect(env.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef, name).to.be.an('object');
      const pdb = objects.find((o) => o.kind === 'PodDisruptionBudget' && o.metadata.name === 'model-gateway')!;
      expect(pdb.spec, name).to.deep.include({ minAvailable: 2, selector: { matchLabels: { 'app.kubernetes.io/name': 'model-gateway', 'app.kubernetes.io/component': 'policy' } } });
      expect((pdb.spec as Record<string, unknown>)['maxUnavailable'], name).to.equal(undefined);
      expect(objects.find((o) => o.kind === 'HorizontalPodAutoscaler')?.spec, name).to.deep.include({ scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'model-gateway-proxy' } });
      expect(objects.some((o) => o.kind === 'Deployment' && o.metadata.name === 'model-gateway-redis'), name).to.equal(true);
    }

    // The demo database: the Secret's DATABASE_URL names its Service and port, and the policy service accepts it.
    const secret = ha.find((o) => o.kind === 'Secret' && o.metadata.name.startsWith('gateway-database'))!;
    const databaseUrl = (secret['stringData'] as Record<string, string>)['DATABASE_URL']!;
    const target = new URL(databaseUrl);
    const pgService = ha.find((o) => o.kind === 'Service' && o.metadata.name === target.hostname)!;
    expect((pgService.spec as { ports: Array<{ port: number }> }).ports[0]!.port).to.equal(Number(target.port === '' ? 5432 : target.port));
    expect(ha.some((o) => o.kind === 'StatefulSet' && o.metadata.name === 'model-gateway-postgres')).to.equal(true);
    expect(loadConfig({ DATABASE_URL: databaseUrl, REDIS_URL: 'redis://model-gateway-redis:6379' }, '/', { service: 'policy' }).databaseUrl).to.equal(databaseUrl);
    const np = ha.find((o) => o.kind === 'NetworkPolicy')!;
    const rules = (np.spec as { ingress: Array<{ from?: Array<{ podSelector?: { matchLabels?: Record<string, string> } }>; ports: Array<{ port: number }> }> }).ingress;
    expect(rules.some((r) => r.ports.some((p) => p.port === 5432) && r.from?.[0]?.podSelector?.matchLabels?.['app.kubernetes.io/component'] === 'policy')).to.equal(true);

    // The operator-managed variant: a CloudNativePG Cluster, whose app Secret the replicas read.
    const cluster = haCnpg.find((o) => o.kind === 'Cluster')!;
    expect(cluster.apiVersion).to.equal('postgresql.cnpg.io/v1');
    expect((cluster.spec as { instances: number }).instances).to.equal(3);
    const cnpgPolicy = haCnpg.find((o) => o.kind === 'Deployment' && o.metadata.name === 'model-gateway-policy')!;
    const ref = (podSpec(cnpgPolicy).containers[0] as unknown as { env: Array<{ name: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }> }).env.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef;
    expect(ref).to.deep.equal({ name: `${cluster.metadata.name}-app`, key: 'uri' });
    expect(haCnpg.filter((o) => ['model-gateway-postgres', 'gateway-postgres-demo', 'gateway-database'].some((n) => o.metadata.name.startsWith(n)))).to.deep.equal([]);
  });

  it('in ha the proxies dial every policy replica: POLICY_TARGET names a headless Service over the policy pods', function () {
    for (const [name, objects] of [['ha', ha], ['ha-cloudnativepg', haCnpg]] as const) {
      const proxy = podSpec(objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'model-gateway-proxy')!).containers[0]!;
      const target = parsePolicyTarget(envOf(proxy)['POLICY_TARGET'] as string);
      expect(target, name).to.include({ kind: 'dns' });
      const { host, port } = target as { host: string; port: number };
      const svc = objects.find((o) => o.kind === 'Service' && o.metadata.name === host)!;
      const spec = svc.spec as { clusterIP: string; selector: Record<string, string>; ports: Array<{ port: number }> };
      expect(spec.clusterIP, name).to.equal('None');
      expect(spec.ports[0]!.port, name).to.equal(port);
      const policy = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'model-gateway-policy')!;
      const labels = (policy.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels;
      for (const [k, v] of Object.entries(spec.selector)) expect(labels[k], `${name}: ${k}`).to.equal(v);
    }
  });

  it('every proxy and policy container of every rendering takes the traces endpoint from the optional ConfigMap key; compose sends both through the collector to Jaeger', function () {
    const tracing = { name: 'gateway-tracing', key: 'OTEL_EXPORTER_OTLP_ENDPOINT', optional: true };
    type EnvRef = { name: string; valueFrom?: { configMapKeyRef?: Record<string, unknown> } };
    for (const [name, objects] of [['base', base], ['scaled', scaled], ['ha', ha], ['ha-cloudnativepg', haCnpg]] as const) {
      const gateway = objects
        .filter((o) => o.kind === 'StatefulSet' || o.kind === 'Deployment')
        .flatMap((o) => podSpec(o).containers.filter((c) => c.name === 'proxy' || c.name === 'policy').map((c) => [`${name}: ${o.metadata.name}/${c.name}`, c] as const));
      expect(new Set(gateway.map(([, c]) => c.name)), name).to.deep.equal(new Set(['proxy', 'policy']));
      for (const [where, c] of gateway) {
        const ref = (c.env as EnvRef[] | undefined)?.find((e) => e.name === 'OTEL_EXPORTER_OTLP_ENDPOINT')?.valueFrom?.configMapKeyRef;
        expect(ref, where).to.deep.equal(tracing);
      }
    }

    const compose = parse(readFileSync(join(REPO_ROOT, 'deploy/compose/docker-compose.yml'), 'utf8')) as {
      services: Record<string, { environment?: Record<string, string>; volumes?: string[] }>;
    };
    const endpoints = ['proxy', 'policy'].map((s) => new URL(compose.services[s]?.environment?.['OTEL_EXPORTER_OTLP_ENDPOINT'] ?? 'http://unset'));
    const collectorHost = endpoints[0]!.hostname;
    expect(endpoints.map((u) => u.host)).to.deep.equal([endpoints[0]!.host, endpoints[0]!.host]);
    const collector = compose.services[collectorHost];
    expect(collector, `a compose service named ${collectorHost}`).to.not.equal(undefined);
    // The collector's own configuration, as mounted: an OTLP/HTTP receiver on that port, a traces pipeline to Jaeger.
    const mount = collector!.volumes?.map((v) => v.split(':')).find(([, target]) => target === '/etc/otelcol/config.yaml');
    const config = parse(readFileSync(join(REPO_ROOT, 'deploy/compose', mount![0]!), 'utf8')) as {
      receivers: { otlp: { protocols: { http: { endpoint: string } } } };
      exporters: Record<string, { endpoint: string }>;
      service: { pipelines: { traces: { receivers: string[]; exporters: string[] } } };
    };
    expect(config.receivers.otlp.protocols.http.endpoint.split(':').pop()).to.equal(endpoints[0]!.port);
    expect(config.service.pipelines.traces.receivers).to.include('otlp');
    const exporter = config.exporters[config.service.pipelines.traces.exporters[0]!]!;
    const jaegerHost = exporter.endpoint.split(':')[0]!;
    expect(compose.services[jaegerHost], `a compose service named ${jaegerHost}`).to.not.equal(undefined);
    expect(compose.services[jaegerHost] as unknown as { image: string }).to.have.property('image').that.matches(/jaeger|tempo/);
  });

  it('the catalogue ConfigMap carries the repo\'s catalogue', function () {
    const cm = base.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('gateway-catalogue'))!;
    const shipped = JSON.parse(readFileSync(join(REPO_ROOT, 'policy/catalogue/catalogue.json'), 'utf8')) as unknown;
    expect(JSON.parse((cm['data'] as Record<string, string>)['catalogue.json']!)).to.deep.equal(shipped);
  });

  it('the Grafana board and the alerts query only metrics the processes expose, and the PrometheusRule carries the alerts file', function () {
    const exposed = exposedMetrics();
    const board = readFileSync(join(REPO_ROOT, 'deploy/monitoring/grafana-dashboard.json'), 'utf8');
    const alerts = readFileSync(join(REPO_ROOT, 'deploy/monitoring/alerts.yml'), 'utf8');
    for (const [what, text] of [['board', board], ['alerts', alerts]] as const) {
      const used = referencedMetrics(text);
      expect(used.length, what).to.be.greaterThan(4);
      expect(used.filter((m) => !exposed.has(m)), what).to.deep.equal([]);
    }
    const rule = base.find((o) => o.kind === 'PrometheusRule')!;
    expect(rule.spec).to.deep.equal(parse(alerts));
    // The board covers what an operator looks at first.
    for (const m of ['gateway_requests_total', 'gateway_overhead_seconds_bucket', 'gen_ai_server_time_to_first_token_seconds_bucket',
      'gateway_tokens_total', 'gateway_cost_gbp_total', 'gateway_refusals_total', 'gateway_usage_spool_reports']) {
      expect(board, m).to.contain(m);
    }
  });

  it('the Dockerfile copies only what exists, runs as the numeric non-root user every gateway pod names, and compose builds it', function () {
    const dockerfile = readFileSync(join(REPO_ROOT, 'deploy/Dockerfile'), 'utf8');
    const copies = [...dockerfile.matchAll(/^COPY (?!--from)(.+)$/gm)].map((m) => m[1]!.trim().split(/\s+/).slice(0, -1)).flat();
    expect(copies.length).to.be.greaterThan(3);
    for (const src of copies) expect(existsSync(join(REPO_ROOT, src)), src).to.equal(true);
    // A numeric user (the base image's `node`), the one every gateway pod runs as.
    const user = /^USER (\d+):(\d+)$/m.exec(dockerfile);
    expect(user, 'USER uid:gid').to.not.equal(null);
    const [uid, gid] = [Number(user![1]), Number(user![2])];
    expect(uid).to.be.greaterThan(0);
    const dependency = (o: Obj) => ['model-gateway-redis', 'model-gateway-postgres'].includes(o.metadata.name);
    for (const o of [...base, ...scaled, ...ha, ...haCnpg]) {
      if ((o.kind !== 'StatefulSet' && o.kind !== 'Deployment') || dependency(o)) continue;
      const security = (podSpec(o) as PodSpec & { securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; runAsGroup?: number } }).securityContext;
      expect(security, `${o.kind}/${o.metadata.name}`).to.deep.include({ runAsNonRoot: true, runAsUser: uid, runAsGroup: gid });
    }
    expect(dockerfile.match(/^FROM /gm)).to.have.length(2);
    const compose = parse(readFileSync(join(REPO_ROOT, 'deploy/compose/docker-compose.yml'), 'utf8')) as { services: Record<string, unknown> };
    expect(Object.keys(compose.services)).to.include.members(['redis', 'policy', 'proxy', 'prometheus', 'grafana']);
    for (const f of ['deploy/compose/prometheus.yml', 'deploy/compose/grafana/provisioning/datasources/prometheus.yml', 'deploy/compose/grafana/provisioning/dashboards/model-gateway.yml', '.dockerignore']) {
      expect(existsSync(join(REPO_ROOT, f)), f).to.equal(true);
    }
  });
});
