// CPU the attestation adds to one request (issue 23's budget: signing and hashing ≤ 100 µs), measured on the proxy's
// own code: for each body size, N requests in turn do what an admitted request adds — the per-request attestation,
// the SHA-256 of the forwarded bytes, the signature of the 200 statement (node:crypto Ed25519, compact JWS) and the header —
// and the process's CPU time (every thread) is divided by N. Also the signature
// and the digest alone, and the same at 16 requests in flight. `npm run bench:attestation` (builds first).
// Knobs (env): BENCH_REQUESTS (default 5000), BENCH_ROUNDS (default 3; the median round is reported).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { createLogger } from '@gateway/shared';
import { AttestationKeyRing, Attestor } from '../proxy/dist/src/attestation/index.js';
import { intFromEnv } from './stats.mjs';

const N = intFromEnv('BENCH_REQUESTS', 5000, 1);
const ROUNDS = intFromEnv('BENCH_ROUNDS', 3, 1);
const log = createLogger('bench', 'silent');
const dir = mkdtempSync(join(tmpdir(), 'attest-bench-'));
const ring = await AttestationKeyRing.open({ keyFile: join(dir, 'keys.pem'), inDataDir: true, retainDays: 30 }, log);
const attestor = new Attestor(ring, log, 'a'.repeat(64));

const grant = {
  key: { key_id: 'key_01JD4M8Q2X7V9T3K5N6P8R0S2U', account_id: 'acct_01JD4M8Q2X7V9T3K5N6P8R0S2V', environment: 'live', residency: 'eu', privacy_mode: 'redact' },
  model: 'alpha-sonnet-5',
  route: { upstream_model: 'eu.anthropic.alpha-sonnet-5-v1:0', call_region: 'eu-central-1', processing_regions: ['eu-central-1', 'eu-west-1', 'eu-west-3', 'eu-north-1', 'eu-south-1', 'eu-south-2', 'eu-central-2'] },
  lease_id: 'lease', lease_expires_unix_ms: 0, reserved_units: 0, evidence: null,
};
/** What the route's response object offers the attestation: headers not yet sent, setHeader. */
const fakeRes = () => ({ headersSent: false, header: '', setHeader(_n, v) { this.header = v; }, removeHeader() {} });

function cpuUs() {
  const u = process.cpuUsage();
  return u.user + u.system;
}

async function measure(label, fn, inFlight = 1) {
  const perRound = [];
  for (let r = 0; r < ROUNDS; r += 1) {
    for (let i = 0; i < 200; i += 1) await fn(); // warm
    const c0 = cpuUs();
    const w0 = performance.now();
    for (let i = 0; i < N; i += inFlight) await Promise.all(Array.from({ length: inFlight }, fn));
    perRound.push({ cpu: (cpuUs() - c0) / N, wall: ((performance.now() - w0) * 1000) / N });
  }
  perRound.sort((a, b) => a.cpu - b.cpu);
  const m = perRound[Math.floor(perRound.length / 2)];
  console.log(`${label.padEnd(48)} ${m.cpu.toFixed(1).padStart(7)} µs CPU  ${m.wall.toFixed(1).padStart(7)} µs wall`);
}

console.log(`node ${process.version}, ${N} requests × ${ROUNDS} rounds (median round)`);
for (const kib of [1, 8, 64]) {
  const body = Buffer.from(JSON.stringify({ model: grant.route.upstream_model, max_tokens: 1024, messages: [{ role: 'user', content: 'x'.repeat(kib * 1024 - 100) }] }));
  const request = async () => {
    const a = attestor.admitted('req_0123456789abcdefghijklmnop', grant, 'f'.repeat(64));
    a.privacy({ EMAIL: 1 });
    a.forwarded(body);
    await a.attach(fakeRes(), 200);
  };
  await measure(`whole request, ${kib} KiB body`, request);
  if (kib === 8) await measure(`whole request, ${kib} KiB body, 16 in flight`, request, 16);
  await measure(`  SHA-256 of the ${kib} KiB body alone`, async () => void createHash('sha256').update(body).digest('hex'));
}
const facts = { requestId: 'req_x', key: grant.key, catalogueSha256: 'f'.repeat(64), route: grant.route, evidence: null, piiCounts: {}, forwardedSha256: 'e'.repeat(64) };
await measure('  signature alone (claims, JSON, Ed25519 sign)', () => attestor.sign(facts, 200));
ring.stop();
rmSync(dir, { recursive: true, force: true });
