// What a small neural tagger would cost per word, for docs/privacy.md (i): a window MLP (5 words × 64-dim
// embeddings → 128 hidden → 9 tags) scored one word at a time in plain JavaScript, as the name tagger scores
// each capitalised word. Weights are random: only the time is measured. Run: node bench/window-mlp-cost.mjs
const IN = 5 * 64;
const H = 128;
const T = 9;
const W1 = new Float32Array(IN * H).map(() => Math.random() - 0.5);
const W2 = new Float32Array(H * T).map(() => Math.random() - 0.5);
const x = new Float32Array(IN).map(() => Math.random());
const h = new Float32Array(H);
const o = new Float32Array(T);

function scoreWord() {
  for (let j = 0; j < H; j++) {
    let s = 0;
    const b = j * IN;
    for (let i = 0; i < IN; i++) s += W1[b + i] * x[i];
    h[j] = s > 0 ? s : 0;
  }
  for (let t = 0; t < T; t++) {
    let s = 0;
    const b = t * H;
    for (let j = 0; j < H; j++) s += W2[b + j] * h[j];
    o[t] = s;
  }
}

for (let k = 0; k < 20_000; k++) scoreWord();
const n = 200_000;
const t0 = performance.now();
for (let k = 0; k < n; k++) scoreWord();
const perSecond = n / ((performance.now() - t0) / 1000);
console.log(`window MLP ${IN} -> ${H} -> ${T}: ${Math.round(perSecond / 1000)}k words/s (one core)`);
// News prose has 40-48k capitalised words per MB: 8 MB/s through the detector needs 320-390k a second.
console.log(`at 44k capitalised words per MB of news prose: ${(perSecond / 44_000).toFixed(2)} MB/s for the tagger alone`);
