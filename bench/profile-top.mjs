// The functions with the most self time in a V8 CPU profile (.cpuprofile, from node --cpu-prof): where a process
// spends its time, without opening a profiler. `node bench/profile-top.mjs FILE [N]`, or topSelfTime() from a bench;
// `node bench/profile-top.mjs FILE --by-area [--policy]`: the busy time by area of work (busyTimeByArea; --policy:
// a policy service's profile, by POLICY_AREAS).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function topSelfTime(file, n = 15) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byNode = new Map();
  profile.samples.forEach((id, i) => byNode.set(id, (byNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byFunction = new Map();
  let total = 0;
  for (const node of profile.nodes) {
    const t = byNode.get(node.id) ?? 0;
    total += t;
    const f = node.callFrame;
    const where = f.url === '' ? '' : ` ${f.url.replace(/^.*\/node_modules\//, '').replace(/^.*\/(proxy|policy|shared)\/dist\//, '$1/')}:${f.lineNumber + 1}`;
    const key = `${f.functionName || '(anonymous)'}${where}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + t);
  }
  return [...byFunction]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([key, t]) => `${((100 * t) / total).toFixed(1).padStart(5)}%  ${key}`);
}

/**
 * Where a proxy's busy time goes, by area of work: each sample is charged to the innermost frame on its stack that
 * belongs to a library or to the product (so a native write under undici is undici's, JSON.parse under the body
 * reader is parsing), else to node's own code. Rules are [area, RegExp on the frame's url]; the first that matches
 * a frame wins. Idle time is left out; the shares are of the busy time.
 */
export const PROXY_AREAS = [
  ['attestation (signing)', /proxy\/dist\/src\/attestation\//],
  ['access log (pino, line log)', /\/pino\/|sonic-boom|proxy\/dist\/src\/access-log|shared\/dist\/src\/logger/],
  ['metrics (prom-client)', /prom-client|proxy\/dist\/src\/proxy-metrics/],
  ['tracing', /@opentelemetry|proxy\/dist\/src\/tracing\//],
  ['policy gRPC (grpc-js, protobuf)', /@grpc|protobufjs|proto-loader|proxy\/dist\/src\/(grpc-policy-client|policy-session|policy-replicas|usage-reporter|usage-spool)/],
  ['upstream HTTP (undici)', /undici/],
  ['body read, parse, checks', /proxy\/dist\/src\/(http\/|messages-request)|shared\/dist/],
  ['relay (message, SSE)', /proxy\/dist\/src\/relay\//],
  ['upstream call, route loop', /proxy\/dist\/src\/upstream\//],
  ['messages route (transform, forward, report)', /proxy\/dist\/src\/routes\//],
  ['express', /node_modules\/(express|router|body-parser|finalhandler|send|on-finished|content-type|type-is|depd|debug|qs|encodeurl|parseurl|proxy-addr)\//],
  ['skeleton proxy', /bench\/skeleton\//],
  ['proxy, other', /proxy\/dist\/|privacy\/dist\//],
  ['other libraries', /node_modules/],
];
/** The policy service's areas, as PROXY_AREAS: the product's modules first, then the libraries they call. */
export const POLICY_AREAS = [
  ['access and decision logs (pino)', /\/pino\/|sonic-boom|shared\/dist\/src\/logger/],
  ['metrics (prom-client)', /prom-client|policy\/dist\/src\/(policy-metrics|counters\/instrumented-counter-store)/],
  ['tracing', /@opentelemetry|policy\/dist\/src\/tracing\//],
  ['ledger (writer, SQLite/Postgres)', /policy\/dist\/src\/db\/|better-sqlite3|node_modules\/pg/],
  ['Redis scripts (counters, ioredis)', /policy\/dist\/src\/counters\/|ioredis|redis-parser|@ioredis|denque|cluster-key-slot/],
  ['gRPC (grpc-js, protobuf, session codec)', /@grpc|protobufjs|proto-loader|policy\/dist\/src\/(grpc-server|eager-send-interceptor)|shared\/dist\/src\/(session-|policy-)/],
  ['decision (keys, rules, catalogue, residency, billing)', /policy\/dist\/src\/(decision-|key-cache|catalogue|residency\/|billing|last-used|usage-summary)/],
  ['skeleton policy', /bench\/skeleton\//],
  ['policy, other', /policy\/dist\/|shared\/dist\//],
  ['other libraries', /node_modules/],
];
export function busyTimeByArea(file, areas = PROXY_AREAS) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const areaOfNode = new Map();
  const areaOf = (id) => {
    if (areaOfNode.has(id)) return areaOfNode.get(id);
    const f = byId.get(id).callFrame;
    let area;
    if (f.functionName === '(idle)') area = null;
    else if (f.functionName === '(garbage collector)') area = 'garbage collector';
    else if (f.functionName === '(program)') area = 'V8/native, outside JS ((program))';
    else {
      for (let at = id; at !== undefined && area === undefined; at = parent.get(at)) {
        const url = byId.get(at).callFrame.url;
        if (url !== '' && !url.startsWith('node:')) area = areas.find(([, re]) => re.test(url))?.[0];
      }
      area ??= 'node core (http server, streams, timers)';
    }
    areaOfNode.set(id, area);
    return area;
  };
  const totals = new Map();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const area = areaOf(id);
    if (area === null) return;
    const t = profile.timeDeltas[i] ?? 0;
    busy += t;
    totals.set(area, (totals.get(area) ?? 0) + t);
  });
  return { busyMs: busy / 1000, areas: [...totals].sort((a, b) => b[1] - a[1]).map(([area, t]) => ({ area, share: t / busy })) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--by-area')) {
    const { busyMs, areas } = busyTimeByArea(process.argv[2], process.argv.includes('--policy') ? POLICY_AREAS : PROXY_AREAS);
    process.stdout.write(`busy ${busyMs.toFixed(0)} ms\n`);
    for (const a of areas) process.stdout.write(`${(100 * a.share).toFixed(1).padStart(5)}%  ${a.area}\n`);
  } else {
    for (const line of topSelfTime(process.argv[2], Number(process.argv[3] ?? 25))) process.stdout.write(`${line}\n`);
  }
}
