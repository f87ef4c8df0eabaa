// The functions with the most self time in a V8 CPU profile (.cpuprofile, from node --cpu-prof): where a process
// spends its time, without opening a profiler. `node bench/profile-top.mjs FILE [N]`, or topSelfTime() from a bench.
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const line of topSelfTime(process.argv[2], Number(process.argv[3] ?? 25))) process.stdout.write(`${line}\n`);
}
