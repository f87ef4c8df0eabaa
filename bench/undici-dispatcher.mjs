// `node bench/undici-dispatcher.mjs`: the client-side CPU per request of the upstream leg's dispatch through an
// undici Agent (as the gateway's upstream client) against a Pool for the one origin (as bench/skeleton/), on the
// fast mock, 16 in flight, 8 alternating rounds of 4,000 requests, each with a minimal dispatch handler as
// proxy/src/upstream/upstream-call.ts uses. Prints each arm's median and rounds, and the paired differences.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Agent, Pool } from 'undici';
const mock = spawn(process.execPath, [fileURLToPath(new URL('./fast-mock.mjs', import.meta.url))], { stdio: ['ignore', 'pipe', 'ignore'] });
const port = await new Promise((r) => mock.stdout.on('data', (d) => { const m = /"port":(\d+)/.exec(String(d)); if (m) r(Number(m[1])); }));
const origin = `http://127.0.0.1:${port}`;
const body = Buffer.from(JSON.stringify({ model: 'm', max_tokens: 64, messages: [{ role: 'user', content: 'Please summarise the attached meeting notes.' }] }));
const headers = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'k' };
function once(d) {
  return new Promise((resolve, reject) => {
    d.dispatch({ origin, path: '/v1/messages', method: 'POST', headers, body, headersTimeout: 10000, bodyTimeout: 10000 }, {
      onRequestStart() {}, onResponseStart() {}, onResponseData() {}, onResponseEnd() { resolve(); }, onResponseError(_c, e) { reject(e); },
    });
  });
}
async function round(d, n) {
  let left = n;
  const c0 = process.cpuUsage();
  await Promise.all(Array.from({ length: 16 }, async () => { while (left-- > 0) await once(d); }));
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
}
const agent = new Agent({ connect: { timeout: 5000 }, keepAliveTimeout: 4000 });
const pool = new Pool(origin, { connect: { timeout: 5000 }, keepAliveTimeout: 4000 });
await round(agent, 3000); await round(pool, 3000);
const res = { agent: [], pool: [] };
for (let r = 0; r < 8; r++) { res.agent.push(await round(agent, 4000)); res.pool.push(await round(pool, 4000)); }
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const [k, v] of Object.entries(res)) console.log(k, 'median', med(v).toFixed(1), 'µs CPU/request; rounds', v.map((x) => x.toFixed(1)).join(', '));
console.log('paired pool − agent per round:', res.pool.map((p, i) => (p - res.agent[i]).toFixed(1)).join(', '));
await agent.close(); await pool.close(); mock.kill();
