// The time the privacy step adds to a coding agent's request: the Claude Code CLI's captured request
// (test/fixtures/claude-code-request.json: system prompt, 24 tool definitions, a system-role message) grown
// to ~115 KB with one more turn that reads a source file, as agents do. Each mode is timed as the proxy runs
// it (`applyPrivacyWith` through a DetectorPool, which scans requests over 64 K characters in a worker
// thread) and in place (`applyPrivacy`). Run with `npm run bench:privacy-agent` (builds first).
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { applyPrivacy, applyPrivacyWith, loadNameModel, privacyTextLength, useNameModel } from '@gateway/privacy';
import { DetectorPool } from '../proxy/dist/src/privacy/detector-pool.js';

const mb = (n) => `${(n / 1024 / 1024).toFixed(0)} MB`;
// RSS as the proxy starts: before the person-name model, after loading it (its weights are shared with the
// detector threads), and with the pool at the proxy's default size (one thread per spare core) after the rounds.
const rssBefore = process.memoryUsage().rss;
const nameModel = loadNameModel();
useNameModel(nameModel);
const rssModel = process.memoryUsage().rss;

const ROUNDS = 200;
const TARGET_BYTES = 115 * 1024;

function agentRequest() {
  const { body } = JSON.parse(readFileSync(new URL('../test/fixtures/claude-code-request.json', import.meta.url), 'utf8'));
  const sources = ['proxy/src/routes/messages-route.ts', 'privacy/src/apply-privacy.ts', 'proxy/src/upstream/messages-upstream.ts',
    'policy/src/decision-service.ts', 'policy/src/counters/redis-counter-store.ts', 'shared/src/errors.ts', 'shared/src/config.ts']
    .map((p) => readFileSync(new URL(`../${p}`, import.meta.url), 'utf8'))
    .join('\n');
  const room = TARGET_BYTES - Buffer.byteLength(JSON.stringify(body));
  const code = sources.slice(0, Math.max(0, room - 400));
  body.messages.push(
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'Read', input: { file_path: '/work/repo/src/app.ts' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: code }] },
  );
  return body;
}

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function time(fn, template) {
  for (let i = 0; i < 20; i++) await fn(structuredClone(template));
  const ms = [];
  for (let i = 0; i < ROUNDS; i++) {
    const copy = structuredClone(template);
    const t0 = performance.now();
    await fn(copy);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { p50: quantile(ms, 0.5), p95: quantile(ms, 0.95) };
}

const template = agentRequest();
const poolSize = Math.max(1, availableParallelism() - 1);
const pool = new DetectorPool(poolSize, undefined, nameModel);
const bytes = Buffer.byteLength(JSON.stringify(template));
console.log(`request: ${(bytes / 1024).toFixed(1)} KB of JSON, ${(privacyTextLength(template) / 1024).toFixed(1)} K characters of text scanned`);
console.log('| mode | as the proxy runs it (worker thread) p50 / p95 | in place p50 / p95 | findings |');
console.log('|---|---|---|---|');
for (const mode of ['flag', 'redact', 'tokenise']) {
  const pooled = await time((b) => applyPrivacyWith(b, mode, pool.detectMany), template);
  const inline = await time((b) => applyPrivacy(b, mode), template);
  const counts = applyPrivacy(structuredClone(template), mode).counts;
  const found = Object.entries(counts).map(([t, n]) => `${t}=${n}`).join(', ') || 'none';
  console.log(`| ${mode} | ${pooled.p50.toFixed(2)} / ${pooled.p95.toFixed(2)} ms | ${inline.p50.toFixed(2)} / ${inline.p95.toFixed(2)} ms | ${found} |`);
}
const rssPool = process.memoryUsage().rss;
console.log(`RSS: ${mb(rssBefore)} before the person-name model, ${mb(rssModel)} with it loaded (+${mb(rssModel - rssBefore)}), ` +
  `${mb(rssPool)} with the detector pool at its default size (${poolSize} thread${poolSize === 1 ? '' : 's'}) after the rounds`);
await pool.close();
