// The body scan's cost beside JSON.parse's on the same bytes: the scan runs on every request before JSON.parse,
// so it must stay a small fraction of it. Run with `npm run bench:json-shape` (builds first). Bodies are generated
// deterministically; figures are medians of 7 runs after 2 warm-ups, reported as ratios (never asserted in tests).
import { performance } from 'node:perf_hooks';
import { jsonShapeError } from '../proxy/dist/src/http/json-shape.js';

const MiB = 1024 * 1024;
const bodies = {
  '32 MiB of prose in one string': JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'lorem ipsum '.repeat((32 * MiB) / 12) }] }),
  '8 MiB with an escape every 40 bytes': JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'a "quoted" line of text\n'.repeat((8 * MiB) / 24) }] }),
  'tool results (240,000 small values)': JSON.stringify({
    model: 'm',
    messages: Array.from({ length: 1_000 }, (_, i) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: Array.from({ length: 60 }, (_, k) => ({ k, v: 'x'.repeat(40) })) }] })),
  }),
};

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function time(fn) {
  const runs = [];
  for (let i = 0; i < 9; i += 1) {
    const t = performance.now();
    fn();
    if (i >= 2) runs.push(performance.now() - t);
  }
  return median(runs);
}

const result = {};
console.log('body                                          MB     scan ms  parse ms  scan/parse');
for (const [name, text] of Object.entries(bodies)) {
  const buf = Buffer.from(text);
  if (jsonShapeError(buf) !== undefined) throw new Error(`${name}: refused by the scan`);
  const scan = time(() => jsonShapeError(buf));
  const parse = time(() => JSON.parse(buf.toString()));
  result[name] = { mb: +(buf.length / 1e6).toFixed(1), scanMs: +scan.toFixed(2), parseMs: +parse.toFixed(2), ratio: +(scan / parse).toFixed(3) };
  console.log(`${name.padEnd(44)} ${(buf.length / 1e6).toFixed(1).padStart(5)} ${scan.toFixed(1).padStart(10)} ${parse.toFixed(1).padStart(9)} ${(scan / parse).toFixed(3).padStart(11)}`);
}
console.log(`result: ${JSON.stringify(result)}`);
