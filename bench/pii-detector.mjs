// Detector throughput (MB/s) on mixed prose and on digit-heavy text, and the latency applyPrivacy adds in
// tokenise mode for a 10 KB prompt. Run with `npm run bench:pii` (builds first). Inputs are generated
// deterministically so figures are comparable between runs; values are synthetic.
import { performance } from 'node:perf_hooks';
import { applyPrivacy, detect } from '@gateway/privacy';

let seed = 42;
function rand() {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (a) => a[Math.floor(rand() * a.length)];
const digits = (n) => Array.from({ length: n }, () => Math.floor(rand() * 10)).join('');

const WORDS = (
  'the of and to in is was for on that with as it by at from this be are or an have not which were has ' +
  'customer request account please thanks regarding delivery invoice meeting project update team report ' +
  'summary model prompt response latency region London Manchester policy review approved schedule next ' +
  'week Monday quarter budget contract supplier data protection assessment retention'
).split(' ');
const PII = [
  () => `jane.doe${digits(2)}@example.co.uk`,
  () => `07${pick(["700", "911", "412", "803"])} ${digits(6)}`,
  () => `+44 20 7${digits(3)} ${digits(4)}`,
  () => 'SW1A 1AA',
  () => '943 476 5919',
  () => 'GB82 WEST 1234 5698 7654 32',
  () => `81.2.69.${Math.floor(rand() * 250)}`,
];

function sentence() {
  const n = 8 + Math.floor(rand() * 14);
  const words = [];
  for (let i = 0; i < n; i++) words.push(pick(WORDS));
  if (rand() < 0.08) words.splice(Math.floor(rand() * n), 0, pick(PII)());
  if (rand() < 0.15) words.push(String(Math.floor(rand() * 2000)));
  const s = words.join(' ');
  return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
}

function mixedProse(bytes) {
  const parts = [];
  let size = 0;
  while (size < bytes) {
    const s = sentence();
    parts.push(s);
    size += s.length + 1;
  }
  return parts.join(rand() < 0.1 ? '\n' : ' ');
}

function digitHeavy(bytes) {
  const lines = [];
  let size = 0;
  while (size < bytes) {
    const line = pick([
      () => `2024-01-${10 + Math.floor(rand() * 18)}T10:${digits(2)}:${digits(2)}.${digits(3)}Z id=${digits(10)} ts=17${digits(11)} amount=${digits(4)}.${digits(2)}`,
      () => `${digits(6)},${digits(3)} ${digits(3)} ${digits(4)},${digits(12)},${digits(2)}/${digits(2)}/${digits(4)},${digits(1)}.${digits(3)}`,
      () => `order ${digits(3)}-${digits(7)}-${digits(7)} qty ${digits(2)} sku ${digits(8)} ref ${digits(4)} ${digits(4)} ${digits(4)}`,
      () => `10.${digits(1)}.${digits(2)}.${digits(1)} -> ${digits(3)}.${digits(2)}.${digits(1)}.${digits(2)} bytes=${digits(7)} port=${digits(4)}`,
    ])();
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

function throughput(label, text, rounds) {
  const mb = Buffer.byteLength(text) / 1e6;
  let findings = 0;
  for (let i = 0; i < 2; i++) findings = detect(text).length; // warm-up
  const times = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    detect(text);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(`${label}: ${mb.toFixed(2)} MB, ${findings} findings, median ${median.toFixed(1)} ms -> ${(mb / (median / 1000)).toFixed(1)} MB/s`);
}

function tokeniseLatency(rounds) {
  let text = '';
  while (text.length < 10_000) text += `${sentence()} `;
  const body = {
    model: 'alpha-sonnet-4-6',
    max_tokens: 1024,
    system: 'You are a helpful assistant for the support team.',
    messages: [
      { role: 'user', content: text.slice(0, 5_000) },
      { role: 'assistant', content: [{ type: 'text', text: 'Thanks, noted.' }] },
      { role: 'user', content: [{ type: 'text', text: text.slice(5_000) }] },
    ],
  };
  const bodies = Array.from({ length: rounds + 20 }, () => structuredClone(body));
  for (let i = 0; i < 20; i++) applyPrivacy(bodies[i], 'tokenise'); // warm-up
  const times = [];
  let counts = {};
  for (let i = 20; i < bodies.length; i++) {
    const t0 = performance.now();
    counts = applyPrivacy(bodies[i], 'tokenise').counts;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const q = (p) => times[Math.min(times.length - 1, Math.floor(times.length * p))].toFixed(3);
  const found = Object.values(counts).reduce((a, b) => a + b, 0);
  console.log(`applyPrivacy(tokenise), ${Buffer.byteLength(JSON.stringify(body))} B body, ${found} findings: median ${q(0.5)} ms, p99 ${q(0.99)} ms`);
}

console.log(`node ${process.version}, ${process.arch}`);
throughput('mixed prose', mixedProse(4_000_000), 15);
throughput('digit-heavy', digitHeavy(2_000_000), 10);
tokeniseLatency(500);
